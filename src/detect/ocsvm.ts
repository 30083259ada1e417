/**
 * One-class SVM (Schölkopf et al. 2000) with an RBF kernel k(x,y) = exp(-γ||x-y||²),
 * approximated: rows are mapped with a Nyström feature map on m landmark task rows
 * (Williams & Seeger 2001), then a linear one-class SVM is solved in that space by
 * Frank–Wolfe with exact line search on the dual, min ½||Σ α_i z_i||² over
 * {0 <= α_i <= 1/(νn), Σ α_i = 1}: deterministic, no step size to tune, and its duality
 * gap says when to stop. ρ is the ν-quantile of w·z over the task rows; score = ρ - w·z(x),
 * evaluated as ρ - Σ_j β_j k(l_j, x) over the landmarks.
 * Random Fourier features were tried first: on 256-dim hash embeddings of ChemProt vs
 * news+fiction they reached AUROC 0.58 (D=512) and 0.66 (D=2048) where the exact kernel
 * (scikit-learn OneClassSVM) gives 0.74, because the kernel values differ by less than
 * the RFF noise; Nyström keeps the landmarks' geometry exactly.
 */
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { f32ToB64, f64ToB64 } from '../core/b64.js';
import type { Detector, DetectorJSON } from './detector.js';
import { checkKnown, intOption, numOption, type DetectorOptions } from './options.js';
import { StateReader, checkFitInput, checkScoreInput } from './pack.js';
import { symmetricEigen } from './linalg.js';

export const OCSVM_FORMAT = 1;

export interface OcsvmParams {
  nu: number;
  /** 0 = scikit-learn's 'scale': 1 / (dims · variance of X). */
  gamma: number;
  /** Nyström landmark rows (feature-space dimension). */
  landmarks: number;
  iterations: number;
  seed: number;
}

/**
 * Nyström feature map: z(x) = Λ^-1/2 U^T k(L, x) for m landmark rows L with K(L,L) = U Λ U^T,
 * so z(x)·z(y) approximates k(x, y). Stored as the landmarks and the m x m projection.
 */
class NystromMap {
  constructor(
    readonly dims: number,
    readonly gamma: number,
    /** m x dims */
    readonly landmarks: Float32Array,
    /** m x m, row r = u_r / sqrt(λ_r) (rows with tiny λ are zero). */
    readonly proj: Float64Array,
  ) {}

  get m(): number {
    return this.landmarks.length / this.dims;
  }

  static fit(X: Float32Array, n: number, dims: number, m: number, gamma: number, rng: Rng): NystromMap {
    const rows = rng.sample(n, Math.min(m, n));
    const mm = rows.length;
    const landmarks = new Float32Array(mm * dims);
    rows.forEach((r, i) => landmarks.set(X.subarray(r * dims, r * dims + dims), i * dims));
    const K = new Float64Array(mm * mm);
    const probe = new NystromMap(dims, gamma, landmarks, new Float64Array(0));
    const k = new Float64Array(mm);
    for (let i = 0; i < mm; i++) {
      probe.kernelRow(landmarks, i, k);
      K.set(k, i * mm);
    }
    const { values, vectors } = symmetricEigen(K, mm);
    const proj = new Float64Array(mm * mm);
    const floor = 1e-8 * Math.max(values[0] as number, 1e-300);
    for (let r = 0; r < mm; r++) {
      const v = values[r] as number;
      if (v <= floor) continue;
      const s = 1 / Math.sqrt(v);
      for (let c = 0; c < mm; c++) proj[r * mm + c] = (vectors[r * mm + c] as number) * s;
    }
    return new NystromMap(dims, gamma, landmarks, proj);
  }

  /** k(landmark_j, x) for every landmark j, x = row `row` of X. */
  kernelRow(X: Float32Array, row: number, out: Float64Array): void {
    const { landmarks, dims, gamma } = this;
    const base = row * dims;
    const m = this.m;
    for (let j = 0; j < m; j++) {
      const l = j * dims;
      let d2 = 0;
      for (let d = 0; d < dims; d++) {
        const t = (X[base + d] as number) - (landmarks[l + d] as number);
        d2 += t * t;
      }
      out[j] = Math.exp(-gamma * d2);
    }
  }

