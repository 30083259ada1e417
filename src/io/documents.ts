import { isUtf8 } from 'node:buffer';
import { TadpoleError } from '../core/errors.js';
import { looksLikeJsonl, peekChunks } from './format/jsonl-sniff.js';
import { resolveFormat, type ResolvedFormat } from './input-format.js';
import { resolveInputs, type InputKind } from './input-kind.js';
import { parquetDocuments } from './parquet-documents.js';
import { csvDocuments } from './csv-documents.js';
import { warcDocuments } from './warc-documents.js';
import { looksLikeWarc } from './format/warc.js';
import { displayName, openInput, STDIN, type ByteRange, type OpenOptions } from './input.js';
import { carriedFromLine, carryKeys } from './carried.js';
import { isRemote } from './remote/url.js';
import { DEFAULT_MAX_DOC_BYTES, ReadCounters, type Doc, type ReaderOptions, type ReadOptions, type SpanPlan, type Triage } from './doc.js';

export { isDelimited, resolveFormat } from './input-format.js';
export { DEFAULT_MAX_DOC_BYTES, DEFAULT_READER, ReadCounters, type Doc, type ReaderOptions, type ReadOptions, type SpanPlan, type Triage } from './doc.js';

const NL = 0x0a;

/**
 * Documents of every input, in order, in batches. Lines are cut on \n with Buffer.indexOf
 * (native memchr): measured faster than split2 and the readline iterator, and it gives
 * byte offsets, which shards and resume need (docs/design/decisions.md, "split2").
 */
export async function* readDocuments(inputs: readonly string[], opts: ReaderOptions, ro: ReadOptions = {}): AsyncGenerator<Doc[]> {
  // Each input's kind is decided here, once, at the library's entry (src/io/input-kind.ts).
  yield* readKinds(resolveInputs(inputs, opts.format), opts, ro);
}

/** readDocuments of inputs already resolved (src/io/input-kind.ts), as every pass inside a run reads them. */
export async function* readKinds(kinds: readonly InputKind[], opts: ReaderOptions, ro: ReadOptions = {}): AsyncGenerator<Doc[]> {
  const counters = ro.counters ?? new ReadCounters();
  const batchDocs = ro.batchDocs ?? 512;
  let ordinal = ro.firstOrdinal ?? 0;
  let batch: Doc[] = [];
  let batchBytes = 0;
  for (let inputIndex = 0; inputIndex < kinds.length; inputIndex++) {
    if (ro.only && !ro.only.has(inputIndex)) continue;
    const kind = kinds[inputIndex]!;
    const input = kind.input;
    const file = displayName(input);
    const range = ro.ranges?.get(inputIndex);
    const openOpts: OpenOptions = { kind, ...(ro.stdin ? { stdin: ro.stdin } : {}), ...(input === STDIN && ro.spool ? { spool: ro.spool } : {}) };
    let chunks: AsyncIterable<Buffer> = range ? rangeChunks(kind, range, openOpts) : openInput(input, openOpts);
    if (ro.decoded) chunks = counted(chunks, ro.decoded);
    let format: ResolvedFormat | 'parquet' | 'warc' = kind.format;
    let sniffed = kind.sniffedJsonl;
    // A name that says nothing, on stdin or compressed: JSONL if its decoded first bytes say so.
    if (kind.formatFromStream) {
      const peeked = await peekChunks(chunks);
      chunks = peeked.chunks;
      // WARC is read by gzip member offsets, which a stream does not give: not read as text either.
      if (looksLikeWarc(peeked.head, 'text')) throw new TadpoleError('TADPOLE_INPUT', `${file}: a WARC (WET) stream, which tadpole reads only from a file (its records are cut at gzip members): save it to a file and give that`, { file });
      sniffed = looksLikeJsonl(peeked.head);
      if (sniffed) format = 'jsonl';
    }
    const docsOfInput =
      ro.spans && isRemote(input) && kind.seekable && !kind.formatFromStream && (format === 'jsonl' || (format === 'text' && !ro.spans.linesNeeded))
        ? spannedDocuments(kind, file, inputIndex, { ...opts, format }, counters, ro.spans, ro.triage, sniffed)
        : format === 'parquet'
        ? parquetDocuments(input, file, inputIndex, opts, counters, range)
        : format === 'warc'
        ? warcDocuments({ kind, file, inputIndex, range, openOpts, ...(ro.decoded ? { decoded: ro.decoded } : {}) }, opts, counters, ro.triage)
        : format === 'csv' || format === 'tsv'
          ? csvDocuments({ input, file, inputIndex, delimiter: format === 'csv' ? ',' : '\t', chunks, range, openOpts }, opts, counters, ro.triage)
          : documentsOf(chunks, file, inputIndex, { ...opts, format: format === 'jsonl' ? 'jsonl' : 'text' }, counters, range, ro.triage, sniffed);
    for await (const docs of docsOfInput) {
     for (const doc of docs) {
      doc.ordinal = ordinal++;
      if (ro.trackCounts) doc.counts = counters.toJSON();
      batch.push(doc);
      batchBytes += doc.byteEnd - doc.byteStart;
      if (batch.length >= batchDocs || batchBytes >= 1 << 20) {
        yield batch;
        batch = [];
        batchBytes = 0;
      }
     }
    }
  }
  if (batch.length > 0) yield batch;
}

