/**
 * Sparse hashed tf-idf rows over word 1-2-grams: the bag-of-words side of the fitted LSA
 * representation. Buckets are 2^20 so collisions are rare; only buckets seen at fit time
 * get a column, so the stored state is bounded by the fit text, not by the table size.
 */
import { NgramHasher } from '../text/fast-ngrams.js';

export const HASH_BUCKETS = 1 << 20;

/** CSR matrix: row r has columns idx[ptr[r]..ptr[r+1]) with values val[...]. */
export interface Csr {
  rows: number;
  ptr: Int32Array;
  idx: Int32Array;
  val: Float64Array;
}

/** The tokenizer Lsa.transform scores with, so fit and scoring see the same buckets. */
const hasher = new NgramHasher(HASH_BUCKETS);

/** Bucket -> term frequency (word 1-2-grams) for one sentence. */
export function termCounts(sentence: string): Map<number, number> {
  const m = new Map<number, number>();
  const n = hasher.hash(sentence);
  const ids = hasher.ids;
  for (let j = 0; j < n; j++) m.set(ids[j] as number, (m.get(ids[j] as number) ?? 0) + 1);
  return m;
}

/**
 * Rows of sublinear tf (1 + ln tf) times idf, L2-normalised (what sklearn's
 * TfidfVectorizer(sublinear_tf=True) gives). `column` maps bucket -> column; buckets
 * without a column are dropped.
 */
export function tfidfRows(sentences: string[], column: Map<number, number>, idf: Float64Array): Csr {
  const ptr = new Int32Array(sentences.length + 1);
  const idx: number[] = [];
  const val: number[] = [];
  sentences.forEach((s, r) => {
    const start = idx.length;
    let norm = 0;
    for (const [b, tf] of termCounts(s)) {
      const c = column.get(b);
      if (c === undefined) continue;
      const v = (1 + Math.log(tf)) * (idf[c] as number);
      idx.push(c);
      val.push(v);
      norm += v * v;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = start; j < val.length; j++) val[j] = (val[j] as number) * inv;
    ptr[r + 1] = idx.length;
  });
  return { rows: sentences.length, ptr, idx: Int32Array.from(idx), val: Float64Array.from(val) };
}
