/**
 * Sentence vectors from token vectors. Batches are right-padded, so sentence b's real
 * tokens are rows 0..len_b-1 of its [seq, hidden] slice: the attention-mask-weighted mean
 * (sentence-transformers' mean pooling) is the plain mean of those rows.
 */
export type Pooling = 'mean' | 'cls';

/** hidden: [batch, seq, dims]; writes row b of the result to out[rows[b] * dims]. */
export function poolTokens(hidden: Float32Array, seq: number, dims: number, lengths: ArrayLike<number>, rows: ArrayLike<number>, pooling: Pooling, out: Float32Array): void {
  const batch = lengths.length;
  for (let b = 0; b < batch; b++) {
    const dst = (rows[b] as number) * dims;
    const base = b * seq * dims;
    if (pooling === 'cls') {
      for (let k = 0; k < dims; k++) out[dst + k] = hidden[base + k] as number;
      continue;
    }
    const len = lengths[b] as number;
    for (let k = 0; k < dims; k++) out[dst + k] = 0;
    for (let j = 0; j < len; j++) {
      const src = base + j * dims;
      for (let k = 0; k < dims; k++) out[dst + k] = (out[dst + k] as number) + (hidden[src + k] as number);
    }
    const inv = len > 0 ? 1 / len : 0;
    for (let k = 0; k < dims; k++) out[dst + k] = (out[dst + k] as number) * inv;
  }
}

/** pooled: [batch, dims], already sentence vectors (a model with a pooling head). */
export function copyRows(pooled: Float32Array, dims: number, rows: ArrayLike<number>, out: Float32Array): void {
  for (let b = 0; b < rows.length; b++) out.set(pooled.subarray(b * dims, (b + 1) * dims), (rows[b] as number) * dims);
}

/** L2-normalise the given rows in place; an all-zero row stays zero. */
export function l2NormalizeRows(out: Float32Array, dims: number, rows: ArrayLike<number>): void {
  for (let b = 0; b < rows.length; b++) {
    const o = (rows[b] as number) * dims;
    let s = 0;
    for (let k = 0; k < dims; k++) {
      const v = out[o + k] as number;
      s += v * v;
    }
    if (s === 0) continue;
    const inv = 1 / Math.sqrt(s);
    for (let k = 0; k < dims; k++) out[o + k] = (out[o + k] as number) * inv;
  }
}
