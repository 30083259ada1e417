/**
 * The kNN index the knn and lof detectors share: an hnswlib graph over the task rows
 * (through hnsw.ts), serialized into the model JSON as base64, searched in bounded batches.
 */
import { buildIndex, loadIndex, type Space, type VectorIndex } from './hnsw.js';
import { choiceOption, intOption } from './options.js';
import { StateReader } from './pack.js';

export type Metric = 'l2' | 'cosine';
export const METRICS: readonly Metric[] = ['l2', 'cosine'];

export interface IndexParams {
  metric: Metric;
  M: number;
  efConstruction: number;
  efSearch: number;
}

export function indexParams(detector: string, opts: Record<string, unknown>): IndexParams {
  return {
    metric: choiceOption(detector, opts, 'metric', 'l2', METRICS),
    M: intOption(detector, opts, 'M', 16, 2),
    efConstruction: intOption(detector, opts, 'efConstruction', 200, 1),
    efSearch: intOption(detector, opts, 'efSearch', 100, 1),
  };
}

/** Rows searched per call: bounds the id/distance buffers whatever n the caller passes. */
const SEARCH_BATCH = 1024;

export class NeighborIndex {
  private constructor(
    readonly index: VectorIndex,
    readonly metric: Metric,
  ) {}

  static build(X: Float32Array, n: number, dims: number, p: IndexParams, seed: number): NeighborIndex {
    const space: Space = p.metric;
    return new NeighborIndex(buildIndex(X, n, dims, space, { M: p.M, efConstruction: p.efConstruction, efSearch: p.efSearch, seed: seed >>> 0 }), p.metric);
  }

  static fromState(s: StateReader, p: IndexParams): NeighborIndex {
    const dims = s.count('dims');
    const size = s.count('size');
    const buf = s.bytes('index');
    return new NeighborIndex(loadIndex(buf, dims, p.metric, size, p.efSearch), p.metric);
  }

  state(): Record<string, unknown> {
    return { dims: this.index.dims, size: this.index.size, index: this.index.serialize().toString('base64') };
  }

  get size(): number {
    return this.index.size;
  }

  /** hnswlib's l2 is squared; report euclidean distances, as scikit-learn does. */
  private distance(raw: number): number {
    return this.metric === 'l2' ? Math.sqrt(Math.max(0, raw)) : Math.max(0, raw);
  }

  /**
   * Calls visit(row, ids, dists, offset, k) for every row of Q, in batches of SEARCH_BATCH:
   * ids/dists[offset .. offset+k) are that row's neighbours, nearest first.
   */
  forEach(Q: Float32Array, n: number, k: number, visit: (row: number, ids: Int32Array, dists: Float32Array, offset: number, k: number) => void): void {
    const dims = this.index.dims;
    for (let start = 0; start < n; start += SEARCH_BATCH) {
      const m = Math.min(SEARCH_BATCH, n - start);
      const r = this.index.search(Q.subarray(start * dims, (start + m) * dims), m, k);
      for (let j = 0; j < r.dists.length; j++) r.dists[j] = this.distance(r.dists[j] as number);
      for (let i = 0; i < m; i++) visit(start + i, r.ids, r.dists, i * r.k, r.k);
    }
  }
}
