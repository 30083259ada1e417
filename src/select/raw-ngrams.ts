import type { SentenceScorer } from './selector.js';

/**
 * A scorer whose score of a sentence depends only on the sentence's unreduced unigram and
 * bigram hashes (NgramHasher.hashRaw). An ensemble of such scorers hashes each sentence once
 * and hands the hashes to every part: the default (classifier + DSIR) hashed every sentence
 * twice, and hashing was most of its scoring time.
 */
export interface RawNgramScorer extends SentenceScorer {
  /** The score `score([s])` gives, from `raw[0..n)`, the hashes of s. */
  scoreRaw(raw: Uint32Array, n: number): number;
}

export function isRawNgramScorer(s: SentenceScorer): s is RawNgramScorer {
  return typeof (s as Partial<RawNgramScorer>).scoreRaw === 'function';
}
