/**
 * Sparse hashed tf-idf rows over word 1-2-grams: the bag-of-words side of the fitted LSA
 * representation. Buckets are 2^20 so collisions are rare; only buckets seen at fit time
 * get a column, so the stored state is bounded by the fit text, not by the table size.
 */
import { hashedNgrams, tokenize } from '../text/ngrams.js';

export const HASH_BUCKETS = 1 << 20;

/** CSR matrix: row r has columns idx[ptr[r]..ptr[r+1]) with values val[...]. */
export interface Csr {
  rows: number;
  ptr: Int32Array;
  idx: Int32Array;
  val: Float64Array;
}

/** Bucket -> term frequency for one sentence. */
export function termCounts(sentence: string, maxOrder = 2): Map<number, number> {
  const m = new Map<number, number>();
  for (const b of hashedNgrams(tokenize(sentence), HASH_BUCKETS, maxOrder)) m.set(b, (m.get(b) ?? 0) + 1);
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
