/**
 * A second fit on the first cut's boundary, where the share kept is small.
 *
 * When the task's domain is a percent of the corpus, what sinks the cut is not the bulk of the
 * other text but the few kinds of it that read a little like the task (Usenet posts on science
 * for a task of chemistry abstracts, wiki sports records for one of sports news): they sit just
 * past the share kept, and a few of their segments cross it. The self-trained model ranks the
 * sample; the segments just past the share kept (from 1.5x to 5x the keep, by sentences) are
 * mostly that text, and in-domain text is rare among them (0-8% of them on the scarce suite),
 * since the in-domain text is mostly above. They then weigh more on the general side (5% of the
 * sample's weight more, as --avoid text weighs) in a second self-training, which learns what sets
 * the kept side apart from the text that nearly made it.
 *
 * Only at keeps of 2.5% or less (where the sample grows too: model/complete.ts): at 20% the band
 * is 30-100% of the sample, holds the domain's own tail, and lowered the worst mixes (news-brown
 * 51.8 -> 47.3%). Figures: docs/research.md, "Scarce domains". Where the gate stops
 * self-training (keeps of 5% or less, auto.ts), the bands weigh on refits of the pair instead
 * (`gatedRounds`): docs/research.md, "Scarce technical text".
 */
import { avoidSide } from './avoid.js';
import { meanOrder, segmentMeans, unitWeights, type MoveUnit } from './self-training.js';

export const BOUNDARY_DEFAULTS = {
  /** At keeps above this the boundary refit is not made (see above). */
  maxKeep: 0.025,
  /** The band, in multiples of the keep, as a share of the sample's weight in the keep's unit. */
  from: 1.5,
  to: 5,
  /** The band's extra weight on the general side, as a share of the sample's. */
  share: 0.05,
  /**
   * Where the gate stopped self-training (auto.ts), the pair is refitted this many times, each
   * with the band of the last fit's ranking added to the bands before it, each band weighing
   * `gatedShare` of the sample: no text moves to the task side, but what nearly made the keep
   * weighs on the general side (on documentation among other technical text, the text just past
   * the keep is mostly the domain's neighbours: docs/research.md, "Scarce technical text").
   */
  gatedRounds: 2,
  gatedShare: 0.5,
} as const;

export const BOUNDARY_MODES = ['auto', 'off'] as const;
export type BoundaryMode = (typeof BOUNDARY_MODES)[number];

export interface BoundaryRecord {
  /** Sample segments in the band, and their sentences. */
  segments: number;
  sentences: number;
  /** Of those, how many count again (a seeded subsample when they outweigh `share`), and how many times. */
  used: number;
  copies: number;
  from: number;
  to: number;
  share: number;
  /** Gated: the refits made without self-training (each adds a band); absent for the second self-training. */
  refits?: number;
}

/**
 * Whether the boundary refit is made for this keep (the share the user will keep, when known).
 * `gated`: the gate stopped self-training (auto.ts), which it does only at small keeps; the refits
 * are then made at any keep it closed at.
 */
export function boundaryApplies(mode: BoundaryMode, keep: number | undefined, gated = false): keep is number {
  return mode === 'auto' && keep !== undefined && (gated || keep <= BOUNDARY_DEFAULTS.maxKeep);
}

/**
 * The band: the sample's segments ranked from `from` x keep to `to` x keep of its weight in the keep's unit
 * (most task-like first, by the segment mean of `scores`), and the copies of their sentences
 * that join the general side, `share` of the sample's weight, as --avoid text joins it.
 */
export function boundaryBand(general: string[], scores: Float64Array, groups: Uint32Array, keep: number, seed: number, unit: MoveUnit = 'sentences', share: number = BOUNDARY_DEFAULTS.share): { side: string[]; record: BoundaryRecord } {
  const { from, to } = BOUNDARY_DEFAULTS;
  const means = segmentMeans(general, scores, groups);
  const weights = unitWeights(general, unit);
  const total = weights.reduce((a, w) => a + w, 0);
  const lo = from * keep * total;
  const hi = Math.min(1, to * keep) * total;
  const band: string[] = [];
  let segments = 0;
  let seen = 0;
  for (const g of meanOrder(means)) {
    if (seen >= hi) break;
    const m = means.get(g)!;
    if (seen >= lo && Number.isFinite(m.mean)) {
      for (const i of m.sentences) band.push(general[i] as string);
      segments++;
    }
    seen += m.sentences.reduce((a, i) => a + (weights[i] as number), 0);
  }
  const record = { segments, sentences: band.length, from, to, share };
  if (band.length === 0) return { side: [], record: { ...record, used: 0, copies: 0 } };
  const { side, record: weighed } = avoidSide(band, general.length, share, seed);
  return { side, record: { ...record, used: weighed.used, copies: weighed.copies } };
}

export function describeBoundary(r: BoundaryRecord): string {
  if (r.segments === 0) return 'boundary: no sample segments past the share kept, so no second fit';
  const used = r.used < r.sentences ? `a seeded ${r.used} of their sentences` : 'their sentences';
  const fit = r.refits === undefined ? 'a second self-training' : `refit ${r.refits} of the pair, no self-training (the gate)`;
  return `boundary: ${r.segments} sample segments (${r.sentences} sentences) rank from ${r.from}x to ${r.to}x the share kept, just past it; ${used} count ${r.copies} more time${r.copies === 1 ? '' : 's'} on the general side of ${fit} (${(100 * r.share).toFixed(0)}% of the sample's weight)`;
}
