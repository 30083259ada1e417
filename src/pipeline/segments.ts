import type { Readable } from 'node:stream';
import { readDocuments, type ReadCounters, type ReaderOptions } from '../io/documents.js';
import { DEFAULT_DOC_CONTEXT, documentSegmentScores } from '../segment/context.js';
import { segmentBounds, type SegmentRecord } from '../segment/segments.js';
import { prepareOnFiles, type ScoredBatch } from './scored.js';
import { scoreDocuments, type Scoring } from './scoring.js';

/**
 * Segment records of one scored batch, ids continuing from `nextId`. `docContext` (default
 * DEFAULT_DOC_CONTEXT; 0 = the paper's plain mean) is how much each segment's score leans on
 * its document's (src/segment/context.ts).
 */
export function segmentsOf(b: ScoredBatch, size: number, nextId: number, docContext = DEFAULT_DOC_CONTEXT): SegmentRecord[] {
  const out: SegmentRecord[] = [];
  for (let d = 0; d < b.docs.length; d++) {
    const doc = b.docs[d]!;
    const spans = b.spans[d]!;
    const bounds = segmentBounds(spans.length / 2, size);
    const scores = documentSegmentScores(b.scores, b.firstSentence[d]!, spans, bounds, docContext);
    for (let s = 0; s < bounds.length; s += 2) {
      const first = bounds[s]!;
      const count = bounds[s + 1]!;
      const start = spans[2 * first]!;
      const end = spans[2 * (first + count - 1) + 1]!;
      out.push({ id: nextId++, doc: doc.ordinal, firstSentence: first, sentences: count, bytes: Buffer.byteLength(doc.text.slice(start, end)), score: scores[s / 2]! });
    }
  }
  return out;
}

export interface SegmentScoresOptions {
  inputs: string[];
  reader: ReaderOptions;
  scorer: Scoring;
  segment: number;
  /** How much a segment's score leans on its document's (src/segment/context.ts); 0 = the paper's plain mean; default DEFAULT_DOC_CONTEXT. */
  docContext?: number;
  stdin?: Readable;
  counters?: ReadCounters;
}

/** Library entry for evaluation: every segment's record, in input order, streaming. */
export async function* segmentScores(opts: SegmentScoresOptions): AsyncGenerator<SegmentRecord[]> {
  let nextId = 0;
  await prepareOnFiles(opts.scorer, opts.inputs, opts.reader);
  const docs = readDocuments(opts.inputs, opts.reader, { ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(opts.counters ? { counters: opts.counters } : {}) });
  for await (const b of scoreDocuments(docs, opts.scorer)) {
    const segs = segmentsOf(b, opts.segment, nextId, opts.docContext);
    nextId += segs.length;
    yield segs;
  }
}
