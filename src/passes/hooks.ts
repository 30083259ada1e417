import type { SketchJSON } from '../cut/sketch.js';
import type { ReadCounters } from '../io/documents.js';
import type { SpillTargets } from './spill-pass.js';

/** Where reading restarts: a document boundary. */
export interface ReadPosition {
  input: number;
  offset: number;
  line: number;
}

/** What a pass tells the place it runs in, after each batch, wherever that is (this thread, a range's thread, a shard). */
export interface PassHooks {
  progress(docs: number, bytes: number): void;
  /** The signal's name once the run is interrupted: the pass saves its checkpoint and stops after the current batch. */
  abortedBy(): string | undefined;
}

/** Pass 1 after a batch: what a checkpoint of it holds. */
export interface ScoreState {
  at: ReadPosition;
  to: SpillTargets;
  docs: number;
  sentences: number;
  bytes: number;
  counters: ReadCounters;
}

/** Where a resumed pass 1 starts: its checkpoint's counts, spill records, doc index length, sketch and moments. */
export interface ScoreResume {
  at: ReadPosition;
  docs: number;
  sentences: number;
  bytes: number;
  reader: Record<string, number>;
  spillRecords: number;
  /** Absent in a checkpoint from before doc indexes: the run goes on without one. */
  docIndexBytes?: number | undefined;
  sketch: SketchJSON;
  moments: { n: number; mean: number; m2: number };
}

/**
 * Where pass 1's state lives between batches: nowhere (a run to a sink, a range), or a run
 * directory's ledger (run/checkpoints.ts). The pass body is the same either way.
 */
export interface ScoreCheckpoints {
  /** A checkpoint to continue from; undefined: from the start. */
  readonly from: ScoreResume | undefined;
  /** The reader snapshots its counts at each document (Doc.counts), so a checkpoint saves exactly the counts up to it. */
  readonly tracksCounts: boolean;
  /** The spill and doc index are synced to disk when the pass ends (a done marker follows them). */
  readonly durable: boolean;
  /** After each batch: saves when one is due, or (`now`) before an interrupt stops the pass. */
  afterBatch(state: ScoreState, now: boolean): void | Promise<void>;
}

/** Pass 2 after a batch: what a checkpoint of it holds. */
export interface EmitState {
  at: ReadPosition;
  /** Spill records (segments) consumed, the resumed ones included. */
  consumed: number;
  docs: number;
  counters: ReadCounters;
}

/** Where pass 2's state lives between batches (see ScoreCheckpoints). */
export interface EmitCheckpoints {
  afterBatch(state: EmitState, now: boolean): void | Promise<void>;
}

/** No checkpoints: a run whose state lives only in this process. */
export const NO_SCORE_CHECKPOINTS: ScoreCheckpoints = { from: undefined, tracksCounts: false, durable: false, afterBatch: () => {} };
export const NO_EMIT_CHECKPOINTS: EmitCheckpoints = { afterBatch: () => {} };
