import { existsSync, rmSync } from 'node:fs';
import { TadpoleError } from '../core/errors.js';
import { ScoreSketch, type SketchJSON } from '../cut/sketch.js';
import { SpillWriter, truncateSpill } from '../cut/spill.js';
import type { SegmentRecord } from '../segment/segments.js';
import { DocIndexWriter } from './doc-index.js';
import { sentenceAt, type ScoredBatch } from './scored.js';
import { segmentsOf } from './segment-records.js';
import type { TokenCounter } from '../cut/tokens.js';

// Pass 1's output side (score and spill); pass 2, reading the spill again and writing what is
// kept, is passes.ts.

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
  /** --tokenizer: each segment's tokens go into its spill record and the sketch. */
  countTokens?: TokenCounter;
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
  const segs = segmentsOf(b, segment, firstId, docContext, to.countTokens);
  for (const seg of segs) {
    to.spill.write(seg.score, seg.sentences, seg.bytes, seg.tokens);
    to.sketch.add(seg.score, seg.sentences, seg.bytes, seg.tokens);
  }
  if (to.index) for (let d = 0; d < b.docs.length; d++) to.index.write(Math.ceil(b.spans[d]!.length / 2 / segment), b.docs[d]!.text.length, b.docs[d]!, b.spans[d]!);
  return segs;
}

/** Where a resumed pass 1 left off: its checkpoint's spill records, doc index length, sketch and moments. */
export interface SpillResume {
  spillRecords: number;
  /** Absent in a checkpoint from before doc indexes: the run goes on without one. */
  docIndexBytes?: number | undefined;
  sketch: SketchJSON;
  moments: { n: number; mean: number; m2: number };
}

/**
 * Pass 1's outputs, opened: a fresh spill and doc index, or (`from`) the ones a checkpoint
 * left, cut back to it. The one place a spill is opened for writing.
 */
export function openSpill(paths: { spill: string; docIndex: string }, from?: SpillResume, countTokens?: TokenCounter): SpillTargets {
  const counting = countTokens ? { countTokens } : {};
  if (!from) return { spill: new SpillWriter(paths.spill, false, !!countTokens), index: new DocIndexWriter(paths.docIndex), sketch: new ScoreSketch(), moments: new Moments(), ...counting };
  truncateSpill(paths.spill, from.spillRecords);
  const spill = new SpillWriter(paths.spill, true);
  if (spill.tokens !== !!countTokens) {
    spill.close();
    throw new TadpoleError('TADPOLE_RUN', `${paths.spill} was scored ${spill.tokens ? 'with' : 'without'} --tokenizer: resume it the same way`);
  }
  let index: DocIndexWriter | undefined;
  if (from.docIndexBytes !== undefined && existsSync(paths.docIndex)) index = new DocIndexWriter(paths.docIndex, from.docIndexBytes);
  else rmSync(paths.docIndex, { force: true });
  const sketch = new ScoreSketch();
  sketch.merge(ScoreSketch.fromJSON(from.sketch));
  const moments = new Moments();
  Object.assign(moments, from.moments);
  return { spill, index, sketch, moments, ...counting };
}
