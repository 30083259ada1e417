import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/eval/lines.js';
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
