/** What the reader takes and gives (documents.ts), in a file of its own so the per-format readers (csv-documents.ts, parquet-documents.ts) share it without loading documents.ts, which loads them. */
import type { WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { ByteRange } from './input.js';
import type { InputFormat } from './input-format.js';
import type { CarriedFields } from './carried.js';

export interface ReaderOptions {
  /** auto: JSONL for files named *.jsonl / *.ndjson, CSV / TSV for *.csv / *.tsv (each also .gz / .zst / .xz), Parquet by magic bytes, plain text otherwise (stdin too). */
  format: InputFormat;
  /** JSONL field (CSV/TSV, Parquet: column) holding the text. */
  textField: string;
  /** Plain text: one document per line instead of blank-line separated paragraphs. */
  docPerLine: boolean;
  /** Fail on the first bad JSONL line instead of skipping and counting it. */
  strict: boolean;
  /** Documents (lines, for JSONL) longer than this are skipped and counted, so memory stays bounded. */
  maxDocBytes?: number;
}

export const DEFAULT_READER: ReaderOptions = {
  format: 'auto',
  textField: 'text',
  docPerLine: false,
  strict: false,
};

/**
 * 16 MiB: far above any real document we have seen (a whole Gutenberg book is ~1 MB), and
 * low enough to bound memory: a one-sentence document costs ~29x its size in peak RSS
 * through split + embed + score (measured: 16 MB -> 461 MB, 64 MB -> 1.34 GB; a skipped
 * 64 MB line -> 95 MB, test/hostile/README.md).
 */
export const DEFAULT_MAX_DOC_BYTES = 16 * 1024 * 1024;

export interface Doc {
  /** 0-based ordinal over all inputs, in input order. */
  ordinal: number;
  /** Index of the input in the inputs list. */
  input: number;
  file: string;
  /** 1-based line of the document's first line. */
  line: number;
  text: string;
  /** JSONL: the whole record (the text field included), parsed; CSV/TSV and Parquet: the columns. */
  fields?: Record<string, unknown>;
  /** What a JSONL output record carries besides the kept text: a JSONL input's members as written (src/io/carried.ts). */
  carried?: CarriedFields;
  /** Byte offsets in the (decompressed) input: [byteStart, byteEnd) covers the document's lines. */
  byteStart: number;
  byteEnd: number;
  /** Byte offset just past the document's separator: a safe place to resume from. */
  nextOffset: number;
  /** 1-based line number at nextOffset (resume restarts line counting there). */
  nextLine?: number;
  /** ReadOptions.trackCounts: the reader's counters just after this document (a checkpoint restores them). */
  counts?: Record<string, number>;
  /** ReadOptions.triage said 'skim': text is '' and fields absent; the document was neither decoded nor parsed. */
  skimmed?: true;
}

/**
 * What to do with a document before it is decoded: 'decode' it as usual; 'skim' it (a Doc
 * with empty text, `skimmed: true`); or 'drop' it (not yielded at all).
 */
export type Triage = (input: number, byteStart: number, byteEnd: number) => 'decode' | 'skim' | 'drop';

/**
 * Which byte spans of a seekable remote input to fetch, in order, and the documents between
 * them that are not fetched (each yielded skimmed, with line 0: its line is not known).
 */
export interface SpanPlan {
  /** Plain-text documents are written with their line numbers: such inputs are read whole. */
  readonly linesNeeded: boolean;
  nextSpan(input: number): { start: number; end: number } | undefined;
  /** Some of the documents of `input` starting before `before` that are not fetched; none left: empty. */
  notRead(input: number, before: number): Array<{ start: number; end: number }>;
}

/** What the reader saw and skipped, and why. */
export class ReadCounters {
  docs = 0;
  bytes = 0;
  lines = 0;
  invalidUtf8Docs = 0;
  /** JSONL texts holding a lone surrogate escape (`\ud800`): text output writes it as U+FFFD. */
  loneSurrogateDocs = 0;
  badJsonLines = 0;
  missingFieldLines = 0;
  badCsvRecords = 0;
  oversizedDocs = 0;
  bomsStripped = 0;
  emptyDocs = 0;
  /** WARC `response` records that are not text/plain (HTML, images): not documents. Set only once a WARC input has one, so other inputs' counts stay as they were. */
  warcNonTextRecords?: number;
  warnings: string[] = [];
  warn(msg: string): void {
    if (this.warnings.length < 20) this.warnings.push(msg);
  }
  toJSON(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(this)) if (typeof v === 'number') out[k] = v;
    return out;
  }
  /** Restore numbers saved by toJSON (resume from a checkpoint). */
  restore(saved: Record<string, number>): void {
    const self = this as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(saved)) if ((typeof self[k] === 'number' || k === 'warcNonTextRecords') && typeof v === 'number') self[k] = v;
  }
}

export interface ReadOptions {
  stdin?: Readable | undefined;
  spool?: WriteStream | undefined;
  counters?: ReadCounters | undefined;
  /** Documents per yielded batch (by count); batches also end at ~1 MB of text. */
  batchDocs?: number | undefined;
  /**
   * Per-input byte ranges (shards, resume); documents are those that START inside the range.
   * Offsets are in decompressed bytes: plain files seek, gzip files and stdin are read from
   * the start and the bytes before `start` dropped. `start` must be a document boundary.
   */
  ranges?: Map<number, ByteRange> | undefined;
  /** First document ordinal (shards continue the global numbering). */
  firstOrdinal?: number | undefined;
  /** Only these input indexes are read (shards spread many files). */
  only?: Set<number> | undefined;
  /** Attach the counters after each document to it (Doc.counts), for checkpoints. */
  trackCounts?: boolean | undefined;
  /**
   * Asked for every document of text and JSONL inputs, in input order, before it is decoded
   * (Parquet documents are always decoded). Filter's pass 2 skims the documents with
   * nothing kept: UTF-8 decoding and JSON.parse were most of its reading time. A skimmed or
   * dropped document is not checked (UTF-8, JSON, text field): the caller vouches for it.
   */
  triage?: Triage | undefined;
  /**
   * Remote objects of plain text or JSONL: fetch only these spans, not every byte (filter's
   * pass 2, src/passes/kept-spans.ts). The documents between spans are yielded skimmed.
   */
  spans?: SpanPlan | undefined;
  /** Decoded bytes of every input read are added here (the sampler tells compressed text from plain by it). */
  decoded?: { bytes: number } | undefined;
}
