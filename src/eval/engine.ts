import type { KeepBy } from '../cut/exact.js';
import type { TaskShareReading } from '../cut/share-estimate.js';
import type { Scoring } from '../threads/scoring.js';
import type { SegmentRecord } from '../segment/segments.js';
import type { MethodSpec } from './spec.js';

/** A document's sentences and the UTF-8 bytes of its segments' spans (what the cut weighs). */
export interface DocSize {
  sentences: number;
  bytes: number;
}

/**
 * What the evaluation needs from the engine. The default (engine-default.ts) is the
 * library itself: the same fit, segment and exact-cut code that `tadpole filter` runs,
 * so every method is measured on equal terms. Tests may pass a small stand-in.
 */
export interface EvalEngine {
  /** Sentences of JSONL inputs (text field "text"); a seeded sample when limit is set. */
  readSentences(inputs: string[], opts: { limit?: number; seed?: number }): Promise<string[]>;
  /**
   * The general sample as `tadpole filter` draws it from the corpus: whole segments, with
   * each sentence's segment (io/sample.ts). Without it the eval samples single sentences
   * with readSentences.
   */
  sampleGeneral?(inputs: string[], opts: { size: number; seed: number }): Promise<{ sentences: string[]; groups: Uint32Array }>;
  /** Fit the method on task (+ general) sentences and open its scorer. */
  openScorer(method: MethodSpec, fit: { task: string[]; general: string[]; generalGroups?: Uint32Array; seed: number; keep?: number; keepBy?: KeepBy; avoid?: string[] }): Promise<Scoring>;
  /** What the fit behind a scoring openScorer opened read of how much of the mix looks like the task (the default's), if anything. */
  taskShareOf?(scoring: Scoring): TaskShareReading | undefined;
  /**
   * Sentences and segment bytes of each document of JSONL inputs (text field "text"), in input
   * order, in batches: as segmentScores splits and cuts them into segments of `segment` sentences.
   */
  docSizes(inputs: string[], segment: number): AsyncIterable<DocSize[]>;
  /** Segment records of JSONL inputs (text field "text"), in input order. */
  segmentScores(inputs: string[], scorer: Scoring, segment: number): AsyncIterable<SegmentRecord[]>;
  /** 1 = kept: exactly `keep` of the total weight (sentences or bytes; ties by index). */
  selectKept(scores: Float64Array, weights: Float64Array, keep: number): Uint8Array;
}
