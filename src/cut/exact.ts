import { TadpoleError } from '../core/errors.js';
import { bucketKey, type ScoreSketch } from './sketch.js';
import { SpillReader } from './spill.js';

/** tokens: counted in pass 1 by the tokenizer a run names (cut/tokens.ts). */
export type KeepBy = 'sentences' | 'bytes' | 'tokens';

/**
 * What --keep counts when nothing names it: bytes keep the asked share of the text (within
 * 0.1% on average over the 56 suite mixes), where sentences miss it by 19.7% on average,
 * at the same in-domain share (docs/benchmarks/selection-suites.md).
 */
export const DEFAULT_KEEP_BY: KeepBy = 'bytes';

/** The unit runs counted in before bytes became the default: a run that recorded none. */
export const LEGACY_KEEP_BY: KeepBy = 'sentences';

/**
 * What a cut keeps of `total`: a share when `keep` is at most 1, else `keep` itself, an amount
 * of the unit (bytes, sentences or tokens: `--keep 5MB` is 5e6 bytes), all when the corpus
 * holds less.
 */
export function keepTarget(keep: number, total: number): number {
  return keep <= 1 ? keep * total : Math.min(keep, total);
}

/** Kept iff score < threshold, or score === threshold and id <= tieId. */
export interface Cut {
  keep: number;
  keepBy: KeepBy;
  threshold: number;
  tieId: number;
  totalWeight: number;
  targetWeight: number;
  keptWeight: number;
  keptSegments: number;
  totalSegments: number;
  /** A run that counted tokens: its tokens, and those of the kept segments. */
  tokens?: { total: number; kept: number };
}

export function isKept(cut: Pick<Cut, 'threshold' | 'tieId'>, score: number, id: number): boolean {
  return score < cut.threshold || (score === cut.threshold && id <= cut.tieId);
}

/** The spills of one run, in global segment-id order (one per shard). */
export type SpillList = string[];

/** Candidates held in memory at most (16 bytes each => 64 MB). */
export const MAX_CANDIDATES = 4_000_000;

/** Each unit's place in a sketch bucket ([segments, sentences, bytes, tokens]). */
const WEIGHT_AT: Record<KeepBy, 1 | 2 | 3> = { sentences: 1, bytes: 2, tokens: 3 };

/**
 * The exact cut: the lowest-scoring segments whose weight is nearest to the target (a share
 * of the total, or an amount: keepTarget), ties broken by segment id. The sketch locates the
 * one bucket holding the boundary; one sequential scan of the spill(s) collects that bucket's
 * records, which are sorted. A run that counted tokens also gets the kept tokens, whatever
 * the unit.
 */
export function exactCut(sketch: ScoreSketch, spills: SpillList, keep: number, keepBy: KeepBy, maxCandidates = MAX_CANDIDATES): Cut {
  const w = WEIGHT_AT[keepBy];
  const totals = sketch.totals();
  if (keepBy === 'tokens' && !sketch.tokens && totals.segments > 0) {
    throw new TadpoleError('TADPOLE_USAGE', '--keep-by tokens: this run counted no tokens; score it with --tokenizer FILE (a Hugging Face tokenizer.json)');
  }
  const totalWeight = [totals.segments, totals.sentences, totals.bytes, totals.tokens][w]!;
  const target = keepTarget(keep, totalWeight);
  const base: Omit<Cut, 'threshold' | 'tieId' | 'keptWeight' | 'keptSegments'> = { keep, keepBy, totalWeight, targetWeight: target, totalSegments: totals.segments };
  const tokens = (kept: number) => (sketch.tokens ? { tokens: { total: totals.tokens, kept } } : {});
  if (totals.segments === 0 || target <= 0) return { ...base, threshold: -Infinity, tieId: -1, keptWeight: 0, keptSegments: 0, ...tokens(0) };
  const all = { ...base, threshold: Infinity, tieId: Number.MAX_SAFE_INTEGER, keptWeight: totalWeight, keptSegments: totals.segments, ...tokens(totals.tokens) };
  if (target >= totalWeight) return all;

  let cum = 0;
  let kb = Infinity;
  for (const k of sketch.sortedKeys()) {
    const b = sketch.buckets.get(k)!;
    if (cum + b[w] >= target) {
      kb = k;
      break;
    }
    cum += b[w];
  }
  if (kb === Infinity) return all;
  const inBucket = sketch.buckets.get(kb)![0];

  let below = 0;
  let belowSegments = 0;
  let belowTokens = 0;
  const scores = new Float64Array(Math.min(inBucket, maxCandidates));
  const ids = new Float64Array(scores.length);
  const weights = new Float64Array(scores.length);
  const tokenCounts = new Float64Array(sketch.tokens ? scores.length : 0);
  let n = 0;
  let id = 0;
  for (const path of spills) {
    const r = new SpillReader(path);
    try {
      for (let rec = r.next(); rec; rec = r.next(), id++) {
        const k = bucketKey(rec.score);
        const wt = w === 1 ? rec.sentences : w === 2 ? rec.bytes : rec.tokens;
        if (k < kb) {
          below += wt;
          belowSegments++;
          belowTokens += rec.tokens;
        } else if (k === kb) {
          if (n < scores.length) {
            scores[n] = rec.score;
            ids[n] = id;
            weights[n] = wt;
            if (tokenCounts.length > 0) tokenCounts[n] = rec.tokens;
          }
          n++;
        }
      }
    } finally {
      r.close();
    }
  }
  if (n !== inBucket) {
    throw new TadpoleError('TADPOLE_RUN', `spill and sketch disagree (${n} vs ${inBucket} segments in the cut bucket): the run directory is damaged; rerun the scoring`);
  }
  if (n > scores.length) {
    throw new TadpoleError('TADPOLE_RUN', `${n} segments share the cut's score bucket, more than ${maxCandidates} held in memory`);
  }
  const order = Array.from({ length: Math.min(n, scores.length) }, (_, i) => i);
  order.sort((a, b) => (scores[a] as number) - (scores[b] as number) || (ids[a] as number) - (ids[b] as number));
  let kept = below;
  let keptSegments = belowSegments;
  let keptTokens = belowTokens;
  let threshold = scores[order[0] as number] as number;
  let tieId = -1;
  for (const i of order) {
    const wt = weights[i] as number;
    // Nearest rounding: the kept weight ends within half a segment of the target.
    if (kept + wt / 2 > target) break;
    kept += wt;
    keptSegments++;
    keptTokens += tokenCounts[i] ?? 0;
    threshold = scores[i] as number;
    tieId = ids[i] as number;
  }
  return { ...base, threshold, tieId, keptWeight: kept, keptSegments, ...tokens(keptTokens) };
}

/** In-memory form for evaluation and tests: 1 = kept. Same rule as exactCut. */
export function selectKeptInMemory(scores: Float64Array, weights: Float64Array, keep: number): Uint8Array {
  const n = scores.length;
  const out = new Uint8Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i] as number;
  const target = keep * total;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (scores[a] as number) - (scores[b] as number) || a - b);
  let kept = 0;
  for (const i of order) {
    const wt = weights[i] as number;
    if (kept + wt / 2 > target) break;
    kept += wt;
    out[i] = 1;
  }
  return out;
}
