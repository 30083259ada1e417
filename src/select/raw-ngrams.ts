import type { SentenceHasher } from './features.js';
import type { SentenceScorer } from './selector.js';

/**
 * A scorer whose score of a sentence depends only on its hashed features. An ensemble of
 * such scorers over the same features (the default: classifier + DSIR) hashes each sentence
 * once and hands the unreduced hashes to every part; hashing was most of their scoring time,
 * and each part hashed every sentence again.
 */
export interface RawNgramScorer extends SentenceScorer {
  /** featureKey(features, charN): parts with equal keys hash a sentence alike. */
  readonly featureKey: string;
  /** A hasher of these features whose ids are unreduced u32 hashes (RAW_BUCKETS). */
  rawHasher(): SentenceHasher;
  /** The score `score([s])` gives, from raw[0..n), the unreduced hashes of s. */
  scoreRaw(raw: Uint32Array, n: number): number;
}

export function isRawNgramScorer(s: SentenceScorer): s is RawNgramScorer {
  return typeof (s as Partial<RawNgramScorer>).scoreRaw === 'function';
}
