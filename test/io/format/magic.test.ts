import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { looksBinary } from '../../../src/io/format/binary.js';
import { sniff } from '../../../src/io/format/magic.js';

const b = (...bytes: number[]) => Buffer.from(bytes);

describe('sniff: magic bytes decide', () => {
  it.each([
    ['gzip', gzipSync('{"text":"a"}\n')],
    ['zstd', b(0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x00)],
    ['zstd', b(0x5e, 0x2a, 0x4d, 0x18, 0, 0, 0, 0)], // a skippable frame first
    ['bzip2', Buffer.from('BZh91AY&SY')],
    ['xz', b(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00)],
    ['parquet', Buffer.from('PAR1\x15\x04')],
    ['utf32le', b(0xff, 0xfe, 0x00, 0x00, 0x41, 0, 0, 0)],
    ['utf32be', b(0x00, 0x00, 0xfe, 0xff, 0, 0, 0, 0x41)],
    ['utf16le', b(0xff, 0xfe, 0x41, 0x00)],
    ['utf16be', b(0xfe, 0xff, 0x00, 0x41)],
    ['text', Buffer.from('{"text": "BZh is not bzip2 unless it starts the file"}\n')],
    ['text', Buffer.from('BZh? A sentence that starts with BZh but no block digit.')],
  ] as const)('%s', (kind, head) => {
    expect(sniff(head)).toBe(kind);
  });
});

describe('looksBinary: judged on the first block', () => {
  it('plain, accented and CJK text is text', () => {
    expect(looksBinary(Buffer.from('Café naïve façade. 東京は大きい。\tTabs\r\nand CRLF.\f'))).toBe(false);
  });
  it('Latin-1 text (a few invalid UTF-8 bytes) is text', () => {
    expect(looksBinary(Buffer.from('The caf\xe9 on the corner serves cr\xe8me br\xfbl\xe9e every day.', 'latin1'))).toBe(false);
  });
  it('a stray NUL in a sentence is text', () => {
    expect(looksBinary(Buffer.from('A line with one\0NUL in it, and more words after it.'))).toBe(false);
  });
  it('NUL-padded records (an executable, UTF-16 without a BOM) are binary', () => {
    expect(looksBinary(Buffer.from('ELF\0\0\0\0\x02\x01\x01\0\0\0\0\0\0\0\0\0'))).toBe(true);
    expect(looksBinary(Buffer.from('Hello, world. No BOM here.', 'utf16le'))).toBe(true);
  });
  it('random bytes are binary', () => {
    const r = Buffer.alloc(4096);
    let x = 1;
    for (let i = 0; i < r.length; i++) r[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
    expect(looksBinary(r)).toBe(true);
  });
  it('a UTF-8 sequence cut by the end of the block is not held against it', () => {
    const s = Buffer.from('naïve'.repeat(3));
    expect(looksBinary(s.subarray(0, s.length - 1))).toBe(false);
  });
});
