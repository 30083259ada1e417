import { CodeUnitCopy } from '../text/code-units.js';
import { bucketByInverse, bucketMask } from '../text/ngrams.js';
import type { FeatureCache } from './feature-cache.js';
import { featureHasher, featureKey, RAW_BUCKETS, type FeatureSet, type SentenceHasher } from './features.js';
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

/**
 * The sum of table[raw[j] mod table.length] over j < n, in order: what every part's scoreRaw
 * adds up. A power-of-two table takes a mask, any other a multiply by the inverse (bucketOf's
 * remainder, without its division).
 */
export function sumBuckets(table: Float32Array, raw: Uint32Array, n: number): number {
  const buckets = table.length;
  const mask = bucketMask(buckets);
  let s = 0;
  if (mask >= 0) {
    for (let j = 0; j < n; j++) s += table[(raw[j] as number) & mask] as number;
  } else {
    const inverse = 1 / buckets;
    for (let j = 0; j < n; j++) s += table[bucketByInverse(raw[j] as number, buckets, inverse)] as number;
  }
  return s;
}

export function isRawNgramScorer(s: SentenceScorer): s is RawNgramScorer {
  return typeof (s as Partial<RawNgramScorer>).scoreRaw === 'function';
}

/**
 * `scorer.score(sentences)`; a scorer that scores from hashed features alone takes each
 * sentence's hashes from `cache` (hashing it there once), the same scores without the hashing.
 */
export async function scoreFrom(scorer: SentenceScorer, sentences: string[], cache?: FeatureCache): Promise<Float64Array> {
  if (!cache || !isRawNgramScorer(scorer)) return scorer.score(sentences);
  const view = cache.view(scorer.featureKey, () => scorer.rawHasher());
  const out = new Float64Array(sentences.length);
  for (let i = 0; i < sentences.length; i++) {
    const raw = view.raw(sentences[i] as string);
    out[i] = scorer.scoreRaw(raw, raw.length);
  }
  return out;
}

/** Scratch for the documents of `scoreInPlace`: one thread scores one batch at a time. */
const documentUnits = new CodeUnitCopy();

/**
 * scorer.scoreRaw of each sentence spans[d][2j..2j+1] of texts[d], in order: each document's code
 * units are copied once and every sentence hashed from the copy (hashUnits), so no sentence is
 * sliced into a string; a hasher without hashUnits hashes slices. The same ids, so the same
 * scores, as hashing the sliced sentences.
 */
export function scoreInPlace(hasher: SentenceHasher, scorer: Pick<RawNgramScorer, 'scoreRaw'>, texts: readonly string[], spans: readonly (readonly number[])[]): Float64Array {
  let total = 0;
  for (const s of spans) total += s.length / 2;
  const out = new Float64Array(total);
  let k = 0;
  for (let d = 0; d < texts.length; d++) {
    const text = texts[d] as string;
    const s = spans[d] as readonly number[];
    const units = hasher.hashUnits ? documentUnits.of(text) : undefined;
    for (let j = 0; j < s.length; j += 2) {
      // Hash first: a long sentence can grow the hasher's ids into a new array.
      const n = units ? hasher.hashUnits!(units, s[j] as number, s[j + 1] as number) : hasher.hash(text.slice(s[j], s[j + 1]));
      out[k++] = scorer.scoreRaw(hasher.ids, n);
    }
  }
  return out;
}

/** What classifier and DSIR share: one raw hasher of their features, and `score` by way of `scoreRaw`. */
export abstract class HashedFeatureScorer implements RawNgramScorer {
  abstract readonly method: string;
  readonly featureKey: string;
  private readonly raw: SentenceHasher;
  constructor(private readonly features: FeatureSet, private readonly charN: number) {
    this.featureKey = featureKey(features, charN);
    this.raw = this.rawHasher();
  }
  rawHasher(): SentenceHasher {
    return featureHasher(RAW_BUCKETS, this.features, this.charN);
  }
  async score(sentences: string[]): Promise<Float64Array> {
    const out = new Float64Array(sentences.length);
    for (let i = 0; i < sentences.length; i++) {
      // Hash first: a long sentence can grow the hasher's ids into a new array.
      const n = this.raw.hash(sentences[i] as string);
      out[i] = this.scoreRaw(this.raw.ids, n);
    }
    return out;
  }
  /** `score` of the sentences read in place (spans of each text), none sliced. */
  async scoreSpans(texts: readonly string[], spans: readonly (readonly number[])[]): Promise<Float64Array> {
    return scoreInPlace(this.raw, this, texts, spans);
  }
  abstract scoreRaw(raw: Uint32Array, n: number): number;
  async dispose(): Promise<void> {}
}
