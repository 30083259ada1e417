import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { MAX_SEEK_DOC_BYTES, SAMPLE_GROUP, sampleSentences, type SentenceSample } from '../../src/io/sample.js';
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
    // One segment per document drawn (here a whole 6-sentence document), so ≥ 2000/6 documents.
    expect(new Set(ids).size).toBeGreaterThanOrEqual(334);
    expect(s.documents).toBeGreaterThanOrEqual(334);
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

  it('a folder of files and their concatenation give the same seek sample, draws crossing from one file into the next', async () => {
    // 24 files, one of a single document: many draws land in a file's last document.
    const parts = Array.from({ length: 24 }, (_, k) => (k === 5 ? jsonlDocs(1500, 1501) : jsonlDocs(k * 300, k * 300 + 300)));
    const files = parts.map((t, k) => join(dir, `part-${k}.jsonl`));
    parts.forEach((t, k) => writeFileSync(files[k]!, t));
    const whole = join(dir, 'parts.jsonl');
    writeFileSync(whole, parts.join(''));
    for (const seed of [1, 2, 3]) {
      const f = await sampleSentences(files, JSONL, { size: 1500, seed, seekMinBytes: 0 });
      const w = await sampleSentences([whole], JSONL, { size: 1500, seed, seekMinBytes: 0 });
      expect(f.sampler).toBe('seek');
      expect(f.sentences).toEqual(w.sentences);
      expect(f.fingerprint).toBe(w.fingerprint);
    }
  });

  it('stdin with a spool is spooled whole, then seek-sampled as the file it now is: the file\'s sample', async () => {
    const text = jsonlDocs(0, 6000);
    const file = join(dir, 'piped.jsonl');
    writeFileSync(file, text);
    const spoolPath = join(dir, 'stdin.spool');
    const spool = createWriteStream(spoolPath);
    const f = await sampleSentences([file], JSONL, { size: 1200, seed: 4, seekMinBytes: 0 });
    const i = await sampleSentences(['-'], JSONL, { size: 1200, seed: 4, seekMinBytes: 0 }, { stdin: Readable.from([Buffer.from(text)]), spool });
    await new Promise<void>((r) => spool.end(r));
    expect(i.sampler).toBe('seek');
    expect(i.fingerprint).toBe(f.fingerprint);
    expect(readFileSync(spoolPath, 'utf8')).toBe(text); // every byte kept for the passes after
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

  it('a compressed input that plain would be seek-sampled says so (differs); a small one reads the same either way', async () => {
    const text = jsonlDocs(0, 3000);
    const gz = join(dir, 'says.jsonl.gz');
    writeFileSync(gz, gzipSync(text));
    const big = await sampleSentences([gz], JSONL, { size: 300, seed: 9, seekMinBytes: 1000 });
    expect(big.sampler).toBe('reservoir');
    expect(big.differs).toMatch(/says\.jsonl\.gz is gzip-compressed; the same text as plain files .* is sampled by seeking, which draws another sample/);
    const small = await sampleSentences([gz], JSONL, { size: 300, seed: 9 });
    expect(small.differs).toBeUndefined();
    expect(small.readWhole).toBe('a gzip input');
    const piped = await sampleSentences(['-'], JSONL, { size: 300, seed: 9, seekMinBytes: 1000 }, { stdin: Readable.from([Buffer.from(text)]) });
    expect(piped.differs).toMatch(/stdin is read as it streams/);
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

/** JSONL documents of n sentences each: "Doc D line K." */
function longDocs(from: number, to: number, n: number): string {
  const out: string[] = [];
  for (let d = from; d < to; d++) out.push(JSON.stringify({ text: Array.from({ length: n }, (_, k) => `Doc ${d} line ${k}.`).join(' ') }));
  return out.join('\n') + '\n';
}

/** Every group is consecutive sentences of one document, starting where a segment starts. */
function expectWholeSegments(s: SentenceSample): number {
  expect(s.groups).toHaveLength(s.sentences.length);
  const where = s.sentences.map((x) => /Doc (\d+) line (\d+)/.exec(x)!.slice(1).map(Number) as [number, number]);
  let groups = 0;
  for (let i = 0; i < where.length; i++) {
    const [doc, line] = where[i]!;
    if (i === 0 || s.groups[i] !== s.groups[i - 1]) {
      groups++;
      expect(line % SAMPLE_GROUP).toBe(0);
      if (i > 0) expect(s.groups[i]!).toBeGreaterThan(s.groups[i - 1]!);
    } else {
      expect(where[i - 1]).toEqual([doc, line - 1]);
    }
  }
  return groups;
}

describe('sampleSentences: whole segments, with their groups', () => {
  it('the reservoir pass keeps whole segments of 15 (a 40-sentence document has segments of 15, 15 and 10) and about `size` sentences', async () => {
    const file = join(dir, 'long.jsonl');
    writeFileSync(file, longDocs(0, 400, 40)); // 16,000 sentences, 1,200 segments
    const s = await sampleSentences([file], JSONL, { size: 1000, seed: 4 });
    expect(s.sampler).toBe('reservoir');
    expect(s.sentences).toHaveLength(1000);
    const groups = expectWholeSegments(s);
    expect(groups).toBeGreaterThan(1000 / SAMPLE_GROUP - 1);
    // Segments of every position: first, middle and last (short) ones.
    const lines = new Set(s.sentences.map((x) => Number(/line (\d+)/.exec(x)![1])));
    for (const k of [0, 15, 30, 39]) expect(lines.has(k)).toBe(true);
    // Spread over the file.
    const docs = s.sentences.map((x) => Number(/Doc (\d+)/.exec(x)![1]));
    expect(Math.min(...docs)).toBeLessThan(40);
    expect(Math.max(...docs)).toBeGreaterThan(360);
    const again = await sampleSentences([file], JSONL, { size: 1000, seed: 4 });
    expect(again.fingerprint).toBe(s.fingerprint);
    expect(Array.from(again.groups)).toEqual(Array.from(s.groups));
  });

  it('one-sentence documents still give `size` sentences, each its own segment', async () => {
    const file = join(dir, 'short.jsonl');
    writeFileSync(file, longDocs(0, 3000, 1));
    const s = await sampleSentences([file], JSONL, { size: 500, seed: 2 });
    expect(s.sentences).toHaveLength(500);
    expect(new Set(s.groups).size).toBe(500);
  });

  it('a seek draw takes one whole segment of the document it lands in', async () => {
    const file = join(dir, 'long-seek.jsonl');
    writeFileSync(file, longDocs(0, 4000, 40));
    const s = await sampleSentences([file], JSONL, { size: 900, seed: 8, seekMinBytes: 0 });
    expect(s.sampler).toBe('seek');
    expect(s.sentences).toHaveLength(900);
    expect(expectWholeSegments(s)).toBeLessThan(900 / 10 + 2);
  });

  it('the same sentences grouped otherwise have another fingerprint', async () => {
    const file = join(dir, 'regroup.jsonl');
    writeFileSync(file, longDocs(0, 100, 40));
    const a = await sampleSentences([file], JSONL, { size: 5000, seed: 1 });
    writeFileSync(file, longDocs(0, 100, 40).split('\n').filter(Boolean).map((l) => {
      const t = (JSON.parse(l) as { text: string }).text.split(/(?<=\.) /);
      return [JSON.stringify({ text: t.slice(0, 20).join(' ') }), JSON.stringify({ text: t.slice(20).join(' ') })].join('\n');
    }).join('\n') + '\n');
    const b = await sampleSentences([file], JSONL, { size: 5000, seed: 1 });
    expect(b.sentences).toEqual(a.sentences); // every sentence, in order
    expect(b.fingerprint).not.toBe(a.fingerprint);
  });
});
