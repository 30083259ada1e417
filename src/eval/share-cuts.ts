/**
 * One fit and one scoring pass cut at several keeps around the in-domain share of the mix's
 * sentences: a user fits once, and the share they guess may be half or twice the truth. Each
 * cut is a sort of the scored segments, cheap next to the scoring, so every spec gets them.
 */

import { DEFAULT_KEEP_BY, type KeepBy } from '../cut/exact.js';

/** The keeps measured, as multiples of the in-domain share of the text (or sentences) scored. */
export const SHARE_FACTORS: readonly number[] = [0.5, 1, 2];

/** A factor as tables name it: "0.5x", "1x", "2x". */
export const factorLabel = (factor: number): string => `${factor}x`;

export interface ShareCut {
  /** Multiple of the in-domain share (of bytes or sentences, as the eval's keepBy). */
  factor: number;
  /** The share kept (of sentences or bytes, as the eval's keepBy): factor x the in-domain share, at most 1. */
  keep: number;
  /** The share of the text (segment bytes) kept. */
  keptText: number;
  /** In-domain share of the kept characters. */
  precisionChars: number;
  /** Kept in-domain characters / all in-domain characters scored. */
  recallChars: number;
}

/** Scored segments: score, sentences (the cut's weight), source label index, UTF-8 bytes. */
export interface ScoredSegments {
  scores: Float64Array;
  weights: Float64Array;
  labels: Uint8Array;
  bytes: Float64Array;
}

/** What the cut weighs each segment by: its sentences, or its bytes. */
export function weightsBy(scored: ScoredSegments, keepBy: KeepBy): Float64Array {
  return keepBy === 'bytes' ? scored.bytes : scored.weights;
}

/** In-domain and all characters of the kept segments, and the in-domain and all characters scored. */
export function keptChars(scored: ScoredSegments, kept: Uint8Array, inIdx: number): { kept: number; keptIn: number; allIn: number; all: number } {
  let keptAll = 0;
  let keptIn = 0;
  let allIn = 0;
  let all = 0;
  for (let i = 0; i < kept.length; i++) {
    const b = scored.bytes[i] as number;
    const inside = scored.labels[i] === inIdx;
    all += b;
    if (inside) allIn += b;
    if (!kept[i]) continue;
    keptAll += b;
    if (inside) keptIn += b;
  }
  return { kept: keptAll, keptIn, allIn, all };
}

/** Share of the kept characters from the in-domain source (0 when nothing is kept). */
export function keptCharShare(scored: ScoredSegments, kept: Uint8Array, inIdx: number): number {
  const c = keptChars(scored, kept, inIdx);
  return c.kept > 0 ? c.keptIn / c.kept : 0;
}

/**
 * Cut the scored segments at every factor x `share` of the bytes (or of the sentences, with
 * keepBy "sentences"; `select` is the eval's exact cut) and measure each cut's precision and
 * recall in characters.
 */
export function cutsAtShare(scored: ScoredSegments, inIdx: number, share: number, select: (scores: Float64Array, weights: Float64Array, keep: number) => Uint8Array, factors: readonly number[] = SHARE_FACTORS, keepBy: KeepBy = DEFAULT_KEEP_BY): ShareCut[] {
  return factors.map((factor) => {
    const keep = Math.min(1, factor * share);
    const c = keptChars(scored, select(scored.scores, weightsBy(scored, keepBy), keep), inIdx);
    return { factor, keep, keptText: c.all > 0 ? c.kept / c.all : 0, precisionChars: c.kept > 0 ? c.keptIn / c.kept : 0, recallChars: c.allIn > 0 ? c.keptIn / c.allIn : 0 };
  });
}
