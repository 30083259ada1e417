/**
 * `tfidf`: the common peer of a corpus filter, a TF-IDF logistic regression, as scikit-learn's
 * TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, norm='l2', min_df=2) +
 * LogisticRegression(penalty='l2', C=1) would fit it: task sentences positive, the general
 * sample negative. Score = minus the logit (lower = more task-like; the same order as
 * -P(task)).
 *
 * Features are word 1-2-grams hashed into 2^20 buckets (sparse.ts, the LSA's tf-idf rows):
 * the project's one tokeniser ([\p{L}\p{N}]+, lower-cased), no per-n-gram strings, and
 * collisions stay rare at that size. A bucket found in fewer than `minDf` training sentences
 * gets no column (sklearn's min_df), so the stored vocabulary is the buckets kept, with their
 * idf and weight: a few hundred KB, not the 2^20 table. Differences from sklearn: one-letter
 * words are tokens here (sklearn's token pattern drops them), and bigrams are hashed.
 *
 * The fit is full-batch L-BFGS on sklearn's objective, 0.5 |w|^2 + C sum log-loss with an
 * unpenalised intercept: convex and deterministic, so the seed changes nothing.
 */
import { b64ToF32, b64ToI32, damaged, declaredCount, f32ToB64, i32ToB64 } from '../core/b64.js';
import { TadpoleError } from '../core/errors.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';
import { NgramHasher } from '../text/fast-ngrams.js';
import { needGeneral, needTask } from './options.js';
import { HASH_BUCKETS, termCounts, tfidfRows, type Csr } from './sparse.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

export const TFIDF_DEFAULTS = {
  /** sklearn's min_df=2: an n-gram must be in two training sentences to get a column. */
  minDf: 2,
  /** Inverse regularisation strength (sklearn's C). */
  C: 1,
  /** L-BFGS iterations at most (sklearn's max_iter). */
  maxIter: 100,
  /** Stop when every gradient entry is below this (sklearn's tol for lbfgs). */
  tol: 1e-4,
} as const;

export const TFIDF_OPTIONS: readonly OptionDecl[] = [
  { name: 'minDf', type: 'int', default: TFIDF_DEFAULTS.minDf, min: 1, help: 'training sentences an n-gram must appear in to get a column (sklearn min_df)' },
  { name: 'C', type: 'number', default: TFIDF_DEFAULTS.C, min: 0, minOpen: true, help: 'inverse L2 regularisation strength (sklearn C)' },
  { name: 'maxIter', type: 'int', default: TFIDF_DEFAULTS.maxIter, min: 1, help: 'L-BFGS iterations at most', experimental: true },
  { name: 'tol', type: 'number', default: TFIDF_DEFAULTS.tol, min: 0, minOpen: true, help: 'stop when every gradient entry is below this', experimental: true },
];

/** Columns: the buckets in at least minDf of the sentences, in bucket order; smooth idf as sklearn's. */
export function tfidfVocabulary(sentences: readonly string[], minDf: number): { buckets: Int32Array; idf: Float64Array } {
  const df = new Map<number, number>();
  for (const s of sentences) for (const b of termCounts(s).keys()) df.set(b, (df.get(b) ?? 0) + 1);
  const kept = [...df].filter(([, n]) => n >= minDf).sort((a, b) => a[0] - b[0]);
  const n = sentences.length;
  return {
    buckets: Int32Array.from(kept, ([b]) => b),
    // sklearn smooth_idf: ln((1 + n) / (1 + df)) + 1.
    idf: Float64Array.from(kept, ([, d]) => Math.log((1 + n) / (1 + d)) + 1),
  };
}

/** ln(1 + e^x) without overflow. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/**
 * L2-regularised logistic regression, sklearn's objective: 0.5 |w|^2 + C sum_i ln(1 +
 * exp(-y_i (w.x_i + b))), b unpenalised, minimised by L-BFGS (10 pairs, backtracking Armijo
 * line search). `labels[i]` is 1 (positive) or 0. Returns the weights and the intercept.
 */
