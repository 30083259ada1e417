import type { EmbedderSpec } from '../embed/factory.js';
import type { ModelFile } from '../model/file.js';
import type { SentenceScorer } from '../select/selector.js';

/** What a scoring worker is started with: it rebuilds the scorer itself. */
export interface PoolWorkerData {
  /** null: a worker that only splits (sampling passes); its replies carry no scores. */
  model: ModelFile | null;
  embedder: Omit<Partial<EmbedderSpec>, 'log'>;
  /** Send the embedder's log lines back ({ type: 'log' }). */
  log: boolean;
}

/** Main -> worker: the documents of one batch, as encoded text and document end offsets (bytes). */
export type PoolRequest = ScoreRequest | RangeRequest | ModelRequest | { type: 'close' };

/** Main -> worker: open this model's scorer for the requests that follow (a pool that only split until now). */
export interface ModelRequest {
  type: 'model';
  model: ModelFile;
  embedder: Omit<Partial<EmbedderSpec>, 'log'>;
}

/**
 * One range job for some thread of the pool: plain data that crosses to a worker as it is.
 * The pool only carries it; what it holds and how it runs is range-pass.ts's.
 */
export interface RangeTask {
  kind: 'score' | 'emit';
  job: unknown;
  progress: (docs: number, bytes: number) => void;
}

/** What a range job sees of the run while it works. */
export interface RangeHooks {
  progress(docs: number, bytes: number): void;
  /** True once the run is interrupted: the range stops after its current batch. */
  aborted(): boolean;
}

/** Runs a range job on the calling thread, with its scorer (none: a pool that only splits). */
export type RunHere = (task: Omit<RangeTask, 'progress'>, scorer: SentenceScorer | undefined, hooks: RangeHooks) => Promise<unknown>;

/** Main -> worker: score or emit one whole range of the input on this thread (threads/ranges-place.ts). */
export type RangeRequest = { type: 'range'; id: number; abort: SharedArrayBuffer } & Omit<RangeTask, 'progress'>;

/** Finish the current batch, skip queued ones, dispose the scorer, exit. */
export interface ScoreRequest {
  type: 'score';
  id: number;
  /** utf16le when a document holds a lone surrogate, which UTF-8 would replace. */
  encoding: 'utf8' | 'utf16le';
  text: ArrayBuffer;
  /** Int32Array of byte offsets: ends[0] = 0, document i is text[ends[i], ends[i + 1]). */
  ends: ArrayBuffer;
}

/** Worker -> main. */
export type PoolReply =
  | { type: 'ready' }
  | { type: 'log'; line: string }
  /** spans: Int32Array of every document's flat [start, end, ...] sentence spans; counts: Int32Array, span entries per document; scores: Float64Array, one per sentence. */
  | { type: 'scored'; id: number; spans: ArrayBuffer; counts: ArrayBuffer; scores: ArrayBuffer }
  | { type: 'range-progress'; id: number; docs: number; bytes: number }
  | { type: 'range-done'; id: number; result: unknown }
  | { type: 'error'; id: number; code?: string; message: string };
