/**
 * One-class SVM (Schölkopf et al. 2000) with an RBF kernel, approximated: rows are mapped
 * with random Fourier features z(x) = sqrt(2/D)·cos(Wx + b), W ~ N(0, 2γ), b ~ U(0, 2π)
 * (Rahimi & Recht 2007), then a linear one-class SVM is solved in that space. The solver is
 * Frank–Wolfe with exact line search on the dual, min ½||Σ α_i z_i||² over
 * {0 <= α_i <= 1/(νn), Σ α_i = 1}: deterministic, no step size to tune, and its duality gap
 * says when to stop. ρ is the ν-quantile of w·z over the task rows; score = ρ - w·z(x).
 * W and b are regenerated from the seed on load, so the model stores only w, ρ and γ.
 */
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { f32ToB64 } from '../core/b64.js';
import type { Detector, DetectorJSON } from './detector.js';
import { checkKnown, intOption, numOption, type DetectorOptions } from './options.js';
import { StateReader, checkFitInput, checkScoreInput } from './pack.js';

export const OCSVM_FORMAT = 1;

export interface OcsvmParams {
  nu: number;
  /** 0 = scikit-learn's 'scale': 1 / (dims · variance of X). */
  gamma: number;
  features: number;
  iterations: number;
  seed: number;
}

class FourierMap {
  readonly W: Float32Array;
  readonly b: Float32Array;
  constructor(
    readonly dims: number,
    readonly D: number,
    gamma: number,
    seed: number,
  ) {
    const rng = new Rng(seed);
    const sd = Math.sqrt(2 * gamma);
    this.W = new Float32Array(D * dims);
    for (let i = 0; i < this.W.length; i++) this.W[i] = rng.normal() * sd;
    this.b = new Float32Array(D);
    for (let j = 0; j < D; j++) this.b[j] = rng.next() * 2 * Math.PI;
  }
  /** z(x) of row `row` of X into out[at .. at+D). */
  map(X: Float32Array, row: number, out: Float32Array | Float64Array, at: number): void {
    const { W, b, dims, D } = this;
    const base = row * dims;
    const scale = Math.sqrt(2 / D);
    for (let j = 0; j < D; j++) {
      const w = j * dims;
      let s = b[j] as number;
      for (let d = 0; d < dims; d++) s += (W[w + d] as number) * (X[base + d] as number);
      out[at + j] = scale * Math.cos(s);
    }
  }
}

export class OneClassSvm implements Detector {
  readonly name = 'ocsvm';
  readonly params: OcsvmParams;
  private gammaUsed = 0;
  private rho = 0;
  private w: Float32Array = new Float32Array(0);
  private fmap: FourierMap | undefined;

  constructor(opts: DetectorOptions) {
    checkKnown('ocsvm', opts, ['nu', 'gamma', 'features', 'iterations']);
    this.params = {
      nu: numOption('ocsvm', opts, 'nu', 0.1, 1e-6, 1),
      gamma: numOption('ocsvm', opts, 'gamma', 0, 0, Number.MAX_VALUE),
      features: intOption('ocsvm', opts, 'features', 512, 1),
      iterations: intOption('ocsvm', opts, 'iterations', 300, 1),
      seed: opts.seed,
    };
  }

  fit(X: Float32Array, n: number, dims: number): void {
    checkFitInput('ocsvm', X, n, dims);
    const gamma = this.params.gamma > 0 ? this.params.gamma : scaleGamma(X, n, dims);
    const D = this.params.features;
    const fmap = new FourierMap(dims, D, gamma, this.params.seed);
    const Z = new Float32Array(n * D);
    for (let i = 0; i < n; i++) fmap.map(X, i, Z, i * D);
    const w = solveDual(Z, n, D, this.params.nu, this.params.iterations);
    const margins = new Float64Array(n);
    for (let i = 0; i < n; i++) margins[i] = dot(Z, i * D, w, D);
    const sorted = Float64Array.from(margins).sort();
    this.rho = sorted[Math.min(n - 1, Math.floor(this.params.nu * n))] as number;
    this.gammaUsed = gamma;
    this.w = Float32Array.from(w);
    this.fmap = fmap;
  }

