import type { Readable } from 'node:stream';
import { readKinds, type ReadCounters, type ReaderOptions } from '../io/documents.js';
import { resolveInputs } from '../io/input-kind.js';
import type { SegmentRecord } from '../segment/segments.js';
import { prepareOnFiles } from '../passes/scored.js';
import { scoreDocuments, type Scoring } from './scoring.js';
import { segmentsOf } from '../passes/segment-records.js';

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
  // Each input's kind decided once, for both readings (a corpus-wide scorer's and the scoring).
  const inputs = resolveInputs(opts.inputs, opts.reader.format);
  await prepareOnFiles(opts.scorer, inputs, opts.reader);
  const docs = readKinds(inputs, opts.reader, { stdin: opts.stdin, counters: opts.counters });
  for await (const b of scoreDocuments(docs, opts.scorer)) {
    const segs = segmentsOf(b, opts.segment, nextId, opts.docContext);
    nextId += segs.length;
    yield segs;
  }
}
