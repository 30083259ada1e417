/**
 * What the n-gram selectors (classifier, dsir) hash a sentence into. `words`: word unigrams +
 * bigrams (NgramHasher, DSIR's paper features). `chars`: the same plus character n-grams of
 * each word (CharNgramHasher, fastText's subwords); `chars-folded`: with every digit read as
 * "0"; `chars-folded-content`: the same with English function words left out
 * (function-words.ts), for a task written as headlines or titles; `style`: function words,
 * word shapes and punctuation (style-ngrams.ts), the genre without the topic (auto's
 * style=on). Both selectors use one
 * subword length, so an ensemble of the two hashes alike.
 */
import { CharNgramHasher } from '../text/char-ngrams.js';
import { FUNCTION_WORD_HASHES } from '../text/function-words.js';
import { NgramHasher } from '../text/fast-ngrams.js';
import { StyleHasher } from '../text/style-ngrams.js';

export const FEATURE_SETS = ['words', 'chars', 'chars-folded', 'chars-folded-content', 'style'] as const;
export type FeatureSet = (typeof FEATURE_SETS)[number];

/**
 * Characters per subword. 5 beat 3 and 4 on the selection suite's minimum for the
 * classifier, and for DSIR inside the default ensemble (docs/research.md,
 * "Subword features").
 */
export const SUBWORD_CHARS = 5;
/** The longest character n-gram a fit takes (charN): longer ones are whole words, which the word features already hold. */
export const MAX_CHAR_N = 16;

export interface SentenceHasher {
  /** Bucket ids of the last `hash` call. */
  ids: Uint32Array;
  /** Hash one sentence into `ids`; returns how many ids. */
  hash(s: string): number;
  /**
   * `hash` of the sentence whose code units are units[from..to), read in place in a copy of
   * its document (code-units.ts): what scoring a batch uses, without slicing a string per
   * sentence. The word and subword hashers have it.
   */
  hashUnits?(units: Uint16Array, from: number, to: number): number;
}

/**
 * Buckets of a hasher whose ids are the unreduced u32 hashes: every hasher reduces a u32 by
 * `% buckets`, and u32 % 2^32 is the u32 itself, so `raw % buckets` is the id a hasher with
 * `buckets` gives. Scorers with different bucket counts share one such hashing.
 */
export const RAW_BUCKETS = 2 ** 32;

/** Names what a sentence is hashed into: scorers with the same key can share one hashing. */
export function featureKey(features: FeatureSet, charN: number): string {
  return features === 'words' || features === 'style' ? features : `${features}:${charN}`;
}

export function featureHasher(buckets: number, features: FeatureSet = 'words', charN = SUBWORD_CHARS): SentenceHasher {
  if (features === 'words') return new NgramHasher(buckets);
  if (features === 'style') return new StyleHasher(buckets);
  const content = features === 'chars-folded-content';
  return new CharNgramHasher(buckets, { foldDigits: features !== 'chars', n: charN, ...(content ? { skip: FUNCTION_WORD_HASHES } : {}) });
}
