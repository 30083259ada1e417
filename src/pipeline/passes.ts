import { existsSync, rmSync } from 'node:fs';
import { TadpoleError } from '../core/errors.js';
import { isKept, type Cut } from '../cut/exact.js';
import { ScoreSketch, type SketchJSON } from '../cut/sketch.js';
import { SpillReader, SpillWriter, truncateSpill } from '../cut/spill.js';
import type { Doc, Triage } from '../io/documents.js';
import { DocIndexReader, DocIndexWriter } from './doc-index.js';
import { nextIndexedDoc, type IndexedDoc } from './indexed-doc.js';
import { KeptTriage } from './kept-triage.js';
import { writeKeptRuns, type KeepTally, type RunWriter } from './runs.js';
import type { SegmentRecord } from '../segment/segments.js';
import { sentenceAt, type ScoredBatch } from './scored.js';
import { segmentsOf } from './segment-records.js';

/** Welford running mean/variance of sentence scores (for the paper's normalised weights). */
export class Moments {
  n = 0;
  mean = 0;
  m2 = 0;
  add(x: number): void {
    this.n++;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
  }
  /** Chan et al.'s pairwise update: the moments of both sets (ranges scored apart). */
  merge(o: { n: number; mean: number; m2: number }): void {
    if (o.n === 0) return;
    const n = this.n + o.n;
    const d = o.mean - this.mean;
    this.mean += (d * o.n) / n;
    this.m2 += o.m2 + (d * d * this.n * o.n) / n;
    this.n = n;
  }
  get std(): number {
    return this.n > 0 ? Math.sqrt(this.m2 / this.n) : 0;
  }
}

export interface SpilledScores {
  sketch: ScoreSketch;
  moments: Moments;
  segments: number;
}

/** Where pass 1 puts a scored batch. The doc index is absent for a shard resumed from a checkpoint older than doc indexes. */
export interface SpillTargets {
  spill: SpillWriter;
  sketch: ScoreSketch;
  moments: Moments;
  index: DocIndexWriter | undefined;
}

/**
 * One scored batch into pass 1's outputs: every score checked finite and added to the
 * moments, one spill record and one sketch entry per segment (ids from `firstId`), one doc
 * index entry per document. Returns the batch's segments. Filter, input ranges and shards
 * all spill through here.
 */
export function spillBatch(b: ScoredBatch, to: SpillTargets, method: string, segment: number, docContext: number | undefined, firstId: number): SegmentRecord[] {
  for (let i = 0; i < b.scores.length; i++) {
    const s = b.scores[i]!;
    if (!Number.isFinite(s)) throw new TadpoleError('TADPOLE_INTERNAL', `scorer ${method} returned a non-finite score (${s}) for: ${sentenceAt(b, i).slice(0, 80)}`);
    to.moments.add(s);
  }
  const segs = segmentsOf(b, segment, firstId, docContext);
  for (const seg of segs) {
    to.spill.write(seg.score, seg.sentences, seg.bytes);
    to.sketch.add(seg.score, seg.sentences, seg.bytes);
  }
  if (to.index) for (let d = 0; d < b.docs.length; d++) to.index.write(Math.ceil(b.spans[d]!.length / 2 / segment), b.docs[d]!.text.length, b.docs[d]!, b.spans[d]!);
  return segs;
}

/** Where a resumed pass 1 left off: its checkpoint's spill records, doc index length, sketch and moments. */
export interface SpillResume {
  spillRecords: number;
  /** Absent in a checkpoint from before doc indexes: the run goes on without one. */
  docIndexBytes?: number;
  sketch: SketchJSON;
  moments: { n: number; mean: number; m2: number };
}

/**
 * Pass 1's outputs, opened: a fresh spill and doc index, or (`from`) the ones a checkpoint
 * left, cut back to it. The one place a spill is opened for writing.
 */
export function openSpill(paths: { spill: string; docIndex: string }, from?: SpillResume): SpillTargets {
  if (!from) return { spill: new SpillWriter(paths.spill), index: new DocIndexWriter(paths.docIndex), sketch: new ScoreSketch(), moments: new Moments() };
  truncateSpill(paths.spill, from.spillRecords);
  const spill = new SpillWriter(paths.spill, true);
  let index: DocIndexWriter | undefined;
  if (from.docIndexBytes !== undefined && existsSync(paths.docIndex)) index = new DocIndexWriter(paths.docIndex, from.docIndexBytes);
  else rmSync(paths.docIndex, { force: true });
  const sketch = new ScoreSketch();
  sketch.merge(ScoreSketch.fromJSON(from.sketch));
  const moments = new Moments();
  Object.assign(moments, from.moments);
  return { spill, index, sketch, moments };
}

/**
 * Pass 1's output side over a whole stream of scored batches: a fresh spill, doc index,
 * sketch and moments. `afterBatch` runs after each (progress, abort checks).
 */
