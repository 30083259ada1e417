import { StringDecoder } from 'node:string_decoder';
import { csvRecords } from './format/csv.js';
import { openInput } from './input.js';

export type TextEncodingName = 'utf8' | 'latin1';

/**
 * Lines of one input file, without their terminators ("\n" or "\r\n"), streaming: the
 * bytes the reader gets (src/io/input.ts: gzip, zstd, xz and UTF-16 found by magic bytes,
 * binary refused), decoded as UTF-8 or, when asked, Latin-1. Chunks go through a
 * StringDecoder, so a character split across chunks survives; a BOM at the start is
 * dropped. For callers that need a file's lines rather than its documents (the eval's
 * corpus adapters, src/eval/sources.ts).
 */
export async function* readLines(file: string, encoding: TextEncodingName = 'utf8'): AsyncGenerator<string> {
  const decoder = new StringDecoder(encoding);
  let carry = '';
  let first = true;
  for await (const chunk of openInput(file)) {
    let text = carry + decoder.write(chunk);
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    const parts = text.split('\n');
    carry = parts.pop() as string;
    for (const p of parts) yield p.endsWith('\r') ? p.slice(0, -1) : p;
  }
  carry += decoder.end();
  if (first && carry.charCodeAt(0) === 0xfeff) carry = carry.slice(1);
  if (carry.length > 0) yield carry.endsWith('\r') ? carry.slice(0, -1) : carry;
}

/** The whole decoded file as a string (only for small files that are one JSON value). */
export async function readWhole(file: string, encoding: TextEncodingName = 'utf8'): Promise<string> {
  const parts: string[] = [];
  for await (const line of readLines(file, encoding)) parts.push(line);
  return parts.join('\n');
}

/**
 * The records of a CSV file as arrays of fields (src/io/format/csv.ts, the reader's
 * scanner), the header first; blank lines skipped and a BOM dropped from the first field.
 */
export async function* csvRows(file: string, encoding: TextEncodingName = 'utf8'): AsyncGenerator<string[]> {
  let first = true;
  const bytes = encoding === 'latin1' ? latin1AsUtf8(openInput(file)) : openInput(file);
  for await (const records of csvRecords(bytes, { delimiter: ',', maxBytes: Number.MAX_SAFE_INTEGER })) {
    for (const r of records) {
      const fields = r.fields!;
      if (first) {
        first = false;
        if (fields[0]?.charCodeAt(0) === 0xfeff) fields[0] = fields[0].slice(1);
      }
      if (fields.length === 1 && fields[0] === '') continue;
      yield fields;
    }
  }
}

/** Latin-1 bytes as UTF-8 (one byte is one character, so chunk edges split nothing). */
async function* latin1AsUtf8(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const c of chunks) yield Buffer.from(c.toString('latin1'), 'utf8');
}
