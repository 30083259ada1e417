import { Readable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ReadCounters, readDocuments, resolveFormat, type Doc, type ReaderOptions } from '../../src/io/documents.js';
import { TadpoleError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/cli.js';

const TEXT: ReaderOptions = { format: 'text', textField: 'text', docPerLine: false, strict: false };
const JSONL: ReaderOptions = { ...TEXT, format: 'jsonl' };

async function read(chunks: Buffer[], opts: ReaderOptions, counters = new ReadCounters()): Promise<Doc[]> {
  const out: Doc[] = [];
  for await (const batch of readDocuments(['-'], opts, { stdin: Readable.from(chunks), counters })) out.push(...batch);
  return out;
}

/** Every way of cutting `buf` into two chunks, plus one-byte chunks. */
function cuts(buf: Buffer): Buffer[][] {
  const out: Buffer[][] = [[buf], [...buf].map((b) => Buffer.from([b]))];
  for (let i = 1; i < buf.length; i++) out.push([buf.subarray(0, i), buf.subarray(i)]);
  return out;
}

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('readDocuments', () => {
  it('paragraphs separated by blank and whitespace-only lines, byte spans exact', async () => {
    const input = Buffer.from('First doc line one.\nline two.\n\n \t \nSecond doc.\n\n\n\nThird – é.\n');
    for (const chunks of cuts(input)) {
      const docs = await read(chunks, TEXT);
      expect(docs.map((d) => d.text)).toEqual(['First doc line one.\nline two.', 'Second doc.', 'Third – é.']);
      for (const d of docs) expect(input.subarray(d.byteStart, d.byteEnd).toString()).toBe(d.text);
      expect(docs.map((d) => d.line)).toEqual([1, 5, 9]);
      expect(docs.map((d) => d.ordinal)).toEqual([0, 1, 2]);
    }
  });

  it('multi-byte character split across chunks is decoded, not counted invalid', async () => {
    const input = Buffer.from('naïve café 日本語 😀\n');
    for (const chunks of cuts(input)) {
      const counters = new ReadCounters();
      const docs = await read(chunks, { ...TEXT, docPerLine: true }, counters);
      expect(docs[0]!.text).toBe('naïve café 日本語 😀');
      expect(counters.invalidUtf8Docs).toBe(0);
    }
  });

  it('one document per line, empty lines skipped, last line without newline', async () => {
    const docs = await read([Buffer.from('a b c\n\nd e\nf')], { ...TEXT, docPerLine: true });
    expect(docs.map((d) => d.text)).toEqual(['a b c', 'd e', 'f']);
  });

  it('CRLF line ends: blank CRLF lines separate documents; text keeps its bytes', async () => {
    const input = Buffer.from('One.\r\nTwo.\r\n\r\nThree.\r\n');
    const docs = await read([input], TEXT);
    expect(docs.map((d) => d.text)).toEqual(['One.\r\nTwo.\r', 'Three.\r']);
  });

  it('lone CR is not a line break', async () => {
    const docs = await read([Buffer.from('a\rb\n\nc')], TEXT);
    expect(docs.map((d) => d.text)).toEqual(['a\rb', 'c']);
  });

  it('strips a UTF-8 byte-order mark at the start and counts it', async () => {
    const counters = new ReadCounters();
    const docs = await read([Buffer.from('\uFEFFHello.\n')], TEXT, counters);
    expect(docs[0]!.text).toBe('Hello.');
    expect(counters.bomsStripped).toBe(1);
  });

  it('invalid UTF-8 is replaced and counted', async () => {
    const counters = new ReadCounters();
    // Two bad bytes in a sentence of text (a block that is mostly invalid is refused as binary: test/io/format).
    const docs = await read([Buffer.concat([Buffer.from('Some text a'), Buffer.from([0xff, 0xfe]), Buffer.from('b and more.\n')])], TEXT, counters);
    expect(docs[0]!.text).toBe('Some text a\uFFFD\uFFFDb and more.');
    expect(counters.invalidUtf8Docs).toBe(1);
  });

  it('a real U+FFFD in valid UTF-8 is not counted as invalid', async () => {
    const counters = new ReadCounters();
    await read([Buffer.from('a\uFFFDb\n')], TEXT, counters);
    expect(counters.invalidUtf8Docs).toBe(0);
  });

  it('JSONL: other fields carried, bad lines skipped and counted by kind', async () => {
    const lines = ['{"text":"Good one.","source":"bio","id":7}', 'not json', '[1,2]', '{"body":"no text field"}', '{"text":42}', '', '{"text":"Second."}'];
    const counters = new ReadCounters();
    const docs = await read([Buffer.from(lines.join('\n'))], JSONL, counters);
    expect(docs.map((d) => d.text)).toEqual(['Good one.', 'Second.']);
    expect(docs[0]!.fields).toEqual({ text: 'Good one.', source: 'bio', id: 7 });
    expect(counters.badJsonLines).toBe(2);
    expect(counters.missingFieldLines).toBe(2);
    expect(docs[1]!.line).toBe(7);
  });

  it('JSONL: the carried fields are the line\'s members as written, a record split across chunks too', async () => {
    const line = '{"id":90071992547409930,"text":"Split \\"here\\".","n":-0.0,"o":{"a":[1e400]}}\n';
    const bytes = Buffer.from(line + line);
    const docs = await read([bytes.subarray(0, 20), bytes.subarray(20, 70), bytes.subarray(70)], JSONL);
    expect(docs.map((d) => d.text)).toEqual(['Split "here".', 'Split "here".']);
    for (const d of docs) expect(d.carried).toEqual({ before: '"id":90071992547409930', textKey: '"text"', after: '"n":-0.0,"o":{"a":[1e400]}' });
  });

  it('JSONL: a lone surrogate escape in the text is counted (UTF-8 output cannot hold it), not as invalid UTF-8', async () => {
    const counters = new ReadCounters();
    const docs = await read([Buffer.from('{"text":"a \\ud800 b"}\n{"text":"pair \\ud83d\\ude00 ok"}\n')], JSONL, counters);
    expect(docs[0]!.text).toBe('a \ud800 b');
    expect(counters.loneSurrogateDocs).toBe(1);
    expect(counters.invalidUtf8Docs).toBe(0);
    expect(counters.warnings).toEqual(['<stdin>:1: lone surrogate escape in "text": U+FFFD in text output']);
  });

  it('JSONL --strict fails naming the file and line', async () => {
    const err = await read([Buffer.from('{"text":"ok"}\n{"nope":1}\n')], { ...JSONL, strict: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).message).toMatch(/<stdin>:2: bad JSONL record: no "text" field/);
  });

  it('gzip detected by magic bytes, whatever the file name; concatenated members read as one', async () => {
    const f = join(tmp.dir, 'corpus.dat');
    writeFileSync(f, Buffer.concat([gzipSync('One.\n\n'), gzipSync('Two.\n')]));
    const docs: Doc[] = [];
    for await (const b of readDocuments([f], TEXT)) docs.push(...b);
    expect(docs.map((d) => d.text)).toEqual(['One.', 'Two.']);
  });

  it('truncated gzip is a clear input error naming the file', async () => {
    const f = join(tmp.dir, 'cut.gz');
    const gz = gzipSync(Buffer.from('x'.repeat(10000) + '\n'));
    writeFileSync(f, gz.subarray(0, gz.length - 10));
    const err = await (async () => {
      for await (const _ of readDocuments([f], TEXT)) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).message).toContain('cut.gz');
  });

  it('oversized documents are skipped and counted; offsets after them stay right', async () => {
    const input = Buffer.from(`small.\n\n${'x'.repeat(500)}\n\nafter.\n`);
    for (const chunks of [[input], [input.subarray(0, 20), input.subarray(20, 300), input.subarray(300)]]) {
      const counters = new ReadCounters();
      const docs = await read(chunks, { ...TEXT, maxDocBytes: 100 }, counters);
      expect(docs.map((d) => d.text)).toEqual(['small.', 'after.']);
      expect(counters.oversizedDocs).toBe(1);
      expect(input.subarray(docs[1]!.byteStart, docs[1]!.byteEnd).toString()).toBe('after.');
    }
  });

  it('an oversized line with no newline at all is skipped without error', async () => {
    const counters = new ReadCounters();
    const docs = await read([Buffer.alloc(5000, 0x61), Buffer.alloc(5000, 0x62)], { ...TEXT, docPerLine: true, maxDocBytes: 1000 }, counters);
    expect(docs).toEqual([]);
    expect(counters.oversizedDocs).toBe(1);
  });

  it('empty input gives no documents', async () => {
    expect(await read([], TEXT)).toEqual([]);
    expect(await read([Buffer.from('\n\n  \n')], TEXT)).toEqual([]);
  });

  it('a missing file is an input error naming it', async () => {
    const err = await (async () => {
      for await (const _ of readDocuments([join(tmp.dir, 'nope.txt')], TEXT)) void _;
    })().catch((e: unknown) => e);
    expect((err as TadpoleError).code).toBe('TADPOLE_INPUT');
    expect((err as TadpoleError).message).toContain('nope.txt');
  });

  it('auto format picks JSONL by file name', () => {
    expect(resolveFormat('auto', 'a/b.jsonl.gz')).toBe('jsonl');
    expect(resolveFormat('auto', 'b.ndjson')).toBe('jsonl');
    expect(resolveFormat('auto', 'b.txt')).toBe('text');
    expect(resolveFormat('auto', '<stdin>')).toBe('text');
    expect(resolveFormat('jsonl', 'b.txt')).toBe('jsonl');
  });
});
