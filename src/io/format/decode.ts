import { createGunzip } from 'node:zlib';
import { TadpoleError } from '../../core/errors.js';
import { sniff, SNIFF_BYTES, type FormatKind } from './magic.js';
import { peek, rejoin, through } from './stream.js';
import { utf16ToUtf8 } from './utf16.js';
import { xzDecode } from './xz.js';
import { zstdDecode } from './zstd.js';

/** Why an input cannot be read, one line that names the file and says the fix. */
function refusal(kind: FormatKind, name: string, inside: string | undefined): string | undefined {
  const what = inside ? `${name} (inside ${inside})` : name;
  switch (kind) {
    case 'bzip2':
      return `${what}: bzip2-compressed, which tadpole does not read; recompress it as zstd or gzip (bzip2 -dc FILE | zstd -o FILE.zst)`;
    case 'lz4':
      return `${what}: lz4-compressed, which tadpole does not read; recompress it as zstd or gzip (lz4 -dc FILE | zstd -o FILE.zst)`;
    case 'zip':
      return `${what}: a zip archive, not a corpus file; unzip it and give the folder`;
    case 'parquet':
      return `${what}: Parquet is read from a file path (its index is at the end of the file), not from stdin or inside a compressed stream`;
    case 'utf32le':
    case 'utf32be':
      return `${what}: UTF-32 text (byte-order mark), which tadpole does not read; convert it: iconv -f UTF-32 -t UTF-8 FILE > FILE.utf8`;
    case 'binary':
      return `${what}: binary data, not text (judged on its first ${SNIFF_BYTES / 1024} KiB); give text, JSONL, gzip, zstd or Parquet`;
    default:
      return undefined;
  }
}

export function refuse(kind: FormatKind, name: string, inside?: string): never {
  throw new TadpoleError('TADPOLE_INPUT', refusal(kind, name, inside) ?? `${name}: cannot read ${kind}`, { file: name });
}

/** Kinds decoded to a byte stream; every other non-text kind is refused. */
type Decoder = (chunks: AsyncIterable<Buffer>, name: string) => AsyncIterable<Buffer>;
const decoders: ReadonlyMap<FormatKind, { decode: Decoder; label: string }> = new Map<FormatKind, { decode: Decoder; label: string }>([
  ['gzip', { label: 'gzip', decode: (c, name) => through(c, createGunzip({ chunkSize: 1 << 20 }), name, 'gzip data is damaged or truncated') }],
  ['zstd', { label: 'zstd', decode: zstdDecode }],
  ['xz', { label: 'xz', decode: xzDecode }],
  ['utf16le', { label: 'UTF-16', decode: (c) => utf16ToUtf8(c, 'utf-16le') }],
  ['utf16be', { label: 'UTF-16', decode: (c) => utf16ToUtf8(c, 'utf-16be') }],
]);

/**
 * The UTF-8 text bytes of an input, whatever it came as: magic bytes pick the decoder
 * (gzip, zstd, xz, UTF-16), and the decoded bytes are judged again (a gzipped UTF-16 file
 * works; a gzipped tarball is refused as binary). Anything that is not text is refused
 * with one line before a byte of it is filtered.
 */
export async function* decodeInput(chunks: AsyncIterable<Buffer>, name: string, inside?: string, known?: FormatKind): AsyncGenerator<Buffer> {
  // `known`: what the file's first bytes were already judged to be (src/io/input-kind.ts).
  if (known !== undefined && known !== 'text') {
    const decoder = decoders.get(known);
    if (!decoder) refuse(known, name, inside);
    yield* decodeInput(decoder.decode(chunks, name), name, decoder.label);
    return;
  }
  const { head, rest } = await peek(chunks, SNIFF_BYTES);
  if (head.length === 0) return;
  const kind = sniff(head);
  if (kind === 'text') {
    yield* rejoin(head, rest);
    return;
  }
  const decoder = decoders.get(kind);
  if (!decoder) refuse(kind, name, inside);
  yield* decodeInput(decoder.decode(rejoin(head, rest), name), name, inside ? `${decoder.label} inside ${inside}` : decoder.label);
}
