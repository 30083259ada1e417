import { describe, expect, it } from 'vitest';
import { csvRecords, CsvSyntaxError, decodeFields, type CsvRecord, type CsvScanOptions } from '../../../src/io/format/csv.js';

async function* chunksOf(buf: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function scan(text: string | Buffer, opts: Partial<CsvScanOptions> = {}, chunk = 1 << 16): Promise<CsvRecord[]> {
  const buf = typeof text === 'string' ? Buffer.from(text) : text;
  const out: CsvRecord[] = [];
  for await (const rs of csvRecords(chunksOf(buf, chunk), { delimiter: ',', maxBytes: 1 << 20, ...opts })) out.push(...rs);
  return out;
}

// Quoted commas, doubled quotes, a quoted newline, CRLF, an empty field, a quote inside an
// unquoted field, text after a closing quote, and a last record without a newline.
const SAMPLE = 'id,text\r\n1,"Hello, world"\r\n2,"She said ""no"".\nThen left."\r\n3,\r\n4,5" screen\n5,"quoted" tail\n6,last';

describe('csvRecords', () => {
  it('splits records and decodes fields as RFC 4180 says', async () => {
    const rs = await scan(SAMPLE);
    expect(rs.map((r) => r.fields)).toEqual([
      ['id', 'text'],
      ['1', 'Hello, world'],
      ['2', 'She said "no".\nThen left.'],
      ['3', ''],
      ['4', '5" screen'],
      ['5', 'quoted tail'],
      ['6', 'last'],
    ]);
  });

  it('gives each record its bytes, its next record start and its lines', async () => {
    const buf = Buffer.from(SAMPLE);
    const rs = await scan(buf);
    expect(rs.map((r) => buf.toString('utf8', r.start, r.end))).toEqual(['id,text', '1,"Hello, world"', '2,"She said ""no"".\nThen left."', '3,', '4,5" screen', '5,"quoted" tail', '6,last']);
    for (let i = 1; i < rs.length; i++) expect(rs[i]!.start).toBe(rs[i - 1]!.next);
    expect(rs.map((r) => r.line)).toEqual([1, 2, 3, 5, 6, 7, 8]);
    expect(rs.at(-1)!.next).toBe(buf.length);
  });

  it('is the same whatever the chunk boundaries, down to one byte', async () => {
    const whole = await scan(SAMPLE);
    for (const size of [1, 2, 3, 7]) expect(await scan(SAMPLE, {}, size)).toEqual(whole);
  });

  it('starts at a record boundary with its offset and line, and stops before the first record at or past end', async () => {
    const buf = Buffer.from(SAMPLE);
    const all = await scan(buf);
    const from = all[2]!;
    const part = await scan(buf.subarray(from.start), { base: from.start, line: from.line, end: all[5]!.start });
    expect(part).toEqual(all.slice(2, 5));
  });

  it('reads TSV with the same quoting', async () => {
    const rs = await scan('a\tb\n"x\ty"\t"two\nlines"\n', { delimiter: '\t' });
    expect(rs.map((r) => r.fields)).toEqual([['a', 'b'], ['x\ty', 'two\nlines']]);
  });

  it('skips an oversized record without holding it, and finds the next one', async () => {
    const rs = await scan(`h\n"${'x'.repeat(100)}\n${'y'.repeat(100)}"\nsmall\n`, { maxBytes: 50 }, 16);
    expect(rs.map((r) => r.fields)).toEqual([['h'], undefined, ['small']]);
    expect(rs[1]!.line).toBe(2);
    expect(rs[2]!.line).toBe(4);
  });

  it('refuses a quote left open at the end, naming the line where its record starts', async () => {
    const err = await scan('h\nok\n"never closed,\nmore\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect((err as CsvSyntaxError).line).toBe(3);
    expect((err as Error).message).toMatch(/record at line 3 is never closed/);
  });
});

describe('decodeFields', () => {
  it('keeps empty fields, a leading and a trailing one', () => {
    expect(decodeFields(Buffer.from(',a,,'), 0x2c)).toEqual(['', 'a', '', '']);
  });

  it('decodes UTF-8 split by no boundary', () => {
    expect(decodeFields(Buffer.from('"Café, naïve",東京'), 0x2c)).toEqual(['Café, naïve', '東京']);
  });
});
