import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/run/ledger.js';
import { sqliteDriver } from '../../src/run/sqlite.js';
import { runMain } from '../helpers/cli.js';
import { fitModel, newsJsonl, tempDir, wikiText } from '../run/helpers.js';

let dir: string;
let model: string;

beforeAll(() => {
  dir = tempDir();
  model = fitModel(dir);
});

async function shardedRun(runDir: string, inputs: string[], n: number, extra: string[] = [], beforeCut?: () => void): Promise<Buffer> {
  for (let i = 0; i < n; i++) {
    const r = await runMain(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', `${i}/${n}`, ...extra, ...inputs]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }
  beforeCut?.();
  expect((await runMain(['cut', '-q', '--run-dir', runDir, '--keep', '0.2'])).code).toBe(0);
  for (let i = 0; i < n; i++) expect((await runMain(['emit', '-q', '--run-dir', runDir, '--shard', `${i}/${n}`])).code).toBe(0);
  const parts = readdirSync(join(runDir, 'parts')).filter((f) => f.startsWith('part-')).sort();
  expect(parts).toHaveLength(n);
  return Buffer.concat(parts.map((p) => readFileSync(join(runDir, 'parts', p))));
}

describe('score --shard / cut / emit', () => {
  it('JSONL: plain, gzip and plain files in 4 shards concatenate to the filter output byte for byte (global doc ordinals and tie-break)', async () => {
    const news = newsJsonl(500_000);
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl.gz');
    const c = join(dir, 'c.jsonl');
    const mid = news.indexOf(0x0a, 200_000) + 1;
    const end = news.indexOf(0x0a, 350_000) + 1;
    writeFileSync(a, news.subarray(0, mid));
    writeFileSync(b, gzipSync(news.subarray(mid, end)));
    writeFileSync(c, news.subarray(end));
    const inputs = [a, b, c];
    const single = await runMain(['filter', '-q', '-m', model, ...inputs]);
    expect(single.code).toBe(0);
    expect(single.stdout.length).toBeGreaterThan(10_000);
    const sharded = await shardedRun(join(dir, 'run-jsonl'), inputs, 4);
    expect(sharded.equals(single.stdout)).toBe(true);
    // Determinism: another batch size, and --run-dir, give the same bytes.
    const batched = await runMain(['filter', '-q', '-m', model, '--batch-sentences', '37', ...inputs]);
    expect(batched.stdout.equals(single.stdout)).toBe(true);
    const viaDir = await runMain(['filter', '-q', '-m', model, '--run-dir', join(dir, 'run-filter'), '--batch-sentences', '1000', ...inputs]);
    expect(viaDir.code).toBe(0);
    expect(viaDir.stdout.equals(single.stdout)).toBe(true);
  });

  it('emit reads each shard\'s doc index; without one (a run scored by an older version) it splits again: the same bytes', async () => {
    const f = join(dir, 'indexed.jsonl');
    writeFileSync(f, newsJsonl(300_000));
    const single = await runMain(['filter', '-q', '-m', model, f]);
    expect(single.code).toBe(0);
    const emitEvents = (runDir: string) => {
      const ledger = Ledger.open(runDir);
      try {
        return ledger.events().filter((e) => e.kind === 'emit').map((e) => e.detail);
      } finally {
        ledger.close();
      }
    };
    const indexedRun = join(dir, 'run-indexed');
    expect((await shardedRun(indexedRun, [f], 3)).equals(single.stdout)).toBe(true);
    for (let i = 0; i < 3; i++) expect(existsSync(join(indexedRun, 'shards', `${i}-of-3`, 'docs.index'))).toBe(true);
    expect(emitEvents(indexedRun)).toEqual(Array(3).fill(expect.stringMatching(/^sentence spans from the doc index/)));
    const oldRun = join(dir, 'run-no-index');
    const dropIndexes = () => {
      for (let i = 0; i < 3; i++) rmSync(join(oldRun, 'shards', `${i}-of-3`, 'docs.index'));
    };
    expect((await shardedRun(oldRun, [f], 3, [], dropIndexes)).equals(single.stdout)).toBe(true);
    expect(emitEvents(oldRun)).toEqual(Array(3).fill(expect.stringMatching(/^no doc index/)));
  });

  it('paragraph text: one file split into 3 shards at blank lines equals the filter output', async () => {
    const wiki = join(dir, 'wiki.txt');
    writeFileSync(wiki, wikiText(300_000));
    const single = await runMain(['filter', '-q', '-m', model, wiki]);
    expect(single.code).toBe(0);
    const sharded = await shardedRun(join(dir, 'run-wiki'), [wiki], 3);
    expect(sharded.toString()).toBe(single.stdout.toString());
  });

  it('cut counts what the run recorded unless --keep-by names a unit: bytes for a new run, sentences for one made before bytes became the default, the last cut\'s unit after it', async () => {
    const f = join(dir, 'units.jsonl');
    writeFileSync(f, newsJsonl(300_000));
    const cutBy = async (runDir: string, extra: string[] = []) => {
      const stats = join(runDir, 'cut-stats.json');
      expect((await runMain(['cut', '-q', '--run-dir', runDir, '--stats', stats, ...extra])).code).toBe(0);
      return (JSON.parse(readFileSync(stats, 'utf8')) as { keepBy: string }).keepBy;
    };
    const score = async (runDir: string) => {
      for (const i of [0, 1]) expect((await runMain(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', `${i}/2`, f])).code).toBe(0);
    };
    const fresh = join(dir, 'run-unit-new');
    await score(fresh);
    expect(await cutBy(fresh)).toBe('bytes');
    expect(await cutBy(fresh, ['--keep-by', 'sentences'])).toBe('sentences');
    expect(await cutBy(fresh, ['--keep', '0.3'])).toBe('sentences');
    // A run scored before the ledger recorded a unit: its cut stays by sentences, as it was then.
    const old = join(dir, 'run-unit-old');
    await score(old);
    const db = new (sqliteDriver())(join(old, 'ledger.sqlite'));
    db.prepare("DELETE FROM meta WHERE key = 'keepBy'").run();
    db.close();
    expect(await cutBy(old)).toBe('sentences');
    for (const i of [0, 1]) expect((await runMain(['emit', '-q', '--run-dir', old, '--shard', `${i}/2`])).code).toBe(0);
    const parts = readdirSync(join(old, 'parts')).filter((p) => p.startsWith('part-')).sort();
    const bySentences = await runMain(['filter', '-q', '-m', model, '--keep-by', 'sentences', f]);
    expect(Buffer.concat(parts.map((p) => readFileSync(join(old, 'parts', p)))).equals(bySentences.stdout)).toBe(true);
    expect(bySentences.stdout.equals((await runMain(['filter', '-q', '-m', model, f])).stdout)).toBe(false);
  });

  it('cut refuses while a shard has not finished; emit refuses before the cut', async () => {
    const f = join(dir, 'small.jsonl');
    writeFileSync(f, newsJsonl(60_000));
    const runDir = join(dir, 'run-missing');
    expect((await runMain(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', '0/3', f])).code).toBe(0);
    expect((await runMain(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', '2/3', f])).code).toBe(0);
    const e = await runMain(['emit', '--run-dir', runDir, '--shard', '0/3']);
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/no cut yet/);
    const r = await runMain(['cut', '--run-dir', runDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/shard\(s\) 1 of 3 have not finished/);
    const wrong = await runMain(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', '1/4', f]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/split into 3 shards, not 4/);
  });
});
