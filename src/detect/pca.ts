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
    const xc = new Float64Array(dims);
    for (let i = 0; i < n; i++) {
      const base = i * dims;
      let norm2 = 0;
      for (let d = 0; d < dims; d++) {
        const v = (X[base + d] as number) - (mean[d] as number);
        xc[d] = v;
        norm2 += v * v;
      }
      for (let c = 0; c < k; c++) {
        const row = c * dims;
        let p = 0;
        for (let d = 0; d < dims; d++) p += (xc[d] as number) * (components[row + d] as number);
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
    det.dims = s.num('dims');
    det.k = s.num('k');
    det.mean = s.f32('mean', det.dims);
    det.components = s.f32('components', det.k * det.dims);
    return det;
  }
}