async function* counted(chunks: AsyncIterable<Buffer>, into: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const c of chunks) {
    into.bytes += c.length;
    yield c;
  }
}

/**
 * A shard's chunks: starts at range.start, but only documents STARTING before range.end
 * belong to it, so the reader reads on past `end` to finish the last document.
 * Offsets stay absolute. A range that does not start at 0 begins mid-document: the
 * caller (shard planner) always cuts ranges at document boundaries.
 */
async function* rangeChunks(kind: InputKind, range: ByteRange, openOpts: OpenOptions): AsyncGenerator<Buffer> {
  const input = kind.input;
  if (kind.seekable) {
    yield* openInput(input, { kind, range: { start: range.start, end: Number.MAX_SAFE_INTEGER } });
    return;
  }
  // Compressed inputs and stdin cannot seek: decode from the start and drop the bytes before `start`.
  let skip = range.start;
  for await (const chunk of openInput(input, openOpts)) {
    if (skip >= chunk.length) {
      skip -= chunk.length;
      continue;
    }
    yield skip > 0 ? chunk.subarray(skip) : chunk;
    skip = 0;
  }
}

/**
 * A remote object read by the spans `plan` gives: each span by its own Range request, the
 * documents between spans yielded skimmed, unread. A span starts at a document and ends at
 * one's last byte, so each document in it is cut as a whole read cuts it (line numbers
 * aside: they restart in each span, which is why plain text written with its lines is read
 * whole). The object's ETag is held to the first one seen by every request, as ever.
 */
async function* spannedDocuments(kind: InputKind, file: string, inputIndex: number, opts: ReaderOptions, counters: ReadCounters, plan: SpanPlan, triage: Triage | undefined, sniffed: boolean): AsyncGenerator<Doc[]> {
  for (;;) {
    const span = plan.nextSpan(inputIndex);
    const before = span ? span.start : Number.MAX_SAFE_INTEGER;
    for (let gone = plan.notRead(inputIndex, before); gone.length > 0; gone = plan.notRead(inputIndex, before)) {
      const docs: Doc[] = [];
      for (const g of gone) {
        counters.docs++;
        counters.bytes += g.end - g.start;
        docs.push({ ordinal: 0, input: inputIndex, file, line: 0, text: '', byteStart: g.start, byteEnd: g.end, nextOffset: g.end, skimmed: true });
      }
      yield docs;
    }
    if (!span) return;
    const range = { start: span.start, end: span.end };
    yield* documentsOf(openInput(kind.input, { kind, range }), file, inputIndex, opts, counters, { start: span.start, end: Number.MAX_SAFE_INTEGER }, triage, sniffed);
  }
}

interface RawDoc {
  /** The document's bytes are buf[from, to): no subarray per line (measured: a Buffer view per line cost ~15% of reading). */
  buf: Buffer;
  from: number;
  to: number;
  start: number;
  end: number;
  nextOffset: number;
  line: number;
  nextLine: number;
}

