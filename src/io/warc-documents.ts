import { isUtf8 } from 'node:buffer';
import { TadpoleError } from '../core/errors.js';
import { GzipMemberError, gzipMembers, nextMemberStart } from './format/gzip-members.js';
import { dechunk, httpResponse, parseRecord, WARC_START, WarcError, type WarcRecord } from './format/warc.js';
import type { InputKind } from './input-kind.js';
import { openInput, type ByteRange, type OpenOptions } from './input.js';
import { DEFAULT_MAX_DOC_BYTES, type Doc, type ReadCounters, type ReaderOptions, type Triage } from './doc.js';

/** Where a WARC input comes from and which of its records are read. */
export interface WarcInput {
  kind: InputKind;
  file: string;
  inputIndex: number;
  range: ByteRange | undefined;
  openOpts: OpenOptions;
  /** Decompressed bytes are added here (ReadOptions.decoded). */
  decoded?: { bytes: number };
}

/** One record as read: its bytes and where it is in the file (member offsets for gzip, byte offsets for plain WARC). */
interface PlacedRecord {
  buf: Buffer;
  record: WarcRecord;
  start: number;
  end: number;
}

/**
 * What one gzip member may decompress to: a record over --max-doc-bytes is skipped and
 * counted, but its member is still inflated whole to find where the next one starts, so a
 * member far above the limit (a decompression bomb) is refused instead.
 */
function memberCap(maxDoc: number): number {
  return Math.min(2 ** 31 - 1, 4 * maxDoc + (1 << 20));
}

/**
 * Documents of a WARC or WET file (Common Crawl): each `conversion` record (WET: the text
 * Common Crawl extracted from a page) and each `response` record whose HTTP Content-Type is
 * text/plain is one document, its text the record's body; `warcinfo`, `request`, `metadata`,
 * `revisit` and `resource` records are not documents, and responses of another type (HTML,
 * images) are skipped and counted (`warcNonTextRecords`). Each document carries its
 * `WARC-Target-URI` and `WARC-Record-ID` as the `url` and `warc_record_id` fields of JSONL
 * output. Offsets are those of gzip members (one per record, as Common Crawl writes them),
 * so ranges, shards and resume start at a member; a plain WARC is read from its start.
 */
export async function* warcDocuments(src: WarcInput, opts: ReaderOptions, counters: ReadCounters, triage: Triage | undefined): AsyncGenerator<Doc[]> {
  const { file, inputIndex, range } = src;
  const maxDoc = opts.maxDocBytes ?? DEFAULT_MAX_DOC_BYTES;
  const textKey = JSON.stringify(opts.textField);
  const end = range?.end ?? Number.MAX_SAFE_INTEGER;
  let line = range?.line ?? 1;
  const records = src.kind.bytes === 'gzip' ? memberRecords(src, maxDoc) : plainRecords(src);
  try {
    let docs: Doc[] = [];
    for await (const r of records) {
      if (r.start >= end) break;
      const no = line++;
      counters.lines++;
      if (src.decoded) src.decoded.bytes += r.record.end;
      const body = documentBody(r, counters);
      if (body === undefined) continue;
      const [from, to] = body.span;
      counters.bytes += to - from;
      if (to - from > maxDoc) {
        counters.oversizedDocs++;
        counters.warn(`${file}: record ${no}: document over ${maxDoc} bytes skipped`);
        continue;
      }
      const place = { ordinal: 0, input: inputIndex, file, line: no, byteStart: r.start, byteEnd: r.end, nextOffset: r.end, nextLine: no + 1 };
      const triaged = triage?.(inputIndex, r.start, r.end);
      if (triaged === 'drop') continue;
      if (triaged === 'skim') {
        counters.docs++;
        docs.push({ ...place, text: '', skimmed: true });
        continue;
      }
      const text = decodeText(body.buf, from, to, body.charset);
      if (text.trim() === '') {
        counters.emptyDocs++;
        continue;
      }
      if (text.includes('\uFFFD') && body.charset === 'utf-8' && !isUtf8(body.buf.subarray(from, to))) {
        counters.invalidUtf8Docs++;
        counters.warn(`${file}: record ${no}: invalid UTF-8 replaced with U+FFFD`);
      }
      const url = r.record.headers.get('warc-target-uri')?.replace(/^<(.*)>$/, '$1') ?? null;
      const id = r.record.headers.get('warc-record-id') ?? null;
      counters.docs++;
      docs.push({
        ...place,
        text,
        fields: { url, warc_record_id: id, [opts.textField]: text },
        carried: { before: `"url":${JSON.stringify(url)},"warc_record_id":${JSON.stringify(id)}`, textKey, after: '' },
      });
      if (docs.length >= 256) {
        yield docs;
        docs = [];
      }
    }
    if (docs.length > 0) yield docs;
  } catch (err) {
    if (err instanceof WarcError || err instanceof GzipMemberError) throw new TadpoleError('TADPOLE_INPUT', `${file}: ${err.message}`, { file, cause: err });
    throw err;
  }
}

