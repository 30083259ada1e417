import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinMix } from '../helpers/builtin.js';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';

describe('filter says how much of the corpus looks like the task (real text)', () => {
  it('on stderr and in --stats, near the task domain\'s true share of the sentences; -q drops the line, not the field', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const corpus = join(dir, 'corpus.jsonl');
      const docs = builtinMix(150);
      writeFileSync(corpus, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const model = join(dir, 'model.json');
      const fit = await runCli(['fit', '--task', join(ROOT, 'corpora', 'builtin', 'task-bio.txt.gz'), '-o', model]);
      expect(fit.code, fit.stderr).toBe(0);
      const stats = join(dir, 'stats.json');
      const f = await runCli(['filter', '-m', model, corpus, '-o', join(dir, 'kept.jsonl'), '--stats', stats]);
      expect(f.code, f.stderr).toBe(0);
      const line = /tadpole: about ([\d.]+)% of the corpus's sentences look like the task \(range ([\d.]+)%-([\d.]+)%\)/.exec(f.stderr);
      expect(line, f.stderr).not.toBeNull();
      const s = JSON.parse(readFileSync(stats, 'utf8'));
      expect(s.taskShare.estimate * 100).toBeCloseTo(Number(line![1]), 1);
      expect(s.taskShare.low).toBeLessThanOrEqual(s.taskShare.estimate);
      expect(s.taskShare.high).toBeGreaterThanOrEqual(s.taskShare.estimate);
      // Five sources, as many documents each: the estimate is near the bio share, not the whole.
      const bioDocs = docs.filter((d) => d.source === 'bio').length / docs.length;
      expect(s.taskShare.estimate).toBeGreaterThan(bioDocs / 3);
      expect(s.taskShare.estimate).toBeLessThan(bioDocs * 3);
      const quiet = await runCli(['filter', '-m', model, corpus, '-o', join(dir, 'kept2.jsonl'), '--stats', stats, '-q']);
      expect(quiet.stderr).not.toMatch(/look like the task/);
      expect(JSON.parse(readFileSync(stats, 'utf8')).taskShare).toEqual(s.taskShare);
    } finally {
      cleanup();
    }
  }, 120_000);
});
