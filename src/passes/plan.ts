import { parquetCutRow } from '../io/format/parquet-plan.js';
import { TadpoleError } from '../core/errors.js';
import { DEFAULT_MAX_DOC_BYTES, isDelimited, type ReaderOptions } from '../io/documents.js';
import { warcCut } from '../io/warc-documents.js';
import type { InputKind } from '../io/input-kind.js';
import { openReadAt } from '../io/read-at.js';
import { STDIN, type ByteRange } from '../io/input.js';
import type { InputFingerprint } from './fingerprint.js';

/** What one shard reads: a set of inputs, some of them byte ranges. */
export interface ShardPlan {
  only: Set<number>;
  ranges: Map<number, ByteRange>;
}

/** A cut point between shards: input index and byte offset (a document boundary). */
interface Point {
  input: number;
  offset: number;
}

const SCAN = 64 * 1024;

/**
 * Shard i of n: the inputs laid end to end (gzip files by compressed size), cut at
 * size*k/n, each cut moved forward to the next document boundary (a line start for
 * JSONL / --doc-per-line, the start of a blank line for paragraph text). A gzip file
 * cannot be split: the cut moves to its start, so it goes whole to one shard; so does a
 * CSV or TSV file, whose quoted fields may hold newlines. A Parquet
 * file is cut at the first row group starting at or after the cut (its offsets are rows), a
 * gzipped WARC at the first gzip member starting there (a plain WARC goes whole). Every
 * process computes the same cuts from the same bytes, so shards never overlap or miss.
 */
export function planShard(inputs: readonly InputKind[], fps: InputFingerprint[], reader: ReaderOptions, shard: number, of: number): ShardPlan {
  if (of > 1 && inputs.some((k) => k.input === STDIN)) throw new TadpoleError('TADPOLE_USAGE', 'stdin cannot be split into shards: give files (or use --shard 0/1)');
  const starts: number[] = [];
  let total = 0;
  for (const f of fps) {
    starts.push(total);
    total += Math.max(0, f.size);
  }
  const cut = (k: number): Point => {
    if (k <= 0) return { input: 0, offset: 0 };
    if (k >= of) return { input: inputs.length, offset: 0 };
    const g = Math.floor((total * k) / of);
    let j = 0;
    while (j < fps.length - 1 && starts[j + 1]! <= g) j++;
    const f = fps[j]!;
    const kind = inputs[j]!;
    if (f.size > 0 && kind.format === 'parquet') {
      // Parquet splits between row groups; offsets in a Parquet file are rows (src/io/format/parquet.ts).
      const row = parquetCutRow(kind.input, g - starts[j]!);
      return row === undefined ? { input: j + 1, offset: 0 } : { input: j, offset: row };
    }
    if (f.size > 0 && kind.format === 'warc') {
      // A gzipped WARC splits between its members, one a record (src/io/warc-documents.ts).
      const b = warcCut(kind, g - starts[j]!, reader.maxDocBytes ?? DEFAULT_MAX_DOC_BYTES);
      return b >= f.size ? { input: j + 1, offset: 0 } : { input: j, offset: b };
    }
    const format = kind.format;
    if (!kind.seekable || f.size <= 0 || isDelimited(format)) return { input: j, offset: 0 };
    const perLine = format === 'jsonl' || reader.docPerLine;
    const b = nextBoundary(kind.input, g - starts[j]!, f.size, perLine);
    return b >= f.size ? { input: j + 1, offset: 0 } : { input: j, offset: b };
  };
  const from = cut(shard);
  const to = cut(shard + 1);
  const plan: ShardPlan = { only: new Set(), ranges: new Map() };
  for (let j = from.input; j <= Math.min(to.input, inputs.length - 1); j++) {
    const start = j === from.input ? from.offset : 0;
    const end = j === to.input ? to.offset : Number.MAX_SAFE_INTEGER;
    if (end <= start) continue;
    plan.only.add(j);
    if (start > 0 || end < Number.MAX_SAFE_INTEGER) plan.ranges.set(j, { start, end });
  }
  return plan;
}

/** The first document boundary at or after `pos`. */
export function nextBoundary(path: string, pos: number, size: number, perLine: boolean): number {
  if (pos <= 0) return 0;
  if (pos >= size) return size;
  const fd = openReadAt(path);
  try {
    const buf = Buffer.alloc(SCAN);
    // Scan from pos-1: if the byte before pos is '\n', pos itself starts a line.
    let at = pos - 1;
    let lineStart = -1; // start of the line being checked for blankness (paragraph mode)
    for (;;) {
      const n = fd.read(buf, 0, SCAN, at);
      if (n <= 0) return size;
      for (let i = 0; i < n; i++) {
        const c = buf[i]!;
        const abs = at + i;
        if (lineStart >= 0) {
          if (c === 0x0a) return lineStart; // a blank line: the paragraph boundary
          if (c === 32 || c === 9 || c === 13 || c === 0x0b || c === 0x0c) continue;
          lineStart = -1;
        }
        if (c === 0x0a && abs + 1 >= pos) {
          if (perLine) return Math.min(size, abs + 1);
          lineStart = abs + 1;
        }
      }
      at += n;
      if (lineStart >= 0 && at >= size) return lineStart; // blank to the end
    }
  } finally {
    fd.close();
  }
}

/** A plan resumed at (input, offset, line): earlier inputs dropped, that input started there. */
export function resumePlan(plan: ShardPlan, at: { input: number; offset: number; line: number }): ShardPlan {
  const only = new Set([...plan.only].filter((j) => j >= at.input));
  const ranges = new Map<number, ByteRange>();
  for (const [j, r] of plan.ranges) if (j > at.input) ranges.set(j, r);
  if (only.has(at.input) && (at.offset > 0 || plan.ranges.has(at.input))) {
    const end = plan.ranges.get(at.input)?.end ?? Number.MAX_SAFE_INTEGER;
    ranges.set(at.input, { start: at.offset, end, line: at.line });
  }
  return { only, ranges };
}
