import type { Readable, Writable } from 'node:stream';
import type { KeepBy } from '../cut/exact.js';
import type { TaskShare } from '../cut/share-estimate.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import type { InputKind, InputRef } from '../io/input-kind.js';
import type { Sink } from '../io/sink.js';
import type { HeldOut } from '../model/describe.js';
import type { ModelFile } from '../model/file.js';
import type { CompletionSample } from '../model/file.js';
import type { OutFormat } from './out-format.js';
import type { SentenceScorer } from '../select/selector.js';

/** Everything a filter run is given, whatever its mode (docs/reference/stats-json.md says what it returns). */
interface FilterSettings {
  /** Paths (or '-'), or their kinds already resolved; runFilter resolves each once, and every pass reads that record. */
  inputs: readonly InputRef[];
  reader: ReaderOptions;
  model: ModelFile;
  /** ONNX overrides (model dir, device, batch size) for recreating the embedder. */
  embedder?: Partial<EmbedderSpec>;
  keep: number;
  segment: number;
  /** How much a segment's score leans on its document's (src/segment/context.ts); 0 = the paper's plain mean; default DEFAULT_DOC_CONTEXT. */
  docContext?: number;
  keepBy: KeepBy;
  /** A Hugging Face tokenizer.json: pass 1 counts each segment's tokens (needed by keepBy 'tokens'), and the stats report them. */
  tokenizer?: string;
  /** Streaming mode: keep segments with score <= threshold, no cut, one pass. */
  threshold?: number;
  /** Continuous weights (the paper's λ): every segment written with its weight. */
  weights?: { C: number; alpha: number };
  /** How kept runs are written (out-format.ts); default 'input'. --weights always writes JSONL. */
  outFormat?: OutFormat;
  stdin?: Readable;
  /** Scratch folder for the spill and the stdin spool (default: a temp folder, removed after). */
  workDir?: string;
  batchSentences?: number;
  progress?: (line: string) => void;
  /** A ready scorer (tests, eval); otherwise opened from the model. */
  scorer?: SentenceScorer;
  /** Scoring threads (default: every available core); 1 scores in this thread. */
  workers?: number;
  /** Aborted (SIGINT/SIGTERM): stop after the current batch, remove temp output, throw Interrupted. */
  signal?: AbortSignal;
  /** One-line notes for stderr (what the completion of a model without --general did). */
  log?: (line: string) => void;
  /** The completion's fit, step by step (every self-training round); its warnings too. Default: log. */
  detail?: (line: string) => void;
  /**
   * With more than one scoring thread, plain input files of at least this many bytes in all
   * are cut into ranges that the threads filter apart (range-filter.ts); default
   * RANGE_MIN_BYTES, Infinity: never.
   */
  rangeMinBytes?: number;
}

/** A run kept in a directory (filter --run-dir), so that --resume continues it after a crash. */
export interface RunDirSettings {
  dir: string;
  /** Continue the run the directory holds (refused without it when there is one). */
  resume: boolean;
  /** The model file's sha256, recorded in the run's identity. */
  modelSha256: string;
  /** Output file; undefined: `stdout`, written once the run is complete. */
  output?: string;
  stdout: Writable;
  checkpointSeconds?: number;
  /** The command line, recorded in the ledger. */
  args: string[];
  /** Test seam: the point at which the process kills itself (core/interrupt.ts crashPoint). */
  crashAt?: string;
}

/**
 * A filter run's options, one type for every mode: kept text to a sink (one stream or input
 * ranges, scratch in a temp folder or --work-dir), or a run kept in a directory.
 */
export type FilterOptions = FilterSettings & ({ sink: Sink; runDir?: undefined } | { runDir: RunDirSettings; sink?: undefined });

/** The options of a run that writes to a sink. */
export type SinkFilterOptions = FilterOptions & { sink: Sink };

/** The same once runFilter has decided each input's kind: every pass reads these. */
export type ResolvedFilterOptions = Omit<FilterSettings, 'inputs'> & { inputs: readonly InputKind[]; sink: Sink };

export interface FilterStats {
  method: string;
  keep: number;
  keepBy: KeepBy;
  segmentSize: number;
  /** --doc-context the segment scores were made with (a --threshold from these stats holds for the same K only). */
  docContext: number;
  mode: 'cut' | 'threshold' | 'weights';
  threshold: number | null;
  tieId: number | null;
  documents: { total: number; withKept: number };
  sentences: { total: number; kept: number };
  segments: { total: number; kept: number };
  bytes: { total: number; kept: number };
  /** With a tokenizer: the tokens of every segment, and of the kept ones, as the cut counted them. */
  tokens?: { total: number; kept: number };
  sentenceScores: { mean: number; std: number };
  reader: Record<string, number>;
  seconds: { open: number; pass1: number; cut: number; pass2: number; total: number };
  closedEarly: boolean;
  /** A model fitted without --general: the corpus sample it was completed from. */
  completion?: CompletionInfo;
  /**
   * The share of the corpus's sentences that look like the task, with a range, as the default's
   * fit read it from the general sample (cut/share-estimate.ts): without an `estimate`, only the
   * range's side the scores support; absent when it could tell neither, and for other methods.
   */
  taskShare?: TaskShare;
  /** Why the fit gave no `estimate` (with or without a `taskShare` range). */
  taskShareNone?: string;
  /**
   * The default's held-out measure of the model that scored (completed from this corpus, or as
   * fitted): AUROC of the chosen scorer on task and corpus sentences set aside; absent for
   * methods that measure none.
   */
  heldOut?: HeldOut;
  /** The input was cut into this many byte ranges, filtered apart by the scoring threads (range-filter.ts); absent when it was read in one stream. */
  ranges?: number;
  /** Scoring threads, the main thread included: --workers, or what its default chose for this input; absent when this call scored nothing (a resumed run past its scoring). */
  threads?: number;
}


/** What the completion did, for --stats and stderr. */
export interface CompletionInfo extends CompletionSample {
  seconds: number;
  /** Taken from the run directory (--resume, another shard) rather than sampled again. */
  reused: boolean;
}
