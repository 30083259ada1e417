import type { Readable } from 'node:stream';
import { readDocuments, type ReadCounters, type ReaderOptions } from '../io/documents.js';
import { segmentBounds, type SegmentRecord } from '../segment/segments.js';
import { prepareOnFiles, type ScoredBatch } from './scored.js';
import { scoreDocuments, type Scoring } from './scoring.js';

/** Segment records of one scored batch, ids continuing from `nextId`. */
export function segmentsOf(b: ScoredBatch, size: number, nextId: number): SegmentRecord[] {
  const out: SegmentRecord[] = [];
  for (let d = 0; d < b.docs.length; d++) {
    const doc = b.docs[d]!;
    const spans = b.spans[d]!;
    const base = b.firstSentence[d]!;
    const bounds = segmentBounds(spans.length / 2, size);
    for (let s = 0; s < bounds.length; s += 2) {
      const first = bounds[s]!;
      const count = bounds[s + 1]!;
      let sum = 0;
      for (let i = 0; i < count; i++) sum += b.scores[base + first + i]!;
      const start = spans[2 * first]!;
      const end = spans[2 * (first + count - 1) + 1]!;
      out.push({ id: nextId++, doc: doc.ordinal, firstSentence: first, sentences: count, bytes: Buffer.byteLength(doc.text.slice(start, end)), score: sum / count });
    }
  }
  return out;
}

export interface SegmentScoresOptions {
  inputs: string[];
  reader: ReaderOptions;
  scorer: Scoring;
  segment: number;
  stdin?: Readable;
  counters?: ReadCounters;
}

/** Library entry for evaluation: every segment's record, in input order, streaming. */
export async function* segmentScores(opts: SegmentScoresOptions): AsyncGenerator<SegmentRecord[]> {
  let nextId = 0;
  await prepareOnFiles(opts.scorer, opts.inputs, opts.reader);
  const docs = readDocuments(opts.inputs, opts.reader, { ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(opts.counters ? { counters: opts.counters } : {}) });
  for await (const b of scoreDocuments(docs, opts.scorer)) {
    const segs = segmentsOf(b, opts.segment, nextId);
    nextId += segs.length;
    yield segs;
  }
}
