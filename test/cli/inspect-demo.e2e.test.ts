import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/text/sentences.js';
import { ROOT, runMain, tempDir } from '../helpers/cli.js';
import { demoRun } from '../helpers/demo-run.js';

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('inspect --task on the demo kept text (built-in corpus)', () => {
  it('calls no group of biomedical abstracts unlike the task, even on topics the task lacks', async () => {
    const { dir, cleanup } = tempDir();
    try {
      // The demo's kept text: about 98% PubMedQA abstracts, the rest Wikipedia and CS abstracts.
      const demo = await demoRun();
      expect(demo.code, demo.stderr).toBe(0);
      const kept = join(demo.dir, 'kept.jsonl');
      const task = join(ROOT, 'corpora', 'builtin', 'task-bio.txt.gz');
      const groupsDir = join(dir, 'groups');
      const r = await runMain(['inspect', kept, '--task', task, '--json', '--write-groups', groupsDir]);
      expect(r.code, r.stderr).toBe(0);
      const groups = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as { group: number; share: number; unlike: number; verdict: string; taskLike: boolean; avoid: string | null; file: string });

      const source = new Map<string, string>();
      for (const line of readFileSync(kept, 'utf8').split('\n')) {
        if (!line) continue;
        const { text, source: s } = JSON.parse(line) as { text: string; source: string };
        const spans = splitSentences(text);
        for (let i = 0; i < spans.length; i += 2) source.set(oneLine(text.slice(spans[i], spans[i + 1])), s);
      }
      const bioShare = (file: string) => {
        let bio = 0;
        let all = 0;
        for (const s of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
          all += s.length;
          if (source.get(s) === 'bio') bio += s.length;
        }
        return bio / all;
      };
      // Some groups are mostly in pieces whose words the task rarely uses (abstracts on topics its
      // 250 abstracts do not cover): the case where an --avoid would push away wanted text.
      const rare = groups.filter((g) => g.unlike >= 0.5);
      expect(rare.filter((g) => bioShare(g.file) > 0.5).length).toBeGreaterThan(0);
      for (const g of groups) {
        expect(['unlike', 'off-topic', 'task-like']).toContain(g.verdict);
        expect(g.taskLike).toBe(g.verdict !== 'unlike');
        // An unlike group, if any, is mostly the demo's non-biomedical text; a mostly-biomedical one is never unlike.
        if (g.verdict === 'unlike') expect(bioShare(g.file)).toBeLessThan(0.5);
      }
      const report = await runMain(['inspect', kept, '--task', task]);
      expect(report.code, report.stderr).toBe(0);
      const avoids = (report.stdout.toString().match(/to avoid it: /g) ?? []).length;
      expect(avoids).toBe(groups.filter((g) => g.avoid !== null).length);
      // Groups on topics the task lacks (mostly the task's own kind) get no ready refit.
      expect(report.stdout.toString()).not.toMatch(/if these topics are not wanted/);
      const noted = (report.stdout.toString().match(/most likely your domain on topics your task lacks/g) ?? []).length;
      expect(noted).toBe(groups.filter((g) => g.verdict === 'off-topic').length);
      // Offered: an unlike group of at least 1% of the text; they come first.
      for (const g of groups) expect(g.avoid !== null).toBe(g.verdict === 'unlike' && g.share >= 0.01);
      const offered = groups.map((g) => g.avoid !== null);
      expect(offered).toEqual([...offered].sort((a, b) => Number(b) - Number(a)));
    } finally {
      cleanup();
    }
  }, 120_000);
});