async function* documentsOf(
  chunks: AsyncIterable<Buffer>,
  file: string,
  inputIndex: number,
  opts: ReaderOptions,
  counters: ReadCounters,
  range: ByteRange | undefined,
  triage: Triage | undefined,
  sniffed: boolean,
): AsyncGenerator<Doc[]> {
  const maxDoc = opts.maxDocBytes ?? DEFAULT_MAX_DOC_BYTES;
  const format = resolveFormat(opts.format, file);
  const perLine = format !== 'text' || opts.docPerLine;
  const where = { base: range?.start ?? 0, end: range?.end ?? Number.MAX_SAFE_INTEGER, line: range?.line ?? 1 };
  const fieldless: FieldlessRecords = { count: 0 };
  const keys = carryKeys(opts.textField);
  const badJsonBefore = counters.badJsonLines;
  let fileDocs = 0;
  for await (const raws of rawDocs(chunks, perLine, maxDoc, counters, where, file)) {
   const docs: Doc[] = [];
   for (const raw of raws) {
    counters.bytes += raw.end - raw.start;
    const triaged = triage?.(inputIndex, raw.start, raw.end);
    if (triaged === 'drop') continue;
    if (triaged === 'skim') {
      counters.docs++;
      fileDocs++;
      docs.push({ ordinal: 0, input: inputIndex, file, line: raw.line, text: '', byteStart: raw.start, byteEnd: raw.end, nextOffset: raw.nextOffset, nextLine: raw.nextLine, skimmed: true });
      continue;
    }
    let text = raw.buf.toString('utf8', raw.from, raw.to);
    if (raw.start === 0 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      counters.bomsStripped++;
    }
    if (text.includes('\uFFFD') && !isUtf8(raw.buf.subarray(raw.from, raw.to))) {
      counters.invalidUtf8Docs++;
      counters.warn(`${file}:${raw.line}: invalid UTF-8 replaced with U+FFFD`);
    }
    const doc: Doc = { ordinal: 0, input: inputIndex, file, line: raw.line, text, byteStart: raw.start, byteEnd: raw.end, nextOffset: raw.nextOffset, nextLine: raw.nextLine };
    if (format === 'jsonl') {
      const parsed = parseRecord(text, opts, file, raw.line, counters, fieldless);
      if (parsed === undefined) continue;
      doc.fields = parsed.record;
      doc.text = parsed.text;
      const carried = carriedFromLine(raw.buf, raw.from, raw.to, keys);
      if (carried) doc.carried = carried;
      if (!isWellFormed(parsed.text)) {
        counters.loneSurrogateDocs++;
        counters.warn(`${file}:${raw.line}: lone surrogate escape in "${opts.textField}": U+FFFD in text output`);
      }
    } else if (isBlank(text)) {
      counters.emptyDocs++;
      continue;
    }
    counters.docs++;
    fileDocs++;
    docs.push(doc);
   }
   if (docs.length > 0) yield docs;
  }
  // A whole JSONL file in which no record has the text field is a wrong --text-field, not
  // a corpus with nothing to keep: refused, rather than an empty output and exit 0.
  if (format === 'jsonl' && !range && fileDocs === 0 && fieldless.count > 0) throw noTextField(file, opts.textField, fieldless, sniffed);
  // Nor is a file of which no line is JSON: text or another format under a JSONL name.
  const badJson = counters.badJsonLines - badJsonBefore;
  if (format === 'jsonl' && !range && fileDocs === 0 && badJson > 0) {
    throw new TadpoleError('TADPOLE_INPUT', `${file}: not JSONL: none of its ${badJson} non-blank line${badJson === 1 ? ' is a' : 's is a'} JSON object; --format text reads it as text`, { file });
  }
}

/** JSONL records that are objects without the text field: how many, and the fields of the first. */
interface FieldlessRecords {
  count: number;
  keys?: string[];
}

function noTextField(file: string, field: string, seen: FieldlessRecords, sniffed: boolean): TadpoleError {
  const keys = seen.keys ?? [];
  const strings = keys.length > 0 ? ` (its records have: ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', ...' : ''})` : '';
  const why = sniffed ? ' (read as JSONL because it starts with {"; --format text reads it as text)' : '';
  return new TadpoleError('TADPOLE_INPUT', `${file}: no record has a string "${field}" field${strings}; name the text field with --text-field NAME${why}`, { file });
}

/** No lone surrogate: UTF-8 (text output) can hold it (String.prototype.isWellFormed, Node 20+; lib ES2023 does not type it). */
function isWellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10 && c !== 0xfeff && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}

function parseRecord(
  line: string,
  opts: ReaderOptions,
  file: string,
  lineNo: number,
  counters: ReadCounters,
  fieldless: FieldlessRecords,
): { record: Record<string, unknown>; text: string } | undefined {
  if (isBlank(line)) return undefined;
  let value: unknown;
  let why: string | undefined;
  try {
    value = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
  } catch (err) {
    why = `not valid JSON (${(err as Error).message})`;
  }
  if (why === undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) why = 'not a JSON object';
  if (why === undefined) {
    const field = (value as Record<string, unknown>)[opts.textField];
    if (typeof field === 'string') return { record: value as Record<string, unknown>, text: field };
    why = field === undefined ? `no "${opts.textField}" field` : `field "${opts.textField}" is not a string`;
    fieldless.count++;
    fieldless.keys ??= Object.keys(value as object);
  }
  if (opts.strict) throw new TadpoleError('TADPOLE_INPUT', `${file}:${lineNo}: bad JSONL record: ${why} (drop --strict to skip and count such lines)`, { file, line: lineNo });
  if (why?.startsWith('no ') || why?.startsWith('field')) counters.missingFieldLines++;
  else counters.badJsonLines++;
  counters.warn(`${file}:${lineNo}: skipped: ${why}`);
  return undefined;
}

/**
 * Raw documents as byte spans. perLine: each non-empty line. Otherwise: runs of
 * non-blank lines separated by blank (whitespace-only) lines. Oversized documents are
 * skipped without being held in memory.
 */
