/**
 * How kept runs are written: 'input' as each document came (a record for a JSONL, CSV or
 * Parquet document, text for a plain one), or every run as 'text' or as a 'jsonl' record,
 * whatever its document was: a folder that mixes plain and JSONL files still gives valid
 * output of one format.
 */
export type OutFormat = 'input' | 'text' | 'jsonl';