export async function spillScores(
  batches: AsyncIterable<ScoredBatch>,
  method: string,
  segment: number,
  docContext: number | undefined,
  paths: { spill: string; docIndex: string },
  afterBatch: () => void,
): Promise<SpilledScores> {
  const to = openSpill(paths);
  let nextId = 0;
  try {
    for await (const b of batches) {
      nextId += spillBatch(b, to, method, segment, docContext, nextId).length;
      afterBatch();
    }
  } finally {
    to.spill.close();
    to.index?.close();
  }
  return { sketch: to.sketch, moments: to.moments, segments: nextId };
}

/** One document's spill records in pass 2, and the global id of its first segment. */
export interface SegmentedDoc extends IndexedDoc {
  firstId: number;
}

export interface SegmentedDocsOptions {
  segment: number;
  spillPath: string;
  docIndexPath: string;
  /** Global id of the spill's first segment (a range of the input). */
  firstId?: number;
  /** Skim the documents with nothing kept under this cut (kept-triage.ts). */
  cut?: Pick<Cut, 'threshold' | 'tieId'>;
  /** Stop early (a closed stdout). */
  stop?: () => boolean;
  afterBatch?: () => void;
}

/**
 * Pass 2's reading side: hands each document read again on with its spill records. The
 * splitter does not run again: pass 1's doc index holds each document's segment count,
 * text length and sentence spans, read only for documents whose caller asks for them. With
 * a `cut`, the documents with nothing kept are skimmed, not decoded: such a Doc has empty
 * text, and the caller must not ask for its spans. `read` opens the documents with the
 * triage it is given.
 */
export async function forEachSegmentedDoc(read: (triage: Triage | undefined) => AsyncIterable<Doc[]>, o: SegmentedDocsOptions, onDoc: (doc: Doc, seg: SegmentedDoc) => Promise<void>): Promise<void> {
  const reader = new SpillReader(o.spillPath);
  const index = new DocIndexReader(o.docIndexPath);
  let id = o.firstId ?? 0;
  const triage = o.cut ? new KeptTriage(o.docIndexPath, o.spillPath, o.cut, { indexOffset: 0, spillRecord: 0, id }) : undefined;
  try {
    for await (const docs of read(triage?.triage)) {
      for (const doc of docs) {
        const seg = nextIndexedDoc(doc, index, reader, o.segment);
        await onDoc(doc, { scores: seg.scores, sentences: seg.sentences, bytes: seg.bytes, spansAndBounds: seg.spansAndBounds, firstId: id });
        id += seg.scores.length;
        if (o.stop?.()) return;
      }
      o.afterBatch?.();
    }
    if (index.next() || reader.next()) throw new TadpoleError('TADPOLE_INPUT_CHANGED', 'the input changed between passes: it now ends before all segments scored in pass 1');
  } finally {
    reader.close();
    index.close();
    triage?.close();
  }
}

const NO_SPANS: { spans: number[]; bounds: number[] } = { spans: [], bounds: [] };

/** Pass 2 in cut mode: writes the kept runs of every document, tallying into `tally`. */
export async function emitKept(read: (triage: Triage | undefined) => AsyncIterable<Doc[]>, o: SegmentedDocsOptions & { cut: Pick<Cut, 'threshold' | 'tieId'> }, writer: RunWriter, tally: KeepTally): Promise<void> {
  await forEachSegmentedDoc(read, o, (doc, seg) => writeKept(writer, doc, seg, o.cut, seg.firstId, tally));
}

/** One document's segments as pass 2 (or the one streaming pass) holds them. */
export type DocSegments = Pick<IndexedDoc, 'spansAndBounds'> & { scores: ArrayLike<number>; sentences: ArrayLike<number>; bytes: ArrayLike<number> };

/**
 * One document's kept runs under `cut` (its segment s has the global id firstId + s),
 * written and tallied: the one way kept text reaches a RunWriter, in every mode.
 */
export async function writeKept(writer: RunWriter, doc: Doc, seg: DocSegments, cut: Pick<Cut, 'threshold' | 'tieId'>, firstId: number, tally: KeepTally): Promise<void> {
  // A plain loop: Uint8Array.from with a mapping function took the generic iterator path,
  // about a tenth of pass 2.
  const kept = new Uint8Array(seg.scores.length);
  let any = false;
  for (let s = 0; s < kept.length; s++) {
    if (isKept(cut, seg.scores[s]!, firstId + s)) {
      kept[s] = 1;
      any = true;
    }
  }
  // A document with nothing kept is only tallied: writeKeptRuns reads spans and bounds
  // for kept runs alone, so its spans are not read.
  const { spans, bounds } = any ? seg.spansAndBounds() : NO_SPANS;
  await writeKeptRuns(writer, doc, spans, bounds, kept, seg.sentences, seg.bytes, tally);
  tally.documents.total++;
}