export function fitL2Logistic(X: Csr, cols: number, labels: Uint8Array, opts: { C: number; maxIter: number; tol: number }): { weights: Float64Array; bias: number; iterations: number } {
  const d = cols + 1; // the intercept is the last entry
  const { ptr, idx, val } = X;
  const z = new Float64Array(X.rows);
  const evaluate = (x: Float64Array, grad: Float64Array): number => {
    let f = 0;
    for (let j = 0; j < cols; j++) {
      const w = x[j] as number;
      f += 0.5 * w * w;
      grad[j] = w;
    }
    grad[cols] = 0;
    const b = x[cols] as number;
    for (let r = 0; r < X.rows; r++) {
      let s = b;
      for (let k = ptr[r] as number; k < (ptr[r + 1] as number); k++) s += (x[idx[k] as number] as number) * (val[k] as number);
      z[r] = s;
      const y = labels[r] === 1 ? 1 : -1;
      f += opts.C * softplus(-y * s);
      // d/ds of softplus(-y s) = -y sigmoid(-y s).
      const g = (opts.C * -y) / (1 + Math.exp(y * s));
      for (let k = ptr[r] as number; k < (ptr[r + 1] as number); k++) grad[idx[k] as number] = (grad[idx[k] as number] as number) + g * (val[k] as number);
      grad[cols] = (grad[cols] as number) + g;
    }
    return f;
  };
  const m = 10;
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rho: number[] = [];
  let x = new Float64Array(d);
  let g = new Float64Array(d);
  let f = evaluate(x, g);
  const dir = new Float64Array(d);
  const alpha = new Float64Array(m);
  let xNew = new Float64Array(d);
  let gNew = new Float64Array(d);
  const maxAbs = (v: Float64Array): number => v.reduce((a, b) => Math.max(a, Math.abs(b)), 0);
  let iter = 0;
  for (; iter < opts.maxIter && maxAbs(g) > opts.tol; iter++) {
    // Two-loop recursion: dir = -H g.
    for (let j = 0; j < d; j++) dir[j] = -(g[j] as number);
    for (let i = S.length - 1; i >= 0; i--) {
      let a = 0;
      const s = S[i] as Float64Array;
      for (let j = 0; j < d; j++) a += (s[j] as number) * (dir[j] as number);
      a *= rho[i] as number;
      alpha[i] = a;
      const yv = Y[i] as Float64Array;
      for (let j = 0; j < d; j++) dir[j] = (dir[j] as number) - a * (yv[j] as number);
    }
    if (S.length > 0) {
      const s = S[S.length - 1] as Float64Array;
      const yv = Y[Y.length - 1] as Float64Array;
      let sy = 0;
      let yy = 0;
      for (let j = 0; j < d; j++) {
        sy += (s[j] as number) * (yv[j] as number);
        yy += (yv[j] as number) ** 2;
      }
      const gamma = sy / yy;
      for (let j = 0; j < d; j++) dir[j] = (dir[j] as number) * gamma;
    }
    for (let i = 0; i < S.length; i++) {
      let bb = 0;
      const yv = Y[i] as Float64Array;
      for (let j = 0; j < d; j++) bb += (yv[j] as number) * (dir[j] as number);
      bb *= rho[i] as number;
      const s = S[i] as Float64Array;
      const a = alpha[i] as number;
      for (let j = 0; j < d; j++) dir[j] = (dir[j] as number) + (a - bb) * (s[j] as number);
    }
    let slope = 0;
    for (let j = 0; j < d; j++) slope += (g[j] as number) * (dir[j] as number);
    if (!(slope < 0)) {
      // Not a descent direction (round-off): restart from steepest descent.
      S.length = Y.length = rho.length = 0;
      for (let j = 0; j < d; j++) dir[j] = -(g[j] as number);
      slope = -g.reduce((a, v) => a + v * v, 0);
    }
    let step = S.length === 0 ? Math.min(1, 1 / Math.sqrt(-slope)) : 1;
    let fNew = Infinity;
    for (let tries = 0; tries < 40; tries++) {
      for (let j = 0; j < d; j++) xNew[j] = (x[j] as number) + step * (dir[j] as number);
      fNew = evaluate(xNew, gNew);
      if (fNew <= f + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(fNew < f)) break; // no progress: at the optimum to round-off
    const s = new Float64Array(d);
    const yv = new Float64Array(d);
    let sy = 0;
    for (let j = 0; j < d; j++) {
      s[j] = (xNew[j] as number) - (x[j] as number);
      yv[j] = (gNew[j] as number) - (g[j] as number);
      sy += (s[j] as number) * (yv[j] as number);
    }
    if (sy > 1e-10) {
      if (S.length === m) {
        S.shift();
        Y.shift();
        rho.shift();
      }
      S.push(s);
      Y.push(yv);
      rho.push(1 / sy);
    }
    [x, xNew] = [xNew, x];
    [g, gNew] = [gNew, g];
    f = fNew;
  }
  return { weights: x.subarray(0, cols), bias: x[cols] as number, iterations: iter };
}

class TfidfScorer implements SentenceScorer {
  readonly method = 'tfidf';
  private readonly hasher = new NgramHasher(HASH_BUCKETS);
  /** Bucket -> column, -1 where none. */
  private readonly column = new Int32Array(HASH_BUCKETS).fill(-1);
  private cols = new Int32Array(256);
  constructor(buckets: Int32Array, private readonly idf: Float32Array, private readonly w: Float32Array, private readonly bias: number) {
    buckets.forEach((b, c) => (this.column[b] = c));
  }

  /** Minus the logit: -(b + w . x), x the sentence's sublinear tf-idf row, L2-normalised. */
  scoreOne(s: string): number {
    const n = this.hasher.hash(s);
    if (this.cols.length < n) this.cols = new Int32Array(n * 2);
    let m = 0;
    for (let j = 0; j < n; j++) {
      const c = this.column[this.hasher.ids[j] as number] as number;
      if (c >= 0) this.cols[m++] = c;
    }
    if (m === 0) return -this.bias;
    const cols = this.cols.subarray(0, m).sort();
    let dot = 0;
    let norm = 0;
    for (let j = 0; j < m; ) {
      const c = cols[j] as number;
      let tf = 0;
      while (j < m && cols[j] === c) {
        tf++;
        j++;
      }
      const v = (1 + Math.log(tf)) * (this.idf[c] as number);
      dot += v * (this.w[c] as number);
      norm += v * v;
    }
    return -(this.bias + dot / Math.sqrt(norm));
  }

  async score(sentences: string[]): Promise<Float64Array> {
    return Float64Array.from(sentences, (s) => this.scoreOne(s));
  }

  async dispose(): Promise<void> {}
}

export const tfidfSelector: SelectorFactory = {
  method: 'tfidf',
  summary: 'peer: TF-IDF (word 1-2-grams) logistic regression, task vs general (sklearn recipe)',
  explain: 'tfidf: the common peer, scikit-learn\'s TfidfVectorizer (word 1-2-grams, sublinear tf, l2 norm,\nmin_df 2) and LogisticRegression (L2, C=1), task sentences against the general sample;\na sentence scores by its logit of being task text.',
  options: TFIDF_OPTIONS,
  needsEmbedder: false,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'tfidf');
    needGeneral(ctx.general, 'tfidf');
    const read = optionReader({ label: 'method tfidf', options: TFIDF_OPTIONS }, ctx.options);
    const params = { minDf: read.number('minDf'), C: read.number('C'), maxIter: read.number('maxIter'), tol: read.number('tol') };
    const sentences = [...ctx.task, ...ctx.general];
    const { buckets, idf } = tfidfVocabulary(sentences, params.minDf);
    if (buckets.length === 0) throw new TadpoleError('TADPOLE_INPUT', `tfidf: no word or word pair is in ${params.minDf} or more of the ${sentences.length} training sentences; give more text or a lower --option minDf`);
    const column = new Map<number, number>();
    buckets.forEach((b, c) => column.set(b, c));
    const X = tfidfRows(sentences, column, idf);
    const labels = Uint8Array.from(sentences, (_, i) => (i < ctx.task.length ? 1 : 0));
    const fit = fitL2Logistic(X, buckets.length, labels, params);
    ctx.log?.(`tfidf: ${buckets.length} columns, ${fit.iterations} L-BFGS iterations`);
    return {
      method: 'tfidf',
      params: { ...params, columns: buckets.length },
      state: { buckets: i32ToB64(buckets), idf: f32ToB64(Float32Array.from(idf)), weights: f32ToB64(Float32Array.from(fit.weights)), bias: fit.bias },
    };
  },
  async load(json): Promise<SentenceScorer> {
    const bias = json.state.bias;
    if (typeof bias !== 'number' || !Number.isFinite(bias)) throw damaged('tfidf "bias"', 'is not a number');
    const n = declaredCount(json.params.columns, 'tfidf "columns"');
    const buckets = b64ToI32(json.state.buckets, 'tfidf "buckets"', n);
    if (buckets.some((b) => b < 0 || b >= HASH_BUCKETS)) throw damaged('tfidf "buckets"', `holds a bucket outside [0, ${HASH_BUCKETS})`);
    return new TfidfScorer(buckets, b64ToF32(json.state.idf, 'tfidf "idf"', n), b64ToF32(json.state.weights, 'tfidf "weights"', n), bias);
  },
};
