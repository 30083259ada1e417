/**
 * kNN distance (Gu, Akoglu & Rinaldo 2019): a row's score is its distance to the k-th
 * nearest task embedding, found with an hnswlib index saved inside the model JSON.
 */
import { TadpoleError } from '../core/errors.js';
import type { Detector, DetectorJSON } from './detector.js';
import { checkKnown, intOption, type DetectorOptions } from './options.js';
import { StateReader, checkFitInput, checkScoreInput } from './pack.js';
import { NeighborIndex, indexParams, type IndexParams } from './neighbors.js';

export const KNN_FORMAT = 1;

export class KnnDetector implements Detector {
  readonly name = 'knn';
  readonly params: IndexParams & { k: number; seed: number };
  private index: NeighborIndex | undefined;

  constructor(opts: DetectorOptions) {
    checkKnown('knn', opts, ['k', 'metric', 'M', 'efConstruction', 'efSearch']);
    this.params = { k: intOption('knn', opts, 'k', 10, 1), ...indexParams('knn', opts), seed: opts.seed };
  }

  fit(X: Float32Array, n: number, dims: number): void {
    checkFitInput('knn', X, n, dims);
    this.index = NeighborIndex.build(X, n, dims, this.params, this.params.seed);
  }

  score(X: Float32Array, n: number): Float32Array {
    const index = this.index;
    if (!index) throw new TadpoleError('TADPOLE_RUN', 'detector knn: score() called before fit()');
    checkScoreInput('knn', index.index.dims, X, n);
    const out = new Float32Array(n);
    index.forEach(X, n, this.params.k, (row, _ids, dists, offset, k) => {
      out[row] = dists[offset + k - 1] as number;
    });
    return out;
  }

  toJSON(): DetectorJSON {
    if (!this.index) throw new TadpoleError('TADPOLE_RUN', 'detector knn: toJSON() called before fit()');
    return { name: this.name, params: { ...this.params }, state: { format: KNN_FORMAT, ...this.index.state() } };
  }

  static fromJSON(json: DetectorJSON): KnnDetector {
    const p = json.params;
    const s = new StateReader('knn', json.state);
    if (s.num('format') !== KNN_FORMAT) throw new TadpoleError('TADPOLE_MODEL', `detector knn: unsupported state format ${String(json.state.format)}; refit the model`);
    const det = new KnnDetector({ seed: new StateReader('knn', p).num('seed'), k: p.k, metric: p.metric, M: p.M, efConstruction: p.efConstruction, efSearch: p.efSearch });
    det.index = NeighborIndex.fromState(s, det.params);
    return det;
  }
}
