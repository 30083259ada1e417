import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli.js';
import { fitModel, tempDir } from '../run/helpers.js';
import { httpBlock, jsonlOf, mixTexts, pageUrl, recordId, warcFile, wetOf } from '../helpers/warc.js';

// The CLI in this process (runMain): what is checked is what a command reads and writes, not the process.
let dir: string;
let model: string;
let texts: string[];
let wet: string;
let jsonl: string;

beforeAll(() => {
  dir = tempDir();
  model = fitModel(dir);
  texts = mixTexts(60);
  // Named as a text file on purpose: WET is found by its bytes.
  wet = join(dir, 'crawl-part.txt.gz');
  writeFileSync(wet, warcFile(wetOf(texts)));
  jsonl = join(dir, 'same-docs.jsonl');
  writeFileSync(jsonl, jsonlOf(texts));
});

describe('filter on Common Crawl WET and WARC files', () => {
  it('a WET file filters to JSONL records that carry each record\'s URI and id: byte for byte what the same documents as JSONL give', async () => {
    const fromWet = await runMain(['filter', '-q', '-m', model, '--keep', '0.3', wet]);
    expect(fromWet.stderr).toBe('');
    expect(fromWet.code).toBe(0);
    const fromJsonl = await runMain(['filter', '-q', '-m', model, '--keep', '0.3', jsonl]);
    expect(fromJsonl.code).toBe(0);
    expect(fromWet.stdout.length).toBeGreaterThan(10_000);
    expect(fromWet.stdout.equals(fromJsonl.stdout)).toBe(true);
    const records = fromWet.stdout.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; warc_record_id: string; text: string; tadpole: { doc: number } });
    expect(Object.keys(records[0]!)).toEqual(['url', 'warc_record_id', 'text', 'tadpole']);
    for (const r of records) {
      expect(r.url).toBe(pageUrl(r.tadpole.doc));
      expect(r.warc_record_id).toBe(recordId(r.tadpole.doc));
      expect(texts[r.tadpole.doc]).toContain(r.text);
    }
  });

  it('threads that read member ranges, and score/cut/emit in 3 shards, give the same bytes as one reader', async () => {
    const single = await runMain(['filter', '-q', '-m', model, '--keep', '0.3', '--workers', '1', wet]);
    expect(single.code).toBe(0);
    const stats = join(dir, 'ranges-stats.json');
    const ranged = await runMain(['filter', '-q', '-m', model, '--keep', '0.3', '--workers', '2', '--input-ranges', 'on', '--stats', stats, wet]);
    expect(ranged.stderr).toBe('');
    expect(ranged.code).toBe(0);
    expect((JSON.parse(readFileSync(stats, 'utf8')) as { ranges?: number }).ranges).toBeGreaterThanOrEqual(4);
    expect(ranged.stdout.equals(single.stdout)).toBe(true);
    const runDir = join(dir, 'run-shards');
    for (let i = 0; i < 3; i++) expect((await runMain(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', `${i}/3`, wet])).code).toBe(0);
    expect((await runMain(['cut', '-q', '--run-dir', runDir, '--keep', '0.3'])).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await runMain(['emit', '-q', '--run-dir', runDir, '--shard', `${i}/3`])).code).toBe(0);
    const parts = readdirSync(join(runDir, 'parts')).filter((f) => f.startsWith('part-')).sort();
    expect(parts).toHaveLength(3);
    // Each shard read a part of the one file, not all of it or none.
    for (const p of parts) expect(readFileSync(join(runDir, 'parts', p)).length).toBeGreaterThan(0);
    expect(Buffer.concat(parts.map((p) => readFileSync(join(runDir, 'parts', p)))).equals(single.stdout)).toBe(true);
  });

  it('a WARC: text/plain responses are filtered, HTML responses skipped and counted (stderr and --stats)', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    writeFileSync(
      warc,
      warcFile([
        wetOf([])[0]!,
        ...texts.slice(0, 30).map((t, k) => ({ type: 'response', headers: { 'WARC-Target-URI': pageUrl(k), 'WARC-Record-ID': recordId(k) }, block: httpBlock(k % 3 === 0 ? 'text/html' : 'text/plain; charset=utf-8', t) })),
      ]),
    );
    const stats = join(dir, 'warc-stats.json');
    const r = await runMain(['filter', '-q', '-m', model, '--keep', '0.5', '--stats', stats, warc]);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe('tadpole: warning: skipped 10 WARC responses that are not text/plain (counts in --stats)');
    const docs = new Set(r.stdout.toString('utf8').trim().split('\n').map((l) => (JSON.parse(l) as { url: string }).url));
    expect(docs.size).toBeGreaterThan(0);
    for (const url of docs) expect(Number(/page\/(\d+)/.exec(url)![1]) % 3).not.toBe(0);
    const reader = (JSON.parse(readFileSync(stats, 'utf8')) as { reader: Record<string, number> }).reader;
    expect(reader.warcNonTextRecords).toBe(10);
    expect(reader.docs).toBe(20);
  });

  it('a truncated WET file is one error line, exit 3, and no output file', async () => {
    const bytes = readFileSync(wet);
    const cut = join(dir, 'cut.warc.wet.gz');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 500));
    const out = join(dir, 'kept.jsonl');
    const r = await runMain(['filter', '-q', '-m', model, cut, '-o', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^tadpole filter: error: ${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: gzip data is truncated \\(a member from byte \\d+ has no end\\)\\n$`));
    expect(existsSync(out)).toBe(false);
  });
});