async function* rawDocs(
  chunks: AsyncIterable<Buffer>,
  perLine: boolean,
  maxDoc: number,
  counters: ReadCounters,
  where: { base: number; end: number; line: number },
  file: string,
): AsyncGenerator<RawDoc[]> {
  const baseOffset = where.base;
  const endOffset = where.end;
  // A range ends at the first document starting at or after `end`: set once that line is met.
  let stop = false;
  // Pending bytes of the current line (may span chunks), kept as a list to avoid
  // quadratic concatenation on very long lines.
  let parts: Buffer[] = [];
  let lineStart = baseOffset; // absolute offset of current line start
  let lineNo = where.line;
  let skipping = false; // current line or doc is oversized
  // Paragraph mode: the document being built.
  let docParts: Buffer[] = [];
  let docLen = 0;
  let docStart = -1;
  let docLine = 0;
  let docEnd = 0;
  let docSkipping = false;

  // Finished documents of the current chunk: yielded as one array per chunk, because a
  // generator step per line cost more than the line splitting itself (measured 4x).
  let ready: RawDoc[] = [];
  const flushDoc = (nextOffset: number, nextLine: number): void => {
    if (docStart < 0) return;
    if (docSkipping) {
      counters.oversizedDocs++;
      counters.warn(`${file}:${docLine}: document over ${maxDoc} bytes skipped`);
    } else {
      const buf = docParts.length === 1 ? (docParts[0] as Buffer) : Buffer.concat(docParts, docLen);
      ready.push({ buf, from: 0, to: buf.length, start: docStart, end: docEnd, nextOffset, line: docLine, nextLine });
    }
    docParts = [];
    docLen = 0;
    docStart = -1;
    docSkipping = false;
  };

  // The line is src[from, to); src undefined = an oversized line being skipped.
  const onLine = (src: Buffer | undefined, from: number, to: number, start: number, end: number, nextOffset: number, no: number): void => {
    const len = to - from;
    const blank = src !== undefined && (perLine ? len === 0 || (len === 1 && src[from] === 13) : isBlankBytes(src, from, to));
    if (start >= endOffset && (perLine || blank || docStart < 0)) {
      // Past the range: the document in progress (if any) ends here; the next belongs to the next shard.
      if (!perLine) flushDoc(start, no);
      stop = true;
      return;
    }
    counters.lines++;
    if (perLine) {
      if (src === undefined) {
        counters.oversizedDocs++;
        counters.warn(`${file}:${no}: line over ${maxDoc} bytes skipped`);
        return;
      }
      if (blank) return;
      ready.push({ buf: src, from, to, start, end, nextOffset, line: no, nextLine: no + 1 });
      return;
    }
    if (blank) {
      flushDoc(start, no);
      return;
    }
    if (docStart < 0) {
      docStart = start;
      docLine = no;
    } else if (!docSkipping) {
      docParts.push(NEWLINE);
      docLen += 1;
    }
    docEnd = end;
    if (src === undefined || docSkipping || docLen + len > maxDoc) {
      docSkipping = true;
      docParts = [];
      docLen = 0;
      return;
    }
    docParts.push(from === 0 && to === src.length ? src : src.subarray(from, to));
    docLen += len;
  };

  let curLen = 0; // bytes of the current line seen so far (held in parts unless skipping)
  for await (const chunk of chunks) {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      const n = (nl < 0 ? chunk.length : nl) - pos;
      if (!skipping && curLen + n > maxDoc) {
        skipping = true;
        parts = [];
      }
      if (nl < 0) {
        if (!skipping) parts.push(chunk.subarray(pos));
        curLen += n;
        break;
      }
      const end = lineStart + curLen + n;
      if (skipping) onLine(undefined, 0, 0, lineStart, end, end + 1, lineNo);
      else if (parts.length === 0) onLine(chunk, pos, nl, lineStart, end, end + 1, lineNo);
      else {
        parts.push(chunk.subarray(pos, nl));
        const line = Buffer.concat(parts, curLen + n);
        onLine(line, 0, line.length, lineStart, end, end + 1, lineNo);
      }
      if (stop) break;
      lineStart = end + 1;
      lineNo++;
      parts = [];
      curLen = 0;
      skipping = false;
      pos = nl + 1;
    }
    if (ready.length > 0) {
      yield ready;
      ready = [];
    }
    if (stop) return;
  }
  if (curLen > 0) {
    const line = skipping ? undefined : parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, curLen);
    const end = lineStart + curLen;
    onLine(line, 0, line ? line.length : 0, lineStart, end, end, lineNo);
  }
  if (!perLine && !stop) flushDoc(docEnd, lineNo + 1);
  if (ready.length > 0) yield ready;
}

const NEWLINE = Buffer.from('\n');

function isBlankBytes(b: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i] as number;
    if (c !== 32 && c !== 9 && c !== 13 && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}
