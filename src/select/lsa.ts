/**
 * LSA: hashed 1-2-gram tf-idf -> truncated SVD (randomized range finder, Halko et al. 2011),
 * fitted on task + general sample and stored in the selector JSON. It gives a detector the
 * few dominant directions that near-isotropic hashed features lack.
 */
import { b64ToF32, b64ToI32, declaredCount, f32ToB64, i32ToB64 } from '../core/b64.js';
import { Rng } from '../core/rng.js';
import { TadpoleError } from '../core/errors.js';
import { normalizeRows, orthonormalizeColumns, symmetricEigen } from './linalg.js';
import { HASH_BUCKETS, termCounts, tfidfRows, type Csr } from './sparse.js';
import { NgramHasher } from '../text/fast-ngrams.js';

export interface LsaOptions {
  dims?: number;
  /** Keep at most this many columns (highest document frequency first). */
  maxFeatures?: number;
  /** Drop n-grams seen in fewer fit sentences (singletons carry no shared direction). */
  minDf?: number;
  seed?: number;
}

export interface LsaJSON {
  kind: 'lsa';
  dims: number;
  buckets: string; // Int32 bucket id per column
  idf: string; // Float32 per column
  components: string; // Float32 columns x dims
}

export class Lsa {
  private readonly column: Map<number, number>;
  private readonly idf64: Float64Array;
  constructor(
    readonly dims: number,
    private readonly bucketIds: Int32Array,
    private readonly idf: Float32Array,
    private readonly components: Float32Array,
  ) {
    this.column = new Map();
    bucketIds.forEach((b, c) => this.column.set(b >>> 0, c));
    this.idf64 = Float64Array.from(idf);
  }

  /** Bucket -> column (-1: no column), built on first use: a typed-array lookup, not a Map. */
  private columnOf?: Int32Array;
  private hasher?: NgramHasher;
  private scratch = new Uint32Array(1024);

  /**
   * Rows of L2-normalised LSA coordinates (n x dims): the projection of each sentence's
   * sublinear tf-idf row, straight from the char-code hasher (the tf-idf row's own L2
   * norm is skipped: the output row is normalised anyway, so it cannot change the result).
   * This is the scorer's inner loop for distance and the LSA-based detectors.
   */
  transform(sentences: string[]): Float32Array {
    const d = this.dims;
    const comps = this.components;
    const idf = this.idf64;
    if (!this.columnOf) {
      this.columnOf = new Int32Array(HASH_BUCKETS).fill(-1);
      for (const [b, c] of this.column) this.columnOf[b] = c;
      this.hasher = new NgramHasher(HASH_BUCKETS);
    }
    const columnOf = this.columnOf;
    const hasher = this.hasher as NgramHasher;
    const out = new Float32Array(sentences.length * d);
    for (let r = 0; r < sentences.length; r++) {
      const n = hasher.hash(sentences[r] as string);
      if (n > this.scratch.length) this.scratch = new Uint32Array(n * 2);
      const ids = this.scratch.subarray(0, n);
      ids.set(hasher.ids.subarray(0, n));
      ids.sort();
      const base = r * d;
      for (let i = 0; i < n; ) {
        const b = ids[i] as number;
        let j = i + 1;
        while (j < n && ids[j] === b) j++;
        const c = columnOf[b] as number;
        if (c >= 0) {
          const v = (1 + Math.log(j - i)) * (idf[c] as number);
          const off = c * d;
          for (let k = 0; k < d; k++) out[base + k] = (out[base + k] as number) + v * (comps[off + k] as number);
        }
        i = j;
      }
    }
    return normalizeRows(out, sentences.length, d);
  }

  toJSON(): LsaJSON {
    return { kind: 'lsa', dims: this.dims, buckets: i32ToB64(this.bucketIds), idf: f32ToB64(this.idf), components: f32ToB64(this.components) };
  }

  static fromJSON(j: LsaJSON): Lsa {
    if (j?.kind !== 'lsa') throw new TadpoleError('TADPOLE_MODEL', 'selector state has no LSA representation; refit the model');
    const dims = declaredCount(j.dims, 'LSA "dims"');
    const buckets = b64ToI32(j.buckets, 'LSA "buckets"');
    if (buckets.some((b) => b < 0 || b >= HASH_BUCKETS)) throw new TadpoleError('TADPOLE_MODEL', `model file is damaged: LSA "buckets": a bucket outside 0..${HASH_BUCKETS - 1}; refit the model or restore the file`);
    // Sizes checked against the columns before anything of size dims is allocated.
    return new Lsa(dims, buckets, b64ToF32(j.idf, 'LSA "idf"', buckets.length), b64ToF32(j.components, 'LSA "components"', buckets.length * dims));
  }

