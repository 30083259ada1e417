import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runMain, tempDir } from '../helpers/cli.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';

describe('tadpole rank', () => {
  const { dir, cleanup } = tempDir('tadpole-rank-');
  afterAll(cleanup);
  const task = join(dir, 'task.txt');
  const general = join(dir, 'general.jsonl');
  // One task sentence per document; general text as JSONL news documents.
  writeFileSync(task, chemprotSentences(600).join('\n\n') + '\n');
  writeFileSync(general, corpusRecords('news-bbc/docs.jsonl.gz', 150).map((r) => JSON.stringify({ text: r.text })).join('\n') + '\n');
  const args = ['rank', '--task', task, '--general', general, '--detectors', 'pca,mahalanobis,knn', '--dims', '64', '--seed', '2'];

  it('prints the same JSON metrics twice for a seed, with every field of the table', async () => {
    const a = await runMain([...args, '--json']);
    expect(a.stderr).toBe('');
    expect(a.code).toBe(0);
    const b = await runMain([...args, '--json']);
    const pa = JSON.parse(a.stdout.toString()) as { detectors: Array<Record<string, number | string>> };
    const pb = JSON.parse(b.stdout.toString()) as typeof pa;
    const keep = (p: typeof pa) => p.detectors.map((d) => [d.name, d.f1, d.f1_best, d.auroc, d.ap]);
    expect(keep(pa)).toEqual(keep(pb));
    expect(pa.detectors.map((d) => d.name)).toEqual(['pca', 'mahalanobis', 'knn']);
    for (const d of pa.detectors) {
      for (const k of ['f1', 'f1_best', 'auroc', 'ap', 'fit_s', 'score_per_s']) expect(typeof d[k]).toBe('number');
      expect(d.auroc as number).toBeGreaterThan(0.6);
    }
  }, 60_000);

  it('prints a table with mean±std under --repeat', async () => {
    const r = await runMain([...args.slice(0, 5), '--detectors', 'pca', '--dims', '64', '--repeat', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toMatch(/^pca\s+\d\.\d{3}±\d\.\d{3}/m);
    expect(r.stdout.toString()).toMatch(/2 repeats \(mean±std\)/);
  }, 60_000);

  it('exits 2 naming the choices for an unknown detector or a bad option', async () => {
    const r = await runCli(['rank', '--task', task, '--general', general, '--detectors', 'forest']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown detector "forest"; should be one of: iforest, eif, knn, lof, pca, mahalanobis, ocsvm/);
    const o = await runMain(['rank', '--task', task, '--general', general, '--option', 'trees=5']);
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/DETECTOR\.KEY=VALUE/);
  }, 60_000);
});
