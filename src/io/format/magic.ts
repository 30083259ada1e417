import { closeSync, openSync, readSync } from 'node:fs';
import { looksBinary } from './binary.js';

/**
 * What the first bytes of an input say it is. Magic bytes decide, never the file name:
 * a `.jsonl` that is really zstd is read as zstd, and a `.txt` that is really Parquet is
 * refused as text.
 */
export type FormatKind =
  | 'text'
  | 'gzip'
  | 'zstd'
  | 'bzip2'
  | 'xz'
  | 'lz4'
  | 'zip'
  | 'parquet'
  | 'utf16le'
  | 'utf16be'
  | 'utf32le'
  | 'utf32be'
  | 'binary';

/** Bytes read to judge an input: enough for every magic number and a fair binary sample. */
export const SNIFF_BYTES = 64 * 1024;

const MAGIC: Array<[FormatKind, number[]]> = [
  ['gzip', [0x1f, 0x8b]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['lz4', [0x04, 0x22, 0x4d, 0x18]],
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['parquet', [0x50, 0x41, 0x52, 0x31]], // "PAR1"
  // UTF-32 before UTF-16: the UTF-32 LE BOM starts with the UTF-16 LE one.
  ['utf32le', [0xff, 0xfe, 0x00, 0x00]],
  ['utf32be', [0x00, 0x00, 0xfe, 0xff]],
  ['utf16le', [0xff, 0xfe]],
  ['utf16be', [0xfe, 0xff]],
];

function startsWith(head: Buffer, magic: number[]): boolean {
  if (head.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (head[i] !== magic[i]) return false;
  return true;
}

/** The kind of an input from its first bytes (up to SNIFF_BYTES of them). */
export function sniff(head: Buffer): FormatKind {
  for (const [kind, magic] of MAGIC) if (startsWith(head, magic)) return kind;
  // bzip2: "BZh" then the block size digit 1-9.
  if (head.length >= 4 && head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68 && head[3]! >= 0x31 && head[3]! <= 0x39) return 'bzip2';
  // zstd skippable frames (0x184D2A50..5F, little-endian) start some zstd files.
  if (head.length >= 4 && (head[0]! & 0xf0) === 0x50 && head[1] === 0x2a && head[2] === 0x4d && head[3] === 0x18) return 'zstd';
  return looksBinary(head.subarray(0, SNIFF_BYTES)) ? 'binary' : 'text';
}

/** The first SNIFF_BYTES of a file (fewer for a short file). */
export function readHead(path: string, bytes = SNIFF_BYTES): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The kind of a file, from its first bytes; 'text' for a file that cannot be read (the reader reports that). */
export function sniffFile(path: string): FormatKind {
  try {
    return sniff(readHead(path));
  } catch {
    return 'text';
  }
}

/** Only plain UTF-8 text can be seeked into by byte offset (shards, resume); everything else is read from its start. */
export function isSeekableText(path: string): boolean {
  return sniffFile(path) === 'text';
}
