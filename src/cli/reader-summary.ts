/**
 * One stderr line for what the reader skipped or repaired, so nothing is dropped silently:
 * the counts are in --stats as well, but a user who reads no stats file must still learn
 * that 3% of their corpus never reached the filter. Printed with --quiet too: it is a
 * warning about the data, not progress.
 */
export function readerSummary(reader: Readonly<Record<string, number | undefined>>, opts: { textField: string; stats: boolean }): string | undefined {
  const n = (key: string): number => reader[key] ?? 0;
  const count = (k: number, one: string, many: string): string => `${k} ${k === 1 ? one : many}`;
  const skipped: string[] = [];
  if (n('badJsonLines')) skipped.push(count(n('badJsonLines'), 'JSONL line that is not a JSON object', 'JSONL lines that are not JSON objects'));
  if (n('missingFieldLines')) skipped.push(count(n('missingFieldLines'), `record without a string "${opts.textField}" field`, `records without a string "${opts.textField}" field`));
  if (n('badCsvRecords')) skipped.push(count(n('badCsvRecords'), 'CSV/TSV record with more or fewer fields than its header', 'CSV/TSV records with more or fewer fields than their header'));
  if (n('oversizedDocs')) skipped.push(count(n('oversizedDocs'), 'document over --max-doc-bytes', 'documents over --max-doc-bytes'));
  if (n('warcNonTextRecords')) skipped.push(count(n('warcNonTextRecords'), 'WARC response that is not text/plain', 'WARC responses that are not text/plain'));
  const repaired = n('invalidUtf8Docs') ? `invalid UTF-8 replaced with U+FFFD in ${count(n('invalidUtf8Docs'), 'document', 'documents')}` : '';
  // JSONL output keeps such an escape (JSON can write it); UTF-8 text cannot hold it.
  const surrogates = n('loneSurrogateDocs') ? `a lone surrogate escape (\\ud800-\\udfff) in ${count(n('loneSurrogateDocs'), 'document', 'documents')}, written as U+FFFD in text output` : '';
  if (skipped.length === 0 && !repaired && !surrogates) return undefined;
  const parts = [skipped.length ? `skipped ${skipped.join(', ')}` : '', repaired, surrogates].filter(Boolean).join('; ');
  const hints = [opts.stats ? 'counts in --stats' : '', n('badJsonLines') || n('missingFieldLines') || n('badCsvRecords') ? '--strict stops at the first bad record and names its line' : ''].filter(Boolean);
  return `warning: ${parts}${hints.length ? ` (${hints.join('; ')})` : ''}`;
}
