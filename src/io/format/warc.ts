import { constants, gunzipSync } from 'node:zlib';
import type { FormatKind } from './magic.js';

/** What every WARC record starts with (WARC/1.0 and WARC/1.1, ISO 28500). */
export const WARC_START = Buffer.from('WARC/1.');

/** A damaged WARC record: the caller names the file and the offset. */
export class WarcError extends Error {}

/**
 * Whether an input is a WARC file (Common Crawl's WARC and WET), from its first bytes: plain
 * text that starts with a WARC version line, or gzip whose first member does. Found by the
 * bytes, never by the name.
 */
export function looksLikeWarc(head: Buffer, bytes: FormatKind): boolean {
  let start = head;
  if (bytes === 'gzip') {
    try {
      // The first 4 KiB hold the version line; a sync flush gives what they decode to, the member unfinished.
      start = gunzipSync(head.subarray(0, 4096), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 8 << 20 });
    } catch {
      return false;
    }
  } else if (bytes !== 'text') return false;
  return isVersionLine(start, 0);
}

function isVersionLine(buf: Buffer, at: number): boolean {
  if (buf.length - at < WARC_START.length + 2 || buf.compare(WARC_START, 0, WARC_START.length, at, at + WARC_START.length) !== 0) return false;
  const minor = buf[at + WARC_START.length]!;
  const next = buf[at + WARC_START.length + 1]!;
  return (minor === 0x30 || minor === 0x31) && (next === 0x0d || next === 0x0a);
}

/** One record: its header fields (names lower-cased, the first of each kept) and where its block is in the buffer. */
export interface WarcRecord {
  headers: Map<string, string>;
  blockStart: number;
  blockEnd: number;
  /** Where the next record may start: past the block and the CRLF CRLF that ends a record. */
  end: number;
}

const MAX_HEADER_BYTES = 1 << 20;
const CRLFCRLF = Buffer.from('\r\n\r\n');

/**
 * The record at buf[at...], or undefined when the buffer ends inside it (`final`: no more
 * bytes will come, so a record cut short is a WarcError). Header lines end in CRLF as the
 * standard says; a bare LF is taken too. The block is Content-Length bytes, as written.
 */
export function parseRecord(buf: Buffer, at: number, final: boolean): WarcRecord | undefined {
  const short = (what: string): undefined => {
    if (final) throw new WarcError(`truncated record (${what})`);
    return undefined;
  };
  if (!isVersionLine(buf, at)) {
    if (buf.length - at < WARC_START.length + 2 && WARC_START.subarray(0, buf.length - at).equals(buf.subarray(at))) return short('the version line is cut short');
    throw new WarcError('not a WARC record: no WARC/1.0 or WARC/1.1 version line where a record should start');
  }
  const headerEnd = endOfHeaders(buf, at);
  if (headerEnd === undefined) {
    if (buf.length - at > MAX_HEADER_BYTES) throw new WarcError(`record header over ${MAX_HEADER_BYTES} bytes`);
    return short('its header has no end');
  }
  const headers = headerFields(buf.toString('latin1', at, headerEnd.fieldsEnd));
  const length = Number(headers.get('content-length'));
  if (!headers.has('content-length') || !Number.isSafeInteger(length) || length < 0) throw new WarcError('record has no valid Content-Length');
  const blockStart = headerEnd.blockStart;
  const blockEnd = blockStart + length;
  if (blockEnd > buf.length) return short(`its block holds ${buf.length - blockStart} of ${length} bytes`);
  // The CRLF CRLF after the block; a writer that left it short (or wrote LFs) is forgiven.
  let end = blockEnd;
  while (end < buf.length && end - blockEnd < 4 && (buf[end] === 0x0d || buf[end] === 0x0a)) end++;
  if (end - blockEnd < 4 && end === buf.length && !final) return undefined;
  return { headers, blockStart, blockEnd, end };
}

/** Where a header ends: the fields' last byte and the block's first; undefined when not in the buffer. */
function endOfHeaders(buf: Buffer, at: number): { fieldsEnd: number; blockStart: number } | undefined {
  const crlf = buf.indexOf(CRLFCRLF, at);
  const lf = buf.indexOf('\n\n', at);
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { fieldsEnd: crlf, blockStart: crlf + 4 };
  if (lf >= 0) return { fieldsEnd: lf, blockStart: lf + 2 };
  return undefined;
}

/** Header fields of a WARC record or an HTTP message (after its first line): `Name: value`, folded lines joined. */
export function headerFields(head: string): Map<string, string> {
  const fields = new Map<string, string>();
  let last: string | undefined;
  const lines = head.split(/\r?\n/);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
      fields.set(last, `${fields.get(last)!} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (fields.has(name)) {
      last = undefined;
      continue;
    }
    fields.set(name, line.slice(colon + 1).trim());
    last = name;
  }
  return fields;
}

/** An HTTP response held in a WARC `response` block: its header fields and where its body starts, or undefined when the block is not one. */
export function httpResponse(block: Buffer): { headers: Map<string, string>; bodyStart: number } | undefined {
  if (block.length < 5 || block.toString('latin1', 0, 5) !== 'HTTP/') return undefined;
  const end = endOfHeaders(block, 0);
  if (end === undefined) return undefined;
  return { headers: headerFields(block.toString('latin1', 0, end.fieldsEnd)), bodyStart: end.blockStart };
}

/** A `Transfer-Encoding: chunked` body as the bytes it carries; undefined when it is not well-formed chunks. */
export function dechunk(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(body.toString('latin1', at, eol).split(';')[0]!.trim(), 16);
    if (!Number.isInteger(size) || size < 0) return undefined;
    if (size === 0) return Buffer.concat(parts);
    const from = eol + 2;
    if (from + size > body.length) return undefined;
    parts.push(body.subarray(from, from + size));
    at = from + size + 2;
  }
}
