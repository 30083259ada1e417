import type { ByteRange } from './input.js';
import type { Doc, ReadCounters, ReaderOptions } from './doc.js';
import { parquetRows } from './format/parquet.js';

/**
 * Documents of a Parquet file: one per row, the --text-field column as the text and
 * every column carried as a JSONL field, as a JSONL record's fields are. Offsets are
 * row numbers (see src/io/format/parquet.ts). Rows whose text is null or not a string
 * are skipped and counted as JSONL records without the field are.
 */
export async function* parquetDocuments(
  path: string,
  file: string,
  inputIndex: number,
  opts: ReaderOptions,
  counters: ReadCounters,
  range: ByteRange | undefined,
): AsyncGenerator<Doc[]> {
  const maxDoc = opts.maxDocBytes ?? Number.MAX_SAFE_INTEGER;
  for await (const rows of parquetRows(path, file, opts.textField, range)) {
    const docs: Doc[] = [];
    for (const r of rows) {
      counters.lines++;
      if (r.text === undefined) {
        counters.missingFieldLines++;
        counters.warn(`${file}: row ${r.row}: skipped: "${opts.textField}" is null or not a string`);
        continue;
      }
      const bytes = Buffer.byteLength(r.text);
      counters.bytes += bytes;
      if (bytes > maxDoc) {
        counters.oversizedDocs++;
        counters.warn(`${file}: row ${r.row}: document over ${maxDoc} bytes skipped`);
        continue;
      }
      if (r.text.trim() === '') {
        counters.emptyDocs++;
        continue;
      }
      counters.docs++;
      docs.push({ ordinal: 0, input: inputIndex, file, line: r.row + 1, text: r.text, fields: r.fields, carried: r.carried, byteStart: r.row, byteEnd: r.row + 1, nextOffset: r.row + 1, nextLine: r.row + 2 });
    }
    if (docs.length > 0) yield docs;
  }
}