  /** z(x) into out[at .. at+m). */
  map(X: Float32Array, row: number, k: Float64Array, out: Float64Array, at: number): void {
    this.kernelRow(X, row, k);
    const m = this.m;
    const P = this.proj;
    for (let r = 0; r < m; r++) out[at + r] = dot(P, r * m, k, m);
  }
}

export class OneClassSvm implements Detector {
  readonly name = 'ocsvm';
  readonly params: OcsvmParams;
  private dims = 0;
  private gammaUsed = 0;
  private rho = 0;
  private landmarks: Float32Array = new Float32Array(0);
  /** Score weights on the landmark kernels: w·z(x) = beta·k(L, x). */
  private beta: Float64Array = new Float64Array(0);

  constructor(opts: DetectorOptions) {
    checkKnown('ocsvm', opts, ['nu', 'gamma', 'landmarks', 'iterations']);
    this.params = {
      nu: numOption('ocsvm', opts, 'nu', 0.1, 1e-6, 1),
      gamma: numOption('ocsvm', opts, 'gamma', 0, 0, Number.MAX_VALUE),
      landmarks: intOption('ocsvm', opts, 'landmarks', 256, 1),
      iterations: intOption('ocsvm', opts, 'iterations', 300, 1),
      seed: opts.seed,
    };
  }

  fit(X: Float32Array, n: number, dims: number): void {
    checkFitInput('ocsvm', X, n, dims);
    const gamma = this.params.gamma > 0 ? this.params.gamma : scaleGamma(X, n, dims);
    const map = NystromMap.fit(X, n, dims, this.params.landmarks, gamma, new Rng(this.params.seed));
    const m = map.m;
    const Z = new Float64Array(n * m);
    const k = new Float64Array(m);
    for (let i = 0; i < n; i++) map.map(X, i, k, Z, i * m);
    const w = solveDual(Z, n, m, this.params.nu, this.params.iterations);
    const margins = new Float64Array(n);
    for (let i = 0; i < n; i++) margins[i] = dot(Z, i * m, w, m);
    margins.sort();
    this.rho = margins[Math.min(n - 1, Math.floor(this.params.nu * n))] as number;
    const beta = new Float64Array(m);
    for (let r = 0; r < m; r++) for (let c = 0; c < m; c++) beta[c] = (beta[c] as number) + (map.proj[r * m + c] as number) * (w[r] as number);
    this.dims = dims;
    this.gammaUsed = gamma;
    this.landmarks = map.landmarks;
    this.beta = beta;
  }

  score(X: Float32Array, n: number): Float32Array {
    checkScoreInput('ocsvm', this.dims, X, n);
    const map = new NystromMap(this.dims, this.gammaUsed, this.landmarks, new Float64Array(0));
    const k = new Float64Array(map.m);
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      map.kernelRow(X, i, k);
      out[i] = this.rho - dot(k, 0, this.beta, map.m);
    }
    return out;
  }

  toJSON(): DetectorJSON {
    if (this.dims === 0) throw new TadpoleError('TADPOLE_RUN', 'detector ocsvm: toJSON() called before fit()');
    return {
      name: this.name,
      params: { ...this.params },
      state: { format: OCSVM_FORMAT, dims: this.dims, gamma: this.gammaUsed, rho: this.rho, m: this.beta.length, landmarks: f32ToB64(this.landmarks), beta: f64ToB64(this.beta) },
    };
  }

  static fromJSON(json: DetectorJSON): OneClassSvm {
    const p = new StateReader('ocsvm', json.params);
    const s = new StateReader('ocsvm', json.state);
    if (s.num('format') !== OCSVM_FORMAT) throw new TadpoleError('TADPOLE_MODEL', `detector ocsvm: unsupported state format ${String(json.state.format)}; refit the model`);
    const det = new OneClassSvm({ seed: p.num('seed'), nu: p.num('nu'), gamma: p.num('gamma'), landmarks: p.num('landmarks'), iterations: p.num('iterations') });
    det.dims = s.count('dims');
    det.gammaUsed = s.num('gamma');
    det.rho = s.num('rho');
    const m = s.count('m');
    det.landmarks = s.f32('landmarks', m * det.dims);
    det.beta = s.f64('beta', m);
    return det;
  }
}

function dot(a: Float64Array, at: number, b: Float64Array, D: number): number {
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
function solveDual(Z: Float64Array, n: number, D: number, nu: number, iterations: number): Float64Array {
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
