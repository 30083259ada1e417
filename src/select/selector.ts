import type { Embedder } from '../embed/embedder.js';
import type { ChooseAside } from './choice.js';
import type { FeatureCache } from './feature-cache.js';
import type { OptionDecl } from '../core/option-decl.js';

/** Serialized, fitted selector state; stored in the model file under `selector`. */
export interface SelectorJSON {
  method: string;
  params: Record<string, unknown>;
  state: Record<string, unknown>;
}

/** A loaded selector: per-sentence scores, LOWER = KEEP (more task-like). */
export interface SentenceScorer {
  readonly method: string;
  score(sentences: string[]): Promise<Float64Array>;
  /**
   * The scores `score` gives the sentences texts[d].slice(spans[d][2i], spans[d][2i + 1]), in
   * order, read in place: a scorer that offers it is handed spans, and the pipeline slices no
   * sentence strings for it (`random`: slicing and collecting them cost more than its hash).
   */
  scoreSpans?(texts: readonly string[], spans: readonly (readonly number[])[]): Promise<Float64Array>;
  /**
   * Methods that select against the whole corpus (the paper's kNN-TAPT: the k nearest corpus
   * sentences of each task sentence) see every sentence once, in input order, before
   * `score` is called on the same sentences in the same order. Such methods need one
   * process over the whole corpus (no shards, no --threshold streaming).
   */
  prepare?: ((corpus: AsyncIterable<string[]>) => Promise<void>) | undefined;
  /**
   * An ensemble's parts scored apart (each part's own scale; lower = more task-like), for
   * self-training that moves only what every view ranks high (self-training.ts, moveBy).
   */
  scoreViews?(sentences: string[]): Promise<Float64Array[]>;
  dispose(): Promise<void>;
}

export interface FitContext {
  /** Task sentences (already split). */
  task: string[];
  /** A general-domain sample (already split); may be empty when the user gave none. */
  general: string[];
  /**
   * Which segment of the corpus each general sentence came from (`generalGroups[i]` for
   * `general[i]`; a segment's sentences are consecutive), when the sample was drawn in
   * segments (io/sample.ts). Self-training judges the sample by segments when present.
   */
  generalGroups?: Uint32Array;
  /**
   * Sentences the user does not want kept (`fit --avoid`): the default (auto) weighs them on
   * the general side of every fit, never among the sample segments self-training moves.
   */
  avoid?: string[];
  /** Present when the method embeds (tadpole, distance, knn-tapt, textgram may). */
  embedder?: Embedder;
  seed: number;
  /** Method-specific options from the CLI / API (e.g. k, order, detector). */
  options: Record<string, unknown>;
  /** Progress / notes go here, never to stdout. */
  log?: (line: string) => void;
  /**
   * Hashed features kept across the fits of one model (feature-cache.ts): the default's
   * fits share it, and the n-gram selectors (classifier, dsir) take each sentence's hashes
   * from it.
   */
  features?: FeatureCache;
  /** The default's held-out measure, run elsewhere (auto.ts): given when another thread is free. */
  chooseAside?: ChooseAside;
}

export interface LoadContext {
  embedder?: Embedder;
  seed: number;
  options: Record<string, unknown>;
}

export interface SelectorFactory {
  readonly method: string;
  /** One line for --help. */
  readonly summary: string;
  /** Two or three lines for the user: what the method does (fit's last line, model show, fit --method X --help). */
  readonly explain: string;
  /** Every `--option KEY=VALUE` the fit reads (core/option-decl.ts). */
  readonly options: readonly OptionDecl[];
  readonly needsEmbedder: boolean;
  /** Does fitting need a general sample? (moore-lewis, dsir, distance do.) */
  readonly needsGeneral: boolean;
  fit(ctx: FitContext): Promise<SelectorJSON>;
  load(json: SelectorJSON, ctx: LoadContext): Promise<SentenceScorer>;
}