  static fit(sentences: string[], opts: LsaOptions = {}): Lsa {
    const dims = opts.dims ?? 64;
    const minDf = opts.minDf ?? 2;
    const maxFeatures = opts.maxFeatures ?? 20000;
    const df = new Map<number, number>();
    for (const s of sentences) for (const b of termCounts(s).keys()) df.set(b, (df.get(b) ?? 0) + 1);
    const kept = [...df.entries()].filter(([, n]) => n >= minDf).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, maxFeatures);
    if (kept.length === 0) throw new TadpoleError('TADPOLE_INPUT', 'LSA: no word n-gram occurs in two fit sentences; give more task text');
    const column = new Map<number, number>();
    const bucketIds = new Int32Array(kept.length);
    const idf = new Float64Array(kept.length);
    const N = sentences.length;
    kept.forEach(([b, n], c) => {
      column.set(b, c);
      bucketIds[c] = b | 0;
      idf[c] = Math.log((1 + N) / (1 + n)) + 1;
    });
    const A = tfidfRows(sentences, column, idf);
    const k = Math.min(dims, kept.length, N);
    const V = randomizedRightSingular(A, kept.length, k, opts.seed ?? 0);
    const comps = new Float32Array(kept.length * dims);
    for (let c = 0; c < kept.length; c++) for (let j = 0; j < k; j++) comps[c * dims + j] = V[c * k + j] as number;
    return new Lsa(dims, bucketIds, Float32Array.from(idf), comps);
  }
}

/** Top-k right singular vectors (D x k, row-major) of the m x D sparse matrix A. */
function randomizedRightSingular(A: Csr, D: number, k: number, seed: number): Float64Array {
  const m = A.rows;
  const l = Math.min(k + 10, m, D);
  const rng = new Rng(seed);
  const omega = new Float64Array(D * l);
  for (let i = 0; i < omega.length; i++) omega[i] = rng.normal();
  let Q = mulA(A, omega, l, m);
  orthonormalizeColumns(Q, m, l);
  // Power iterations sharpen the spectrum on text's slowly decaying singular values.
  for (let it = 0; it < 4; it++) {
    const Z = mulAt(A, Q, l, D);
    orthonormalizeColumns(Z, D, l);
    Q = mulA(A, Z, l, m);
    orthonormalizeColumns(Q, m, l);
  }
  const Z = mulAt(A, Q, l, D); // = B^T, B = Q^T A
  const G = new Float64Array(l * l);
  for (let c = 0; c < D; c++) for (let i = 0; i < l; i++) {
    const zi = Z[c * l + i] as number;
    if (zi === 0) continue;
    for (let j = 0; j < l; j++) G[i * l + j] = (G[i * l + j] as number) + zi * (Z[c * l + j] as number);
  }
  const { values, vectors } = symmetricEigen(G, l);
  const V = new Float64Array(D * k);
  for (let j = 0; j < k; j++) {
    const sigma = Math.sqrt(Math.max(values[j] as number, 1e-30));
    for (let c = 0; c < D; c++) {
      let s = 0;
      for (let i = 0; i < l; i++) s += (Z[c * l + i] as number) * (vectors[i * l + j] as number);
      V[c * k + j] = s / sigma;
    }
  }
  // Sign convention: largest-magnitude loading positive, so a fit is reproducible bit for bit.
  for (let j = 0; j < k; j++) {
    let best = 0;
    for (let c = 0; c < D; c++) if (Math.abs(V[c * k + j] as number) > Math.abs(best)) best = V[c * k + j] as number;
    if (best < 0) for (let c = 0; c < D; c++) V[c * k + j] = -(V[c * k + j] as number);
  }
  return V;
}

function mulA(A: Csr, M: Float64Array, l: number, m: number): Float64Array {
  const Y = new Float64Array(m * l);
  for (let r = 0; r < m; r++) {
    for (let j = A.ptr[r] as number; j < (A.ptr[r + 1] as number); j++) {
      const c = A.idx[j] as number;
      const v = A.val[j] as number;
      for (let t = 0; t < l; t++) Y[r * l + t] = (Y[r * l + t] as number) + v * (M[c * l + t] as number);
    }
  }
  return Y;
}

function mulAt(A: Csr, Q: Float64Array, l: number, D: number): Float64Array {
  const Z = new Float64Array(D * l);
  for (let r = 0; r < A.rows; r++) {
    for (let j = A.ptr[r] as number; j < (A.ptr[r + 1] as number); j++) {
      const c = A.idx[j] as number;
      const v = A.val[j] as number;
      for (let t = 0; t < l; t++) Z[c * l + t] = (Z[c * l + t] as number) + v * (Q[r * l + t] as number);
    }
  }
  return Z;
}
