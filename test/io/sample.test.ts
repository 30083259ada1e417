import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { MAX_SEEK_DOC_BYTES, sampleSentences } from '../../src/io/sample.js';
import { Readable } from 'node:stream';
import { splitSentences } from '../../src/text/sentences.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-sample-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const JSONL = { ...DEFAULT_READER, format: 'jsonl' as const };
const TEXT = { ...DEFAULT_READER, format: 'text' as const };

/** JSONL documents "Document N says one. Document N says two. ..." (6 sentences each). */
function jsonlDocs(from: number, to: number): string {
  const out: string[] = [];
  for (let d = from; d < to; d++) {
    out.push(JSON.stringify({ id: d, text: ['one', 'two', 'three', 'four', 'five', 'six'].map((w) => `Document ${d} says ${w}.`).join(' ') }));
  }
  return out.join('\n') + '\n';
}

function docIds(sentences: string[]): number[] {
  return sentences.map((s) => Number(/Document (\d+)/.exec(s)![1]));
}

describe('sampleSentences: seeking in plain files', () => {
  // ~60 MB of JSONL (≈ 640,000 documents): big enough that reading it all would show.
  const big = join(dir, 'big.jsonl');
  const DOCS = 640_000;
  {
    const fd = openSync(big, 'w');
    for (let d = 0; d < DOCS; d += 20_000) writeSync(fd, jsonlDocs(d, d + 20_000));
    closeSync(fd);
  }

  it('draws the sample from the whole file, reading a small share of it', async () => {
    const s = await sampleSentences([big], JSONL, { size: 2000, seed: 7, seekMinBytes: 0 });
    expect(s.sampler).toBe('seek');
    expect(s.sentences).toHaveLength(2000);
    const ids = docIds(s.sentences);
    // Spread over the file: documents from its first and last tenth, and every tenth between.
    const tenths = new Set(ids.map((id) => Math.floor((10 * id) / DOCS)));
    expect(tenths.size).toBe(10);
    // At most 4 consecutive sentences per document, so ≥ 500 documents.
    expect(new Set(ids).size).toBeGreaterThanOrEqual(500);
    expect(s.documents).toBeGreaterThanOrEqual(500);
    // Reads: one 8 KiB window per draw, not the 60 MB.
    expect(s.bytesRead).toBeLessThan(s.documents * 2 * 8192);
    expect(s.bytesRead).toBeLessThan(0.15 * 60e6);
  });

  it('is deterministic for a seed; another seed draws other sentences; the fingerprint follows', async () => {
    const a = await sampleSentences([big], JSONL, { size: 500, seed: 1, seekMinBytes: 0 });
    const b = await sampleSentences([big], JSONL, { size: 500, seed: 1, seekMinBytes: 0 });
    const c = await sampleSentences([big], JSONL, { size: 500, seed: 2, seekMinBytes: 0 });
    expect(b.sentences).toEqual(a.sentences);
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(c.fingerprint).not.toBe(a.fingerprint);
    expect(new Set(c.sentences.filter((x) => a.sentences.includes(x))).size).toBeLessThan(50);
  });

  it('takes whole documents of paragraph text (never a piece of a paragraph)', async () => {
    const file = join(dir, 'paras.txt');
    const paras: string[] = [];
    for (let d = 0; d < 3000; d++) paras.push(`Paragraph ${d} begins here.\nIt is wrapped (${d}) over\nthree lines ${d}.`);
    writeFileSync(file, paras.join('\n\n  \n') + '\n');
    const s = await sampleSentences([file], TEXT, { size: 600, seed: 3, seekMinBytes: 0 });
    expect(s.sampler).toBe('seek');
    expect(s.sentences.length).toBe(600);
    // Every sampled sentence is a sentence of one whole paragraph, as the reader would split it.
    const all = new Set(paras.flatMap((p) => { const sp = splitSentences(p); const o: string[] = []; for (let k = 0; k < sp.length; k += 2) o.push(p.slice(sp[k], sp[k + 1])); return o; }));
    for (const x of s.sentences) expect(all.has(x), x).toBe(true);
    expect(new Set(s.sentences.map((x) => /\d+/.exec(x)![0])).size).toBeGreaterThan(150);
  });

  it('laid end to end, several files are all drawn from', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, jsonlDocs(0, 5000));
    writeFileSync(b, jsonlDocs(100_000, 105_000));
    const s = await sampleSentences([a, b], JSONL, { size: 1000, seed: 5, seekMinBytes: 0 });
    const ids = docIds(s.sentences);
    expect(ids.some((id) => id < 5000)).toBe(true);
    expect(ids.some((id) => id >= 100_000)).toBe(true);
  });

  it('a huge sparse file with few documents is not read whole: the draws stay bounded', async () => {
    // 8 GiB, of which only the first 2 MB hold documents: most draws land in the hole
    // (NUL bytes, no line break) and give up after MAX_SEEK_DOC_BYTES.
    const sparse = join(dir, 'sparse.jsonl');
    writeFileSync(sparse, jsonlDocs(0, 20_000));
    const fd = openSync(sparse, 'r+');
    writeSync(fd, '\n', 8 * 1024 ** 3 - 1);
    closeSync(fd);
    const s = await sampleSentences([sparse], JSONL, { size: 20, seed: 1, seekMinBytes: 0 });
    expect(s.sampler).toBe('seek');
    expect(s.draws).toBeLessThanOrEqual(20 * 4);
    expect(s.bytesRead).toBeLessThanOrEqual(s.draws * (MAX_SEEK_DOC_BYTES + 2 * 8192) * 2); // a draw, plus a wrap to the file's start
    expect(s.bytesRead).toBeLessThan(0.05 * 8 * 1024 ** 3);
    rmSync(sparse);
  }, 60_000);
});

describe('sampleSentences: one reservoir pass where seeking cannot work', () => {
  it('gzip, stdin and small files are read once, whole; the same bytes give the same sample', async () => {
    const plain = join(dir, 'small.jsonl');
    const gz = join(dir, 'small.jsonl.gz');
    const text = jsonlDocs(0, 2000);
    writeFileSync(plain, text);
    writeFileSync(gz, gzipSync(text));
    const p = await sampleSentences([plain], JSONL, { size: 300, seed: 9 });
    const g = await sampleSentences([gz], JSONL, { size: 300, seed: 9 });
    const i = await sampleSentences(['-'], JSONL, { size: 300, seed: 9 }, { stdin: Readable.from([Buffer.from(text)]) });
    for (const s of [p, g, i]) {
      expect(s.sampler).toBe('reservoir');
      expect(s.bytesRead).toBe(Buffer.byteLength(text) - 2000); // every record read (newlines are not document bytes)
      expect(s.sentences).toHaveLength(300);
    }
    expect(g.fingerprint).toBe(p.fingerprint);
    expect(i.fingerprint).toBe(p.fingerprint);
    const ids = docIds(p.sentences);
    expect(Math.min(...ids)).toBeLessThan(200);
    expect(Math.max(...ids)).toBeGreaterThan(1800);
  });

  it('a seek sample that comes up short on a small file is redone exactly', async () => {
    const file = join(dir, 'few.jsonl');
    writeFileSync(file, jsonlDocs(0, 10)); // 60 sentences
    const s = await sampleSentences([file], JSONL, { size: 100, seed: 1, seekMinBytes: 0 });
    expect(s.sampler).toBe('reservoir');
    expect(s.sentences).toHaveLength(60);
  });

  it('refuses a size that is not a positive integer', async () => {
    await expect(sampleSentences(['-'], JSONL, { size: 0, seed: 1 })).rejects.toThrow(/positive integer/);
  });
});
