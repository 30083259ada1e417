import { describe, expect, it } from 'vitest';
import { readerSummary } from '../../src/cli/reader-summary.js';

describe('readerSummary: what the reader skipped or repaired, in one line', () => {
  it('nothing skipped: no line', () => {
    expect(readerSummary({ docs: 10, badJsonLines: 0, emptyDocs: 3 }, { textField: 'text', stats: true })).toBeUndefined();
  });

  it('names every kind, in the singular where one, and the fixes', () => {
    expect(readerSummary({ badJsonLines: 2, missingFieldLines: 1, badCsvRecords: 1, oversizedDocs: 3, invalidUtf8Docs: 1 }, { textField: 'body', stats: true })).toBe(
      'warning: skipped 2 JSONL lines that are not JSON objects, 1 record without a string "body" field, 1 CSV/TSV record with more or fewer fields than its header, 3 documents over --max-doc-bytes; invalid UTF-8 replaced with U+FFFD in 1 document (counts in --stats; --strict stops at the first bad record and names its line)',
    );
  });

  it('a lone surrogate escape: counted apart from invalid UTF-8, with what text output does with it', () => {
    expect(readerSummary({ loneSurrogateDocs: 2 }, { textField: 'text', stats: true })).toBe('warning: a lone surrogate escape (\\ud800-\\udfff) in 2 documents, written as U+FFFD in text output (counts in --stats)');
  });

  it('offers --strict only for records it could stop at, and --stats only where there is one', () => {
    expect(readerSummary({ oversizedDocs: 1 }, { textField: 'text', stats: false })).toBe('warning: skipped 1 document over --max-doc-bytes');
  });
});
