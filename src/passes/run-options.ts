import type { Readable, Writable } from 'node:stream';
import type { KeepBy } from '../cut/exact.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import type { InputKind, InputRef } from '../io/input-kind.js';
import type { Sink } from '../io/sink.js';
import type { CompletionSample, ModelFile } from '../model/file.js';
import type { SentenceScorer } from '../select/selector.js';
import type { OutFormat } from './out-format.js';

/**
 * Everything a filter run is given, whatever its mode, as a library caller or the CLI gives
 * it; commands/filter-options.ts normalises it once into RunOptions. Absent: the default.
 */
export interface FilterOptions {
  /** Paths, folders, globs, remote specs or '-', or their kinds already resolved; each is resolved once. */
  inputs: readonly InputRef[];
  /** Default DEFAULT_READER (plain text, auto-detected format). */
  reader?: ReaderOptions | undefined;
  /** A model, or the path of a model file (read and verified; a run directory records its hash). */
  model: ModelFile | string;
  /** ONNX overrides (model dir, device, batch size) for recreating the embedder. */
  embedder?: Partial<EmbedderSpec> | undefined;
  /** A share of the corpus (0..1), or above 1 a whole amount of the keepBy unit. */
  keep: number;
  /** Default DEFAULT_KEEP_BY. */
  keepBy?: KeepBy | undefined;
  /** Sentences per segment; default 15. */
  segment?: number | undefined;
  /** How much a segment's score leans on its document's (src/segment/context.ts); 0 = the paper's plain mean; default DEFAULT_DOC_CONTEXT. */
  docContext?: number | undefined;
  /** A Hugging Face tokenizer.json: pass 1 counts each segment's tokens (needed by keepBy 'tokens'), and the stats report them. */
  tokenizer?: string | undefined;
  /** Streaming mode: keep segments with score <= threshold, no cut, one pass. */
  threshold?: number | undefined;
  /** Continuous weights (the paper's λ): every segment written with its weight, as JSONL. */
  weights?: Weights | undefined;
  /** How kept runs are written (out-format.ts); default: what the output's name says, else as the input. */
  outFormat?: OutFormat | undefined;
  stdin?: Readable | undefined;
  /** Scratch folder for the spill and the stdin spool (default: a temp folder, removed after). */
  workDir?: string | undefined;
  batchSentences?: number | undefined;
  /** Scoring threads (default: by input size, up to the cores); 1 scores in this thread. */
  workers?: number | undefined;
  /**
   * With more than one scoring thread, plain input files of at least this many bytes in all
   * are cut into ranges that the threads filter apart (threads/ranges-place.ts); default
   * RANGE_MIN_BYTES, Infinity: never.
   */
  rangeMinBytes?: number | undefined;
  /** A ready scorer (tests, eval); otherwise opened from the model. */
  scorer?: SentenceScorer | undefined;
  /** Aborted (SIGINT/SIGTERM/SIGHUP): stop after the current batch, remove temp output, throw Interrupted. */
  signal?: AbortSignal | undefined;
  progress?: ((line: string) => void) | undefined;
  /** One-line notes for stderr (what the completion of a model without --general did). */
  log?: ((line: string) => void) | undefined;
  /** The completion's fit, step by step (every self-training round); its warnings too. */
  detail?: ((line: string) => void) | undefined;
  /** Warnings about the inputs (one looks like tadpole's own output). */
  warn?: ((line: string) => void) | undefined;
  /**
   * Where the kept text goes: an `output` file (written to a temp file, renamed once whole;
   * s3:// uploaded), a `sink`, or a run kept in a directory (`runDir`); none: stdout.
   */
  output?: string | undefined;
  sink?: Sink | undefined;
  runDir?: RunDirSettings | undefined;
}

/** A run kept in a directory (filter --run-dir), so that --resume continues it after a crash. */
export interface RunDirSettings {
  dir: string;
  /** Continue the run the directory holds (refused without it when there is one). */
  resume?: boolean | undefined;
  /** The model file's sha256, recorded in the run's identity; default: the model file's, or its JSON's. */
  modelSha256?: string | undefined;
  /** Output file; undefined: `stdout`, written once the run is complete. */
  output?: string | undefined;
  stdout?: Writable | undefined;
  /** Default DEFAULT_CHECKPOINT_SECONDS. */
  checkpointSeconds?: number | undefined;
  /** The command line, recorded in the ledger. */
  args?: string[] | undefined;
  /** Test seam: the point at which the process kills itself (core/interrupt.ts crashPoint). */
  crashAt?: string | undefined;
}

/** What `--weights` writes with: the paper's λ = 1 / (1 + e^{-C(α - z)}). */
export interface Weights {
  C: number;
  alpha: number;
}

/**
 * A filter run's options once normalised (commands/filter-options.ts): inputs resolved,
 * every default applied, the combinations checked, frozen. Passed down by reference: no
 * layer below re-shapes it or applies a default again.
 */
export interface RunOptions {
  readonly inputs: readonly InputKind[];
  readonly reader: ReaderOptions;
  readonly model: ModelFile;
  readonly embedder: Partial<EmbedderSpec>;
  readonly keep: number;
  readonly keepBy: KeepBy;
  readonly segment: number;
  readonly docContext: number;
  readonly tokenizer: string | undefined;
  readonly threshold: number | undefined;
  readonly weights: Weights | undefined;
  readonly outFormat: OutFormat;
  readonly stdin: Readable | undefined;
  readonly workDir: string | undefined;
  readonly batchSentences: number;
  readonly workers: number;
  readonly rangeMinBytes: number;
  readonly scorer: SentenceScorer | undefined;
  readonly signal: AbortSignal | undefined;
  readonly progress: ((line: string) => void) | undefined;
  readonly log: ((line: string) => void) | undefined;
  readonly detail: ((line: string) => void) | undefined;
  /** Where kept text goes; undefined with a run directory, which writes its own. */
  readonly sink: Sink | undefined;
  readonly runDir: RunDir | undefined;
}

/** RunDirSettings normalised: the run directory of a RunOptions. */
export interface RunDir {
  readonly dir: string;
  readonly resume: boolean;
  readonly modelSha256: string;
  readonly output: string | undefined;
  readonly stdout: Writable | undefined;
  readonly checkpointSeconds: number;
  readonly args: readonly string[];
  readonly crashAt: string | undefined;
}

/** What the completion did, for --stats and stderr. */
export interface CompletionInfo extends CompletionSample {
  seconds: number;
  /** Taken from the run directory (--resume, another shard) rather than sampled again. */
  reused: boolean;
}
