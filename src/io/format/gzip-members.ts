import { crc32, inflateRawSync } from 'node:zlib';
import { openReadAt, type ReadAt } from '../read-at.js';

/**
 * One gzip member of a file: where its compressed bytes are, [start, end), and what they
 * decompress to. Common Crawl (and every WARC writer that follows the spec's annex on
 * compression) writes one member per record, so a member start is a place a reader can
 * start from: the unit that input ranges, shards and resume cut a WARC file at.
 */
export interface GzipMember {
  start: number;
  end: number;
  data: Buffer;
}

/** A member that cannot be decompressed: damaged or cut short (the caller names the file). */
export class GzipMemberError extends Error {}

const FTEXT_FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;

/**
 * The length of the gzip header at buf[at...], -1 when the buffer ends inside it; a
 * GzipMemberError when the bytes there are not a gzip header.
 */
function headerLength(buf: Buffer, at: number): number {
  if (buf.length - at < 10) return -1;
  if (buf[at] !== 0x1f || buf[at + 1] !== 0x8b || buf[at + 2] !== 8) throw new GzipMemberError('not a gzip member header');
  const flags = buf[at + 3]!;
  let p = at + 10;
  if (flags & FEXTRA) {
    if (buf.length - p < 2) return -1;
    p += 2 + buf.readUInt16LE(p);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const zero = buf.indexOf(0, p);
    if (zero < 0) return -1;
    p = zero + 1;
  }
  if (flags & FTEXT_FHCRC) p += 2;
  return p > buf.length ? -1 : p - at;
}

/**
 * The member at buf[at...]: its compressed length and data, or undefined when the buffer
 * ends inside it (read more and ask again). The trailer's CRC-32 and size are checked, as
 * gunzip checks them. `maxBytes` bounds what one member may decompress to (memory).
 */
export function memberAt(buf: Buffer, at: number, maxBytes: number): { length: number; data: Buffer } | undefined {
  const header = headerLength(buf, at);
  if (header < 0) return undefined;
  let out: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    out = inflateRawSync(buf.subarray(at + header), { info: true, maxOutputLength: maxBytes }) as unknown as typeof out;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // The deflate stream runs on past the bytes given: the member is not all here yet.
    if (e.code === 'Z_BUF_ERROR') return undefined;
    if (e.code === 'ERR_BUFFER_TOO_LARGE') throw new GzipMemberError(`a gzip member decompresses to over ${maxBytes} bytes`);
    throw new GzipMemberError(`gzip data is damaged (${e.message})`);
  }
  const trailer = at + header + out.engine.bytesWritten;
  if (buf.length - trailer < 8) return undefined;
  const data = out.buffer;
  if (buf.readUInt32LE(trailer) !== crc32(data) || buf.readUInt32LE(trailer + 4) !== (data.length >>> 0)) throw new GzipMemberError('gzip data is damaged (CRC or length mismatch)');
  return { length: trailer + 8 - at, data };
}

/**
 * The gzip members of a stream of compressed bytes that starts at a member start, `base`
 * the stream's offset in its file. Each member is inflated whole by zlib (native), which
 * says where its deflate data ends: the next member starts there.
 */
export async function* gzipMembers(chunks: AsyncIterable<Buffer>, base: number, maxBytes: number): AsyncGenerator<GzipMember> {
  let buf: Buffer = Buffer.alloc(0);
  let at = 0; // where the next member starts in buf
  let offset = base; // the file offset of buf[at]
  let need = 0; // bytes buf must hold past `at` before the member is tried again
  let ended = false;
  const it = chunks[Symbol.asyncIterator]();
  const more = async (): Promise<boolean> => {
    const r = await it.next();
    if (r.done) return false;
    buf = at < buf.length ? Buffer.concat([buf.subarray(at), r.value]) : r.value;
    at = 0;
    return true;
  };
  for (;;) {
    if (at >= buf.length) {
      if (ended || !(await more())) return;
      continue;
    }
    const m = buf.length - at >= need ? memberAt(buf, at, maxBytes) : undefined;
    if (m === undefined) {
      // Read until the buffer doubles, so that a member larger than a chunk costs O(n), not O(n^2), inflates.
      need = Math.max(need, 2 * (buf.length - at));
      if (ended || !(await more())) {
        ended = true;
        throw new GzipMemberError(`gzip data is truncated (a member from byte ${offset} has no end)`);
      }
      continue;
    }
    need = 0;
    yield { start: offset, end: offset + m.length, data: m.data };
    at += m.length;
    offset += m.length;
  }
}

const SCAN = 256 * 1024;

/**
 * The first member start at or after byte `pos` of a file whose members each begin with
 * `starts` when decompressed (a WARC record's `WARC/1.`), or `size` when none does. A
 * candidate is the gzip magic (1f 8b 08) whose member inflates whole, passes its CRC and
 * begins with `starts`: bytes inside compressed data that pass all three are not met in
 * practice, and every process finds the same starts in the same bytes (shards, ranges).
 */
export function nextMemberStart(path: string, pos: number, size: number, starts: Buffer, maxBytes: number): number {
  if (pos <= 0) return 0;
  // A file by pread, a remote object by Range reads (src/io/read-at.ts).
  const fd = openReadAt(path);
  try {
    const buf = Buffer.alloc(SCAN);
    for (let at = pos; at < size; ) {
      const n = fd.read(buf, 0, SCAN, at);
      if (n <= 0) break;
      for (let i = buf.indexOf(0x1f, 0); i >= 0 && i < n; i = buf.indexOf(0x1f, i + 1)) {
        if (i + 2 < n && (buf[i + 1] !== 0x8b || buf[i + 2] !== 8)) continue;
        if (isMemberStart(fd, at + i, size, starts, maxBytes)) return at + i;
      }
      // The last 2 bytes are looked at again: a magic number may straddle two reads.
      at += n > 2 ? n - 2 : n;
    }
    return size;
  } finally {
    fd.close();
  }
}

function isMemberStart(fd: ReadAt, at: number, size: number, starts: Buffer, maxBytes: number): boolean {
  for (let len = 64 * 1024; ; len *= 4) {
    const want = Math.min(len, size - at);
    const buf = Buffer.alloc(want);
    const n = fd.read(buf, 0, want, at);
    let m;
    try {
      m = memberAt(buf.subarray(0, n), 0, maxBytes);
    } catch {
      return false;
    }
    if (m) return m.data.length >= starts.length && m.data.subarray(0, starts.length).equals(starts);
    if (want >= size - at) return false;
  }
}
