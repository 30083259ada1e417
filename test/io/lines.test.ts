import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { csvRows, readLines } from '../../src/io/lines.js';
import { testDir } from '../helpers/temp.js';

const dir = testDir('tadpole-lines-');

async function collect(file: string, enc?: 'utf8' | 'latin1'): Promise<string[]> {
  const out: string[] = [];
  for await (const l of readLines(file, enc)) out.push(l);
  return out;
}

describe('readLines', () => {
  it('reads gzip by magic bytes even without .gz and strips CRLF and a BOM', async () => {
    const f = join(dir, 'crlf.txt');
    writeFileSync(f, gzipSync(Buffer.from('\ufeffone\r\ntwo\r\nthree')));
    expect(await collect(f)).toEqual(['one', 'two', 'three']);
  });
  it('keeps a multi-byte character split across decompressed chunks', async () => {
    // Gunzip emits 16 KiB chunks: put "é" (2 bytes) across the first boundary.
    const head = 'a'.repeat(16 * 1024 - 1);
    const f = join(dir, 'split.gz');
    writeFileSync(f, gzipSync(Buffer.from(`${head}é\nnext`)));
    const lines = await collect(f);
    expect(lines[0]?.endsWith('aé')).toBe(true);
    expect(lines[1]).toBe('next');
  });
  it('decodes latin-1 when asked', async () => {
    const f = join(dir, 'latin.txt');
    writeFileSync(f, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await collect(f, 'latin1')).toEqual(['café']);
  });
});

async function rows(file: string, enc?: 'utf8' | 'latin1'): Promise<string[][]> {
  const out: string[][] = [];
  for await (const r of csvRows(file, enc)) out.push(r);
  return out;
}

describe('csvRows: the reader\'s CSV scanner, for the corpus adapters of eval', () => {
  it('keeps a comma inside quotes, undoes doubled quotes, joins a quoted field over lines, skips blank lines', async () => {
    const f = join(dir, 'a.csv');
    writeFileSync(f, '\ufeffa,b\r\n1,"x, y"\r\n\r\n"he said ""hi""","first\nsecond"\n');
    expect(await rows(f)).toEqual([['a', 'b'], ['1', 'x, y'], ['he said "hi"', 'first\nsecond']]);
  });
  it('reads gzip by its magic bytes and Latin-1 when asked', async () => {
    const f = join(dir, 'l.csv.gz');
    writeFileSync(f, gzipSync(Buffer.from([0x74, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a])));
    expect(await rows(f, 'latin1')).toEqual([['t'], ['café']]);
  });
  it('refuses a quote never closed rather than reading one huge last field', async () => {
    const f = join(dir, 'open.csv');
    writeFileSync(f, 'a\n"open\n');
    await expect(rows(f)).rejects.toThrow(/never closed/);
  });
});
