import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinMix } from '../helpers/builtin.js';
import { ROOT, runCli, runMain, tempDir } from '../helpers/cli.js';

describe('filter says how much of the corpus looks like the task (real text)', () => {
  it("on stderr and in --stats, the same whatever --keep, near the task domain's share; -q drops the line, not the field", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const corpus = join(dir, 'corpus.jsonl');
      // 90 documents a source: the fewest that still give an estimate (at 60 there is none).
      const docs = builtinMix(90);
      writeFileSync(corpus, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const model = join(dir, 'model.json');
      const fit = await runCli(['fit', '--task', join(ROOT, 'corpora', 'builtin', 'task-bio.txt.gz'), '-o', model]);
      expect(fit.code, fit.stderr).toBe(0);
      const read = async (keep: string, extra: string[] = []) => {
        const stats = join(dir, `stats-${keep}.json`);
        const f = await runMain(['filter', '-m', model, corpus, '-o', join(dir, `kept-${keep}.jsonl`), '--keep', keep, '--stats', stats, ...extra]);
        expect(f.code, f.stderr).toBe(0);
        return { stderr: f.stderr, stats: JSON.parse(readFileSync(stats, 'utf8')) as { taskShare?: { estimate: number; low: number; high: number }; taskShareNone?: string } };
      };
      // Each run completes the model from the corpus (seconds): two, the second also -q.
      const a = await read('0.05');
      const b = await read('0.3', ['-q']);
      // The built-in mix's bio abstracts stand apart from the rest: there is an estimate.
      expect(a.stats.taskShareNone, a.stderr).toBeUndefined();
      expect(a.stats.taskShare, a.stderr).toBeDefined();
      // The keep sizes the self-training, never the estimate: both runs read the same; -q drops the line, not the field.
      expect(b.stats.taskShare).toEqual(a.stats.taskShare);
      expect(b.stats.taskShareNone).toBeUndefined();
      expect(b.stderr).not.toMatch(/looks? like the task/);
      const share = a.stats.taskShare!;
      const line = /tadpole: about ([\d.]+)% of the corpus's sentences look like the task \(range ([\d.]+)%-([\d.]+)%\)/.exec(a.stderr);
      expect(line, a.stderr).not.toBeNull();
      expect(share.estimate * 100).toBeCloseTo(Number(line![1]), 1);
      expect(share.low).toBeLessThanOrEqual(share.estimate);
      expect(share.high).toBeGreaterThanOrEqual(share.estimate);
      // Five sources, as many documents each: near the bio share, not the keep.
      const bio = docs.filter((d) => d.source === 'bio').length / docs.length;
      expect(share.estimate).toBeGreaterThan(bio / 2);
      expect(share.estimate).toBeLessThan(bio * 2);
    } finally {
      cleanup();
    }
  }, 180_000);
});
