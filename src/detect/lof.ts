/**
 * Local outlier factor (Breunig et al. 2000) in novelty mode, as scikit-learn's
 * LocalOutlierFactor(novelty=True): at fit, every task row's k-distance and local
 * reachability density (lrd) from its k nearest other task rows; a new row's score is the
 * mean lrd of its k nearest task rows divided by its own lrd (higher = more anomalous).
 */
import { TadpoleError } from '../core/errors.js';
import { f32ToB64 } from '../core/b64.js';
import type { Detector, DetectorJSON } from './detector.js';
import { checkKnown, intOption, type DetectorOptions } from './options.js';
import { StateReader, checkFitInput, checkScoreInput } from './pack.js';
import { NeighborIndex, indexParams, type IndexParams } from './neighbors.js';

export const LOF_FORMAT = 1;
/** scikit-learn adds the same constant so duplicates do not divide by zero. */
const LRD_EPS = 1e-10;

export class LofDetector implements Detector {
  readonly name = 'lof';
  readonly params: IndexParams & { k: number; seed: number };
  private index: NeighborIndex | undefined;
  private kDistance: Float32Array = new Float32Array(0);
  private lrd: Float32Array = new Float32Array(0);

  constructor(opts: DetectorOptions) {
    checkKnown('lof', opts, ['k', 'metric', 'M', 'efConstruction', 'efSearch']);
    this.params = { k: intOption('lof', opts, 'k', 20, 1), ...indexParams('lof', opts), seed: opts.seed };
  }

  fit(X: Float32Array, n: number, dims: number): void {
    checkFitInput('lof', X, n, dims, 2);
    const index = NeighborIndex.build(X, n, dims, this.params, this.params.seed);
    const k = Math.min(this.params.k, n - 1);
    // Each row's neighbours without itself: ask for k+1, drop the row's own id (or, when
    // duplicates crowd it out, the farthest).
    const nbrIds = new Int32Array(n * k);
    const nbrDist = new Float32Array(n * k);
    index.forEach(X, n, k + 1, (row, ids, dists, offset, kk) => {
      let skip = kk - 1;
      for (let j = 0; j < kk; j++) if (ids[offset + j] === row) skip = j;
      for (let j = 0, w = 0; j < kk && w < k; j++) {
        if (j === skip) continue;
        nbrIds[row * k + w] = ids[offset + j] as number;
        nbrDist[row * k + w] = dists[offset + j] as number;
        w++;
      }
    });
    const kDistance = new Float32Array(n);
    for (let i = 0; i < n; i++) kDistance[i] = nbrDist[i * k + k - 1] as number;
    const lrd = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      let reach = 0;
      for (let j = 0; j < k; j++) reach += Math.max(kDistance[nbrIds[i * k + j] as number] as number, nbrDist[i * k + j] as number);
      lrd[i] = 1 / (reach / k + LRD_EPS);
    }
    this.index = index;
    this.kDistance = kDistance;
    this.lrd = lrd;
  }

  score(X: Float32Array, n: number): Float32Array {
    const index = this.index;
    if (!index) throw new TadpoleError('TADPOLE_RUN', 'detector lof: score() called before fit()');
    checkScoreInput('lof', index.index.dims, X, n);
    const { kDistance, lrd } = this;
    const out = new Float32Array(n);
    index.forEach(X, n, this.params.k, (row, ids, dists, offset, k) => {
      let reach = 0;
      let lrdSum = 0;
      for (let j = 0; j < k; j++) {
        const o = ids[offset + j] as number;
        reach += Math.max(kDistance[o] as number, dists[offset + j] as number);
        lrdSum += lrd[o] as number;
      }
      const own = 1 / (reach / k + LRD_EPS);
      out[row] = lrdSum / k / own;
    });
    return out;
  }

  toJSON(): DetectorJSON {
    if (!this.index) throw new TadpoleError('TADPOLE_RUN', 'detector lof: toJSON() called before fit()');
    return {
      name: this.name,
      params: { ...this.params },
      state: { format: LOF_FORMAT, ...this.index.state(), kDistance: f32ToB64(this.kDistance), lrd: f32ToB64(this.lrd) },
    };
  }

  static fromJSON(json: DetectorJSON): LofDetector {
    const p = json.params;
    const s = new StateReader('lof', json.state);
    if (s.num('format') !== LOF_FORMAT) throw new TadpoleError('TADPOLE_MODEL', `detector lof: unsupported state format ${String(json.state.format)}; refit the model`);
    const det = new LofDetector({ seed: new StateReader('lof', p).num('seed'), k: p.k, metric: p.metric, M: p.M, efConstruction: p.efConstruction, efSearch: p.efSearch });
    const size = s.count('size');
    det.index = NeighborIndex.fromState(s, det.params);
    det.kDistance = s.f32('kDistance', size);
    det.lrd = s.f32('lrd', size);
    return det;
  }
}
