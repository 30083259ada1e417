/**
 * CSV and TSV records with their byte spans, from a stream of chunks. The rules are RFC
 * 4180's, which pandas, Python's csv module and spreadsheet exports follow for both
 * delimiters: a field that starts with a double quote runs to the closing quote, may hold
 * delimiters and newlines, and writes a quote as two; records end at \n (a \r before it
 * is dropped). Lenient where writers are sloppy: text after a closing quote is kept as
 * it is. Strict where a mistake would swallow text: a quote still open at the end of the
 * input is an error, not one huge last field.
 *
 * Byte spans (not strings) are what shards and resume need, as for JSONL lines.
 */

const QUOTE = 0x22;
const NL = 0x0a;
const CR = 0x0d;

/** One record: its fields, or none when it was over the size limit (skipped, not held). */
export interface CsvRecord {
  /** Decoded fields; undefined for an oversized record. */
  fields?: string[];
  /** Absolute byte offset of the record's first byte. */
  start: number;
  /** Just past its last byte, a trailing \r excluded. */
  end: number;
  /** Just past its newline: the next record's start. */
  next: number;
  /** 1-based line of its first byte, and of the next record's. */
  line: number;
  nextLine: number;
}

export interface CsvScanOptions {
  /** The field delimiter: ',' or '\t'. */
  delimiter: ',' | '\t';
  /** Absolute offset of the first chunk's first byte (a record boundary). */
  base?: number;
  /** Its line number. */
  line?: number;
  /** Records starting at or after this offset are not read (a shard's end). */
  end?: number;
  /** Records longer than this are skipped (their end still found), so memory stays bounded. */
  maxBytes: number;
}

/** A quote left open at the end of the input, or another error the caller names the file in. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

// States of the scanner between bytes.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_IN_QUOTED = 3;

/**
 * Records in input order, one array per chunk (a generator step per record costs more
 * than the scan). A record's bytes are gathered only when it ends, then decoded once.
 */
export async function* csvRecords(chunks: AsyncIterable<Buffer>, opts: CsvScanOptions): AsyncGenerator<CsvRecord[]> {
  const delim = opts.delimiter.charCodeAt(0);
  const endAt = opts.end ?? Number.MAX_SAFE_INTEGER;
  let state = FIELD_START;
  let recStart = opts.base ?? 0;
  let recLine = opts.line ?? 1;
  let lines = 0; // newlines inside the current record (quoted)
  let parts: Buffer[] = [];
  let len = 0;
  let oversized = false;
  let offset = recStart; // absolute offset of the current chunk's first byte
  let ready: CsvRecord[] = [];

  const finish = (recEnd: number, next: number): void => {
    const line = recLine;
    const nextLine = recLine + lines + (next > recEnd ? 1 : 0);
    if (oversized) {
      ready.push({ start: recStart, end: recEnd, next, line, nextLine });
    } else {
      let buf = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, len);
      let end = recEnd;
      if (buf.length > 0 && buf[buf.length - 1] === CR) {
        buf = buf.subarray(0, buf.length - 1);
        end--;
      }
      ready.push({ fields: decodeFields(buf, delim), start: recStart, end, next, line, nextLine });
    }
    recStart = next;
    recLine = nextLine;
    lines = 0;
    parts = [];
    len = 0;
    oversized = false;
    state = FIELD_START;
  };

  if (recStart >= endAt) return;
  for await (const chunk of chunks) {
    let from = 0; // start of this chunk's bytes not yet added to the current record
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number;
      if (state === QUOTED) {
        // The common long stretch: jump to the next quote, counting the newlines passed.
        const q = chunk.indexOf(QUOTE, i);
        const stop = q < 0 ? chunk.length : q;
        for (let k = chunk.indexOf(NL, i); k >= 0 && k < stop; k = chunk.indexOf(NL, k + 1)) lines++;
        if (q < 0) {
          i = chunk.length - 1;
          continue;
        }
        i = q;
        state = QUOTE_IN_QUOTED;
        continue;
      }
      if (c === NL) {
        add(chunk, from, i);
        from = i + 1;
        finish(offset + i, offset + i + 1);
        if (recStart >= endAt) {
          // The next record is the next shard's.
          if (ready.length > 0) yield ready;
          return;
        }
        continue;
      }
      if (c === QUOTE) {
        if (state === FIELD_START) state = QUOTED;
        else if (state === QUOTE_IN_QUOTED) state = QUOTED; // "" inside quotes
        // a quote inside an unquoted field is text
        continue;
      }
      if (c === delim) state = FIELD_START;
      else if (state !== UNQUOTED) state = UNQUOTED; // after a closing quote: text, kept as it is
    }
    add(chunk, from, chunk.length);
    offset += chunk.length;
    if (ready.length > 0) {
      yield ready;
      ready = [];
    }
  }
  if (state === QUOTED) throw new CsvSyntaxError(`a quoted field opened in the record at line ${recLine} is never closed`, recLine);
  if (len > 0 || oversized) {
    finish(offset, offset);
    if (ready.length > 0) yield ready;
  }

  function add(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    if (!oversized && len + (to - from) > opts.maxBytes) {
      oversized = true;
      parts = [];
    }
    if (oversized) len += to - from;
    else {
      parts.push(chunk.subarray(from, to));
      len += to - from;
    }
  }
}

/** The fields of one record's bytes (no newline at its end), quotes undone. */
export function decodeFields(buf: Buffer, delim: number): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (i < buf.length && buf[i] === QUOTE) {
      // Quoted: up to the closing quote, "" for a quote; then any text up to the delimiter.
      const pieces: string[] = [];
      let at = i + 1;
      for (;;) {
        const q = buf.indexOf(QUOTE, at);
        if (q < 0) {
          pieces.push(buf.toString('utf8', at));
          at = buf.length;
          break;
        }
        pieces.push(buf.toString('utf8', at, q));
        if (buf[q + 1] === QUOTE) {
          pieces.push('"');
          at = q + 2;
          continue;
        }
        at = q + 1;
        break;
      }
      const d = buf.indexOf(delim, at);
      const stop = d < 0 ? buf.length : d;
      if (stop > at) pieces.push(buf.toString('utf8', at, stop));
      out.push(pieces.join(''));
      if (d < 0) return out;
      i = d + 1;
      continue;
    }
    const d = buf.indexOf(delim, i);
    if (d < 0) {
      out.push(buf.toString('utf8', i));
      return out;
    }
    out.push(buf.toString('utf8', i, d));
    i = d + 1;
  }
}
