export type InputFormat = 'text' | 'jsonl' | 'csv' | 'tsv' | 'auto';

/** What an input is read as, once 'auto' has looked at its name (Parquet: at its bytes). */
export type ResolvedFormat = 'text' | 'jsonl' | 'csv' | 'tsv';

/** The format an input is read in: explicit, or by name under 'auto'. */
export function resolveFormat(format: InputFormat, file: string): ResolvedFormat {
  if (format !== 'auto') return format;
  if (/\.((jsonl|ndjson)(\.(gz|zst|zstd|xz))?|parquet)$/i.test(file)) return 'jsonl';
  const delimited = /\.(csv|tsv)(\.(gz|zst|zstd|xz))?$/i.exec(file);
  if (delimited) return delimited[1]!.toLowerCase() === 'csv' ? 'csv' : 'tsv';
  return 'text';
}

/** CSV and TSV records can hold newlines, so no offset inside one can be found by scanning for a line: read from the start, never seeked into. */
export function isDelimited(format: ResolvedFormat | 'parquet' | 'warc'): boolean {
  return format === 'csv' || format === 'tsv';
}