/** The text of a record that is a document, or undefined (counted when it is a response that is not text). */
function documentBody(r: PlacedRecord, counters: ReadCounters): { buf: Buffer; span: [number, number]; charset: string } | undefined {
  const { headers, blockStart, blockEnd } = r.record;
  const type = headers.get('warc-type')?.toLowerCase();
  if (type === 'conversion') return { buf: r.buf, span: [blockStart, blockEnd], charset: charsetOf(headers.get('content-type')) };
  if (type !== 'response') return undefined;
  const http = httpResponse(r.buf.subarray(blockStart, blockEnd));
  const media = http?.headers.get('content-type')?.split(';')[0]!.trim().toLowerCase();
  const encoding = http?.headers.get('content-encoding')?.toLowerCase();
  if (!http || media !== 'text/plain' || (encoding && encoding !== 'identity')) {
    counters.warcNonTextRecords = (counters.warcNonTextRecords ?? 0) + 1;
    return undefined;
  }
  const charset = charsetOf(http.headers.get('content-type'));
  const body = r.buf.subarray(blockStart + http.bodyStart, blockEnd);
  if (http.headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
    const whole = dechunk(body);
    if (whole) return { buf: whole, span: [0, whole.length], charset };
  }
  return { buf: r.buf, span: [blockStart + http.bodyStart, blockEnd], charset };
}

/** The charset a Content-Type names, as a TextDecoder label; UTF-8 when it names none. */
function charsetOf(contentType: string | undefined): string {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  const label = m?.[1]?.toLowerCase() ?? 'utf-8';
  return label === 'utf8' ? 'utf-8' : label;
}

function decodeText(buf: Buffer, from: number, to: number, charset: string): string {
  if (charset !== 'utf-8') {
    try {
      return new TextDecoder(charset).decode(buf.subarray(from, to));
    } catch {
      // A charset the runtime does not know: read as UTF-8, whose errors are counted.
    }
  }
  return buf.toString('utf8', from, to);
}

/** The raw (still compressed) bytes of the input from `start` on. */
function rawFrom(src: WarcInput, start: number): AsyncIterable<Buffer> {
  return openInput(src.kind.input, { ...src.openOpts, kind: src.kind, range: { start, end: Number.MAX_SAFE_INTEGER } });
}

/**
 * The records of a gzipped WARC, one per member. A record may run on into the next
 * members; one that starts inside a member (a WARC gzipped whole, as `gzip file.warc`
 * writes it) has no offset a range could start at, and is refused with the fix.
 */
async function* memberRecords(src: WarcInput, maxDoc: number): AsyncGenerator<PlacedRecord> {
  const start = src.range?.start ?? 0;
  let pending: Buffer[] = [];
  let pendingStart = -1;
  for await (const m of gzipMembers(rawFrom(src, start), start, memberCap(maxDoc))) {
    if (pendingStart < 0) pendingStart = m.start;
    pending.push(m.data);
    const buf = pending.length === 1 ? m.data : Buffer.concat(pending);
    const record = parseRecord(buf, 0, false);
    if (record === undefined) {
      if (buf.length > memberCap(maxDoc)) throw new WarcError(`record at byte ${pendingStart} is over ${memberCap(maxDoc)} bytes`);
      continue;
    }
    if (record.end < buf.length && !onlyNewlines(buf, record.end)) {
      throw new WarcError(`more than one WARC record in the gzip member at byte ${pendingStart}: tadpole reads a WARC gzipped one member per record (as Common Crawl writes it); give it plain (gzip -dc FILE > FILE.warc) or recompress it per record (warcio recompress)`);
    }
    yield { buf, record, start: pendingStart, end: m.end };
    pending = [];
    pendingStart = -1;
  }
  if (pendingStart >= 0) parseRecord(pending.length === 1 ? pending[0]! : Buffer.concat(pending), 0, true);
}

function onlyNewlines(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0x0d && buf[i] !== 0x0a) return false;
  return true;
}

/** The records of a plain (uncompressed) WARC, as a stream: offsets are bytes of the file. */
async function* plainRecords(src: WarcInput): AsyncGenerator<PlacedRecord> {
  const base = src.range?.start ?? 0;
  let buf: Buffer = Buffer.alloc(0);
  let at = 0;
  let offset = base;
  let final = false;
  const it = rawFrom(src, base)[Symbol.asyncIterator]();
  for (;;) {
    if (at < buf.length) {
      const record = parseRecord(buf, at, final);
      if (record) {
        // The record's own bytes, so that a document holds no reference to the rest of the buffer.
        const own = Buffer.from(buf.subarray(at, record.end));
        const shift = (n: number): number => n - at;
        yield { buf: own, record: { headers: record.headers, blockStart: shift(record.blockStart), blockEnd: shift(record.blockEnd), end: shift(record.end) }, start: offset, end: offset + record.end - at };
        offset += record.end - at;
        at = record.end;
        continue;
      }
    } else if (final) return;
    const r = await it.next();
    if (r.done) {
      final = true;
      continue;
    }
    buf = at < buf.length ? Buffer.concat([buf.subarray(at), r.value]) : r.value;
    at = 0;
  }
}

/**
 * Where a shard or range of a WARC file may start at or after byte `pos`: the next gzip
 * member that holds a record's start, or `size` when none does. A plain WARC is not cut
 * (0: it goes whole to one range), since a record's body may hold any bytes.
 */
export function warcCut(kind: InputKind, pos: number, maxDoc: number): number {
  if (kind.bytes !== 'gzip') return 0;
  return nextMemberStart(kind.input, pos, kind.size, WARC_START, memberCap(maxDoc));
}
