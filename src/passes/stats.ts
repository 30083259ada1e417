import { defined } from '../core/defined.js';
import type { Cut, KeepBy } from '../cut/exact.js';
import { taskShareEntry, type TaskShare } from '../cut/share-estimate.js';
import { heldOutEntry, type HeldOut } from '../model/describe.js';
import type { ModelFile } from '../model/file.js';
import type { Driven } from './drive.js';
import { emptyTally } from './keep-tally.js';
import type { CompletionInfo, RunOptions } from './run-options.js';

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
  /** The input was cut into this many byte ranges, filtered apart by the scoring threads (threads/ranges-place.ts); absent when it was read in one stream. */
  ranges?: number;
  /** Scoring threads, the main thread included: --workers, or what its default chose for this input; absent when this call scored nothing (a resumed run past its scoring). */
  threads?: number;
}

/** What a run knows besides its options and its drive, for its stats. */
export interface RunFacts {
  /** The model that scored: completed from the corpus, or as given. */
  model: ModelFile;
  completion: CompletionInfo | undefined;
  seconds: { open: number; total: number };
  closedEarly: boolean;
  threads: number | undefined;
  ranges: number | undefined;
}

/** The sentence-score moments and reader counts a cut merged over a run directory's shards. */
interface MergedCut {
  moments: { n: number; mean: number; m2: number };
  reader: Record<string, number>;
}

const mergedOf = (cut: Cut | undefined): MergedCut | undefined => (cut && 'moments' in cut && 'reader' in cut ? (cut as Cut & MergedCut) : undefined);

/** A filter run's stats (docs/reference/stats-json.md), whatever its mode and place: built here alone. */
export function statsOf(o: RunOptions, driven: Driven<Cut>, facts: RunFacts): FilterStats {
  const mode = o.threshold !== undefined ? 'threshold' : o.weights ? 'weights' : 'cut';
  const cut = mode === 'cut' ? driven.cut : undefined;
  const merged = mergedOf(cut);
  const scored = merged ? { moments: { mean: merged.moments.mean, std: merged.moments.n > 0 ? Math.sqrt(merged.moments.m2 / merged.moments.n) : 0 }, reader: merged.reader } : driven.scored;
  const tally = driven.tally ?? emptyTally();
  return {
    method: o.model.method,
    keep: o.keep,
    keepBy: o.keepBy,
    segmentSize: o.segment,
    docContext: o.docContext,
    mode,
    threshold: cut ? cut.threshold : (o.threshold ?? null),
    tieId: cut ? cut.tieId : null,
    documents: tally.documents,
    sentences: tally.sentences,
    segments: tally.segments,
    bytes: tally.bytes,
    ...defined({ tokens: cut?.tokens }),
    sentenceScores: scored?.moments ?? { mean: 0, std: 0 },
    reader: scored?.reader ?? {},
    seconds: { open: facts.seconds.open, ...driven.seconds, total: facts.seconds.total },
    closedEarly: facts.closedEarly,
    ...defined({ completion: facts.completion }),
    ...heldOutEntry(facts.model),
    ...taskShareEntry(facts.model),
    ...defined({ ranges: facts.ranges, threads: facts.threads }),
  };
}