  score(X: Float32Array, n: number): Float32Array {
    const fmap = this.fmap;
    if (!fmap) throw new TadpoleError('TADPOLE_RUN', 'detector ocsvm: score() called before fit()');
    checkScoreInput('ocsvm', fmap.dims, X, n);
    const z = new Float64Array(fmap.D);
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      fmap.map(X, i, z, 0);
      out[i] = this.rho - dot(z, 0, this.w, fmap.D);
    }
    return out;
  }

  toJSON(): DetectorJSON {
    const fmap = this.fmap;
    if (!fmap) throw new TadpoleError('TADPOLE_RUN', 'detector ocsvm: toJSON() called before fit()');
    return {
      name: this.name,
      params: { ...this.params },
      state: { format: OCSVM_FORMAT, dims: fmap.dims, gamma: this.gammaUsed, rho: this.rho, w: f32ToB64(this.w) },
    };
  }

  static fromJSON(json: DetectorJSON): OneClassSvm {
    const p = new StateReader('ocsvm', json.params);
    const s = new StateReader('ocsvm', json.state);
    if (s.num('format') !== OCSVM_FORMAT) throw new TadpoleError('TADPOLE_MODEL', `detector ocsvm: unsupported state format ${String(json.state.format)}; refit the model`);
    const det = new OneClassSvm({ seed: p.num('seed'), nu: p.num('nu'), gamma: p.num('gamma'), features: p.num('features'), iterations: p.num('iterations') });
    det.gammaUsed = s.num('gamma');
    det.rho = s.num('rho');
    det.w = s.f32('w', det.params.features);
    det.fmap = new FourierMap(s.num('dims'), det.params.features, det.gammaUsed, det.params.seed);
    return det;
  }
}

function dot(a: Float32Array | Float64Array, at: number, b: Float32Array | Float64Array, D: number): number {
  let s = 0;
  for (let j = 0; j < D; j++) s += (a[at + j] as number) * (b[j] as number);
  return s;
}

/** scikit-learn's gamma='scale': 1 / (dims · Var(X)), over all entries. */
function scaleGamma(X: Float32Array, n: number, dims: number): number {
  const m = n * dims;
  let sum = 0;
  for (let i = 0; i < m; i++) sum += X[i] as number;
  const mean = sum / m;
  let v = 0;
  for (let i = 0; i < m; i++) v += ((X[i] as number) - mean) ** 2;
  const variance = v / m;
  return variance > 0 ? 1 / (dims * variance) : 1;
}

/** Relative duality gap at which Frank–Wolfe stops. */
const GAP_TOL = 1e-6;

/**
 * Frank–Wolfe on the capped simplex. The linear oracle puts mass 1/(νn) on the ⌊νn⌋ rows
 * with the smallest w·z_i (and the remainder on the next one); the step is the exact
 * minimiser of the quadratic along the segment. Ties in the ordering break by row index.
 */
function solveDual(Z: Float32Array, n: number, D: number, nu: number, iterations: number): Float64Array {
  const cap = 1 / (nu * n);
  const w = new Float64Array(D);
  for (let i = 0; i < n; i++) for (let j = 0; j < D; j++) w[j] = (w[j] as number) + (Z[i * D + j] as number) / n;
  const g = new Float64Array(n);
  const order = new Int32Array(n);
  const ws = new Float64Array(D);
  for (let it = 0; it < iterations; it++) {
    for (let i = 0; i < n; i++) {
      g[i] = dot(Z, i * D, w, D);
      order[i] = i;
    }
    order.sort((a, b) => (g[a] as number) - (g[b] as number) || a - b);
    ws.fill(0);
    let mass = 1;
    for (let r = 0; r < n && mass > 1e-15; r++) {
      const i = order[r] as number;
      const a = Math.min(cap, mass);
      mass -= a;
      for (let j = 0; j < D; j++) ws[j] = (ws[j] as number) + a * (Z[i * D + j] as number);
    }
    let gap = 0;
    let dist2 = 0;
    let w2 = 0;
    for (let j = 0; j < D; j++) {
      const dj = (w[j] as number) - (ws[j] as number);
      gap += (w[j] as number) * dj;
      dist2 += dj * dj;
      w2 += (w[j] as number) * (w[j] as number);
    }
    if (gap <= GAP_TOL * w2 || dist2 === 0) break;
    const step = Math.min(1, gap / dist2);
    for (let j = 0; j < D; j++) w[j] = (w[j] as number) + step * ((ws[j] as number) - (w[j] as number));
  }
  return w;
}
