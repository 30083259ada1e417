/**
 * The default's fit hashes the same sentences many times: its held-out measure and five
 * self-training fits each fit the classifier twice and DSIR once, score the sample, and
 * calibrate, and every one of those hashed every task and sample sentence again (two thirds
 * of the fit's hashing, a third of its time, on a 20,000-sentence sample). A FeatureCache
 * keeps each sentence's unreduced hashes (RAW_BUCKETS) the first time they are computed;
 * reduced by `% buckets` they are the ids a hasher with `buckets` gives (features.ts), so
 * every fit and score is the same as without it.
 *
 * Keyed by the sentence's text: the fit's sentence lists are rearranged (held out, moved to
 * the task side), never rewritten. It lives as long as the fit: about 30 MB for the default's
 * 20,000 sample sentences (peak RSS of a task-only `filter`, 249 MB against 219 MB).
 */
import { bucketByInverse, bucketMask } from '../text/ngrams.js';
import { featureHasher, featureKey, RAW_BUCKETS, type FeatureSet, type SentenceHasher } from './features.js';

/** One feature set's rows: the unreduced hashes of each sentence seen. */
export class FeatureView {
  private readonly rows = new Map<string, Uint32Array>();
  constructor(private readonly hasher: SentenceHasher) {}
  /** The unreduced hashes of `s`, in the order the hasher gives them. */
  raw(s: string): Uint32Array {
    let row = this.rows.get(s);
    if (row === undefined) {
      // Hash first: a long sentence can grow the hasher's ids into a new array.
      const n = this.hasher.hash(s);
      row = this.hasher.ids.slice(0, n);
      this.rows.set(s, row);
    }
    return row;
  }
}

export class FeatureCache {
  private readonly views = new Map<string, FeatureView>();
  /** The view of the features `key` names (featureKey); `rawHasher` hashes them unreduced. */
  view(key: string, rawHasher: () => SentenceHasher): FeatureView {
    let v = this.views.get(key);
    if (v === undefined) {
      v = new FeatureView(rawHasher());
      this.views.set(key, v);
    }
    return v;
  }
  /** The view of `features` with subwords of `charN` characters. */
  of(features: FeatureSet, charN: number): FeatureView {
    return this.view(featureKey(features, charN), () => featureHasher(RAW_BUCKETS, features, charN));
  }
}

/** out[j] = raw[j] mod buckets for every j: the ids a hasher with `buckets` gives. */
function reduceInto(raw: Uint32Array, buckets: number, out: Uint32Array): void {
  const mask = bucketMask(buckets);
  if (mask >= 0) {
    for (let j = 0; j < raw.length; j++) out[j] = (raw[j] as number) & mask;
    return;
  }
  const inverse = 1 / buckets;
  for (let j = 0; j < raw.length; j++) out[j] = bucketByInverse(raw[j] as number, buckets, inverse);
}

/**
 * A hasher of `features` into `buckets` that takes each sentence's hashes from `cache` when
 * given (hashing it once there), else hashes it: what classifier and DSIR fit with.
 */
export function fitHasher(buckets: number, features: FeatureSet, charN: number, cache?: FeatureCache): SentenceHasher {
  if (!cache) return featureHasher(buckets, features, charN);
  const view = cache.of(features, charN);
  const hasher: SentenceHasher = {
    ids: new Uint32Array(256),
    hash(s: string): number {
      const raw = view.raw(s);
      if (raw.length > hasher.ids.length) hasher.ids = new Uint32Array(Math.max(raw.length, hasher.ids.length * 2));
      if (buckets === RAW_BUCKETS) hasher.ids.set(raw);
      else reduceInto(raw, buckets, hasher.ids);
      return raw.length;
    },
  };
  return hasher;
}
