import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir, sharedPath } from '../../src/core/shared.js';
import { csvRecords } from '../../src/eval/csv.js';
import { AVOID_DEFAULTS } from '../../src/select/avoid.js';
import { stripEmailHeaders } from '../../src/eval/normalize.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { corpusRecords } from '../helpers/corpora.js';

/** AG News sports items (title + description): mostly US leagues. */
async function agNewsSports(limit: number): Promise<string[]> {
  const text = gunzipSync(readFileSync(sharedPath('corpora', 'task-ag-news', 'test.csv.gz'))).toString('utf8');
  async function* lines(): AsyncIterable<string> {
    yield* text.split('\n');
  }
  const out: string[] = [];
  let header = true;
  for await (const r of csvRecords(lines())) {
    if (header) {
      header = false;
      continue;
    }
    if (r[0] === '2') out.push(`${r[1]}. ${(r[2] ?? '').replace(/\\/g, ' ')}`);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The check suite's topic-sport case in small: a task of US sports news against a corpus of BBC
 * sport, BBC politics and entertainment, and Usenet hockey and baseball posts. The default
 * cannot know whether the user wants sport news or any sport talk; --avoid with other Usenet
 * posts tells it.
 */
describe.skipIf(!sharedDir())('fit --avoid (real text)', () => {
  it('text given as not wanted is kept less, and BBC sport more, than without it', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const bbc = corpusRecords('news-bbc/docs.jsonl.gz');
      const forum = corpusRecords('forum-20newsgroups/docs.jsonl.gz').filter((r) => r.newsgroup === 'rec.sport.hockey' || r.newsgroup === 'rec.sport.baseball');
      const docs: Array<{ text: string; source: string }> = [];
      for (const r of bbc.filter((r) => r.category === 'sport').slice(0, 50)) docs.push({ text: String(r.text), source: 'sport' });
      for (const r of bbc.filter((r) => r.category === 'politics' || r.category === 'entertainment').slice(0, 70)) docs.push({ text: String(r.text), source: 'news-other' });
      for (const r of forum.slice(0, 90)) docs.push({ text: stripEmailHeaders(String(r.text)), source: 'forum-sport' });
      const mixed = docs.map((d, i) => ({ d, k: (i * 2654435761) % 4294967296 })).sort((a, b) => a.k - b.k).map((x) => x.d);
      const corpus = join(dir, 'corpus.jsonl');
      writeFileSync(corpus, mixed.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const task = join(dir, 'task.txt');
      writeFileSync(task, (await agNewsSports(1500)).join('\n') + '\n');
      // Other posts of the same groups, none of them in the corpus.
      const avoid = join(dir, 'avoid.jsonl');
      writeFileSync(avoid, forum.slice(400, 410).map((r) => JSON.stringify({ text: stripEmailHeaders(String(r.text)) })).join('\n') + '\n');

      const keptShares = async (extra: string[], tag: string): Promise<{ share: Record<string, number>; stderr: string; model: Record<string, any> }> => {
        const model = join(dir, `${tag}.json`);
        const fit = await runCli(['fit', '--task', task, '--doc-per-line', '--general', corpus, ...extra, '-o', model]);
        expect(fit.code, fit.stderr).toBe(0);
        const out = join(dir, `${tag}.jsonl`);
        const f = await runCli(['filter', '-m', model, corpus, '-o', out, '-q']);
        expect(f.code, f.stderr).toBe(0);
        // The share of kept characters by source, the suite's measure.
        const kept = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { source: string; text: string });
        const all = kept.reduce((a, d) => a + d.text.length, 0);
        const share: Record<string, number> = {};
        for (const d of kept) share[d.source] = (share[d.source] ?? 0) + d.text.length / all;
        return { share, stderr: fit.stderr, model: JSON.parse(readFileSync(model, 'utf8')) };
      };
      const plain = await keptShares([], 'plain');
      const avoided = await keptShares(['--avoid', avoid], 'avoid');
      expect(avoided.stderr).toMatch(/avoid: \d+ sentences not to keep join the general side of every fit, each counted \d+ times? \(\d+% of the sample's weight\)/);
      expect(avoided.model.counts).toMatchObject({ avoidFiles: [avoid] });
      expect(avoided.model.counts.avoidSentences).toBeGreaterThan(50);
      expect(avoided.model.selector.state.avoid).toMatchObject({ share: AVOID_DEFAULTS.share, sentences: avoided.model.counts.avoidSentences });
      expect(avoided.share['forum-sport'] ?? 0).toBeLessThan((plain.share['forum-sport'] ?? 0) - 0.1);
      expect(avoided.share.sport ?? 0).toBeGreaterThan((plain.share.sport ?? 0) + 0.1);
    } finally {
      cleanup();
    }
  }, 120_000);

  it('is stored with the task when the corpus completes the model, and refused, before reading, by methods that do not weigh it', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const task = join(dir, 'task.txt');
      writeFileSync(task, (await agNewsSports(200)).join('\n') + '\n');
      const avoid = join(dir, 'avoid.txt');
      writeFileSync(avoid, 'Anyone know where I can find last season\'s box scores?\nThanks in advance for any help.\n');
      const model = join(dir, 'm.json');
      const fit = await runCli(['fit', '--task', task, '--doc-per-line', '--avoid', avoid, '-o', model]);
      expect(fit.code, fit.stderr).toBe(0);
      expect(fit.stderr).toMatch(/stored \d+ task sentences and 2 to avoid for tadpole/);
      expect(JSON.parse(readFileSync(model, 'utf8')).completion.avoid).toHaveLength(2);
      // More than the fit can weigh (a fifth of a 100-sentence sample): a seeded 20 are read.
      const many = join(dir, 'many.txt');
      writeFileSync(many, Array.from({ length: 50 }, (_, i) => `Post number ${i} about the game last night.`).join('\n') + '\n');
      const capped = await runCli(['fit', '--task', task, '--doc-per-line', '--avoid', many, '--general-sample', '100', '-o', model]);
      expect(capped.code, capped.stderr).toBe(0);
      expect(capped.stderr).toMatch(/--avoid: a seeded 20 of its sentences/);
      expect(JSON.parse(readFileSync(model, 'utf8')).completion.avoid).toHaveLength(20);
      const dsir = await runCli(['fit', '--task', task, '--method', 'dsir', '--avoid', join(dir, 'missing.txt'), '-o', join(dir, 'd.json')]);
      expect(dsir.code).toBe(2);
      expect(dsir.stderr).toMatch(/--avoid works with the default fit .* dsir does not take text to avoid/);
      const badShare = await runCli(['fit', '--task', task, '--doc-per-line', '--avoid', avoid, '--option', 'avoidShare=abc', '-o', join(dir, 'x.json')]);
      expect(badShare.code).toBe(2);
      expect(badShare.stderr).toMatch(/invalid avoidShare "abc"/);
      const both = await runCli(['fit', '--task', '-', '--avoid', '-', '-o', join(dir, 'b.json')]);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/stdin \(-\) can feed --task or --avoid, not both/);
    } finally {
      cleanup();
    }
  });
});
