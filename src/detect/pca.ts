/**
 * PCA reconstruction error (Harrou et al. 2015): fit the top `components` principal axes of
 * the task embeddings (eigen-decomposition of their covariance); a row's score is its
 * squared distance to that affine subspace, ||x-μ||² - Σ_k ((x-μ)·v_k)².
 */
import { TadpoleError } from '../core/errors.js';
import { f32ToB64 } from '../core/b64.js';
import type { Detector, DetectorJSON } from './detector.js';
import { checkKnown, intOption, type DetectorOptions } from './options.js';
import { StateReader, checkFitInput, checkScoreInput } from './pack.js';
import { columnMeans, covariance, symmetricEigen } from './linalg.js';

export const PCA_FORMAT = 1;

export class PcaDetector implements Detector {
  readonly name = 'pca';
  readonly params: { components: number; seed: number };
  private dims = 0;
  private k = 0;
  private mean: Float32Array = new Float32Array(0);
  /** k x dims, row-major. */
  private components: Float32Array = new Float32Array(0);

  constructor(opts: DetectorOptions) {
    checkKnown('pca', opts, ['components']);
    this.params = { components: intOption('pca', opts, 'components', 10, 1), seed: opts.seed };
  }

  fit(X: Float32Array, n: number, dims: number): void {
    checkFitInput('pca', X, n, dims, 2);
    const mean = columnMeans(X, n, dims);
    const { vectors } = symmetricEigen(covariance(X, n, dims, mean, n - 1), dims);
    this.k = Math.min(this.params.components, dims, n - 1);
    this.dims = dims;
    this.mean = Float32Array.from(mean);
    this.components = Float32Array.from(vectors.subarray(0, this.k * dims));
  }

  score(X: Float32Array, n: number): Float32Array {
    checkScoreInput('pca', this.dims, X, n);
    const { dims, k, mean, components } = this;
    const out = new Float32Array(n);
    // Four rows at a time share each component load; every row follows the same arithmetic
    // order as the one-row tail, so a score never depends on its batch-mates.
    const x0 = new Float64Array(dims);
    const x1 = new Float64Array(dims);
    const x2 = new Float64Array(dims);
    const x3 = new Float64Array(dims);
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const b0 = i * dims;
      let n0 = 0;
      let n1 = 0;
      let n2 = 0;
      let n3 = 0;
      for (let d = 0; d < dims; d++) {
        const m = mean[d] as number;
        const v0 = (X[b0 + d] as number) - m;
        const v1 = (X[b0 + dims + d] as number) - m;
        const v2 = (X[b0 + 2 * dims + d] as number) - m;
        const v3 = (X[b0 + 3 * dims + d] as number) - m;
        x0[d] = v0;
        x1[d] = v1;
        x2[d] = v2;
        x3[d] = v3;
        n0 += v0 * v0;
        n1 += v1 * v1;
        n2 += v2 * v2;
        n3 += v3 * v3;
      }
      for (let c = 0; c < k; c++) {
        const row = c * dims;
        let p0 = 0;
        let p1 = 0;
        let p2 = 0;
        let p3 = 0;
        for (let d = 0; d < dims; d++) {
          const w = components[row + d] as number;
          p0 += (x0[d] as number) * w;
          p1 += (x1[d] as number) * w;
          p2 += (x2[d] as number) * w;
          p3 += (x3[d] as number) * w;
        }
        n0 -= p0 * p0;
        n1 -= p1 * p1;
        n2 -= p2 * p2;
        n3 -= p3 * p3;
      }
      out[i] = Math.max(0, n0);
      out[i + 1] = Math.max(0, n1);
      out[i + 2] = Math.max(0, n2);
      out[i + 3] = Math.max(0, n3);
    }
    for (; i < n; i++) {
      const base = i * dims;
      let norm2 = 0;
      for (let d = 0; d < dims; d++) {
        const v = (X[base + d] as number) - (mean[d] as number);
        x0[d] = v;
        norm2 += v * v;
      }
      for (let c = 0; c < k; c++) {
        const row = c * dims;
        let p = 0;
        for (let d = 0; d < dims; d++) p += (x0[d] as number) * (components[row + d] as number);
        norm2 -= p * p;
      }
      out[i] = Math.max(0, norm2);
    }
    return out;
  }

  toJSON(): DetectorJSON {
    if (this.dims === 0) throw new TadpoleError('TADPOLE_RUN', 'detector pca: toJSON() called before fit()');
    return {
      name: this.name,
      params: { ...this.params },
      state: { format: PCA_FORMAT, dims: this.dims, k: this.k, mean: f32ToB64(this.mean), components: f32ToB64(this.components) },
    };
  }

  static fromJSON(json: DetectorJSON): PcaDetector {
    const p = new StateReader('pca', json.params);
    const s = new StateReader('pca', json.state);
    if (s.num('format') !== PCA_FORMAT) throw new TadpoleError('TADPOLE_MODEL', `detector pca: unsupported state format ${String(json.state.format)}; refit the model`);
    const det = new PcaDetector({ seed: p.num('seed'), components: p.num('components') });
    det.dims = s.count('dims');
    det.k = s.num('k');
    det.mean = s.f32('mean', det.dims);
    det.components = s.f32('components', det.k * det.dims);
    return det;
  }
}
