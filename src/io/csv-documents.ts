import { TadpoleError } from '../core/errors.js';
import { csvRecords, CsvSyntaxError } from './format/csv.js';
import { openInput, STDIN, type ByteRange, type OpenOptions } from './input.js';
import { carriedFromColumns } from './carried.js';
import { DEFAULT_MAX_DOC_BYTES, type Doc, type ReadCounters, type ReaderOptions, type Triage } from './doc.js';

/** Where a CSV/TSV input comes from and how it is cut. */
export interface CsvInput {
  input: string;
  file: string;
  inputIndex: number;
  delimiter: ',' | '\t';
  /** The input's chunks from the range's start (or the input's). */
  chunks: AsyncIterable<Buffer>;
  range: ByteRange | undefined;
  openOpts: OpenOptions;
}

/**
 * Documents of a CSV or TSV file: the first record names the columns, every later record is
 * one document whose text is the --text-field column, with every column carried as a JSONL
 * field (as a Parquet row's are). Offsets are the record's bytes, so shards and resume cut
 * between records as they cut between JSONL lines. A file without the column is refused
 * with its columns named; a record with more or fewer fields than the header is skipped and
 * counted (--strict: refused), since its columns cannot be told apart.
 */
export async function* csvDocuments(src: CsvInput, opts: ReaderOptions, counters: ReadCounters, triage: Triage | undefined): AsyncGenerator<Doc[]> {
  const { file, inputIndex, delimiter, range } = src;
  const maxBytes = opts.maxDocBytes ?? DEFAULT_MAX_DOC_BYTES;
  const kind = delimiter === ',' ? 'CSV' : 'TSV';
  const startsInside = range !== undefined && range.start > 0;
  let header = startsInside ? await headerOf(src, maxBytes) : undefined;
  let textColumn = header ? textColumnOf(header, file, opts.textField, kind) : -1;
  let keys = header?.map((name) => JSON.stringify(name));
  const where = { base: range?.start ?? 0, line: range?.line ?? 1, ...(range ? { end: range.end } : {}), delimiter, maxBytes };
  try {
    for await (const records of csvRecords(src.chunks, where)) {
      const docs: Doc[] = [];
      for (const r of records) {
        counters.lines += r.nextLine - r.line;
        if (header === undefined) {
          header = (r.fields ?? []).map((name, k) => (k === 0 ? name.replace(/^\uFEFF/, '') : name));
          textColumn = textColumnOf(header, file, opts.textField, kind);
          keys = header.map((name) => JSON.stringify(name));
          continue;
        }
        counters.bytes += r.end - r.start;
        if (r.fields === undefined) {
          counters.oversizedDocs++;
          counters.warn(`${file}:${r.line}: record over ${maxBytes} bytes skipped`);
          continue;
        }
        const triaged = triage?.(inputIndex, r.start, r.end);
        if (triaged === 'drop') continue;
        if (triaged === 'skim') {
          counters.docs++;
          docs.push({ ordinal: 0, input: inputIndex, file, line: r.line, text: '', byteStart: r.start, byteEnd: r.end, nextOffset: r.next, nextLine: r.nextLine, skimmed: true });
          continue;
        }
        if (r.fields.length === 1 && r.fields[0]!.trim() === '') continue; // a blank line
        if (r.fields.length !== header.length) {
          const why = `${r.fields.length} fields where the header has ${header.length}`;
          if (opts.strict) throw new TadpoleError('TADPOLE_INPUT', `${file}:${r.line}: bad CSV record: ${why} (drop --strict to skip and count such records)`, { file, line: r.line });
          counters.badCsvRecords++;
          counters.warn(`${file}:${r.line}: skipped: ${why}`);
          continue;
        }
        const text = r.fields[textColumn]!;
        if (text.trim() === '') {
          counters.emptyDocs++;
          continue;
        }
        if (text.includes('\uFFFD')) {
          counters.invalidUtf8Docs++;
          counters.warn(`${file}:${r.line}: invalid UTF-8 replaced with U+FFFD`);
        }
        const fields: Record<string, unknown> = {};
        const values = r.fields;
        header.forEach((name, k) => (fields[name] = values[k]));
        // Every column is a string field, its text as written (quotes undone), duplicate names kept.
        const carried = carriedFromColumns(header, keys!, (k) => JSON.stringify(values[k]), textColumn);
        counters.docs++;
        docs.push({ ordinal: 0, input: inputIndex, file, line: r.line, text, fields, carried, byteStart: r.start, byteEnd: r.end, nextOffset: r.next, nextLine: r.nextLine });
      }
      if (docs.length > 0) yield docs;
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) {
      throw new TadpoleError('TADPOLE_INPUT', `${file}: ${err.message}: a field that starts with a double quote must end with one (is it ${kind}? --format text reads it as plain text)`, { file, line: err.line });
    }
    throw err;
  }
}

/** The header of an input read from a later offset (a shard or a resumed run): its first record. */
async function headerOf(src: CsvInput, maxBytes: number): Promise<string[]> {
  if (src.input === STDIN) throw new TadpoleError('TADPOLE_USAGE', 'a CSV read from stdin cannot be read from the middle: give the file');
  for await (const records of csvRecords(openInput(src.input, src.openOpts), { delimiter: src.delimiter, maxBytes })) {
    const first = records[0]?.fields;
    if (first) return first.map((name, k) => (k === 0 ? name.replace(/^\uFEFF/, '') : name));
  }
  return [];
}

function textColumnOf(header: string[], file: string, field: string, kind: string): number {
  const k = header.indexOf(field);
  if (k >= 0) return k;
  const shown = header.slice(0, 12).join(', ') + (header.length > 12 ? ', ...' : '');
  throw new TadpoleError('TADPOLE_INPUT', `${file}: ${kind} has no "${field}" column (columns: ${shown}); name the text column with --text-field NAME`, { file });
}
