/** Nearest-task-sentence similarity through the one hnswlib wrapper (src/detect/hnsw.ts). */
import { buildIndex, loadIndex, type VectorIndex } from '../detect/hnsw.js';
import { b64ToBytes, declaredCount } from '../core/b64.js';

export interface StoredIndex {
  index: string; // base64 of the hnswlib file
  size: number;
  dims: number;
}

export function buildTaskIndex(X: Float32Array, n: number, dims: number, seed: number): VectorIndex {
  return buildIndex(X, n, dims, 'cosine', { seed: seed >>> 0, efConstruction: 200, efSearch: 64 });
}

export function storeIndex(ix: VectorIndex): StoredIndex {
  return { index: ix.serialize().toString('base64'), size: ix.size, dims: ix.dims };
}

export function restoreIndex(s: StoredIndex): VectorIndex {
  return loadIndex(b64ToBytes(s?.index, 'vector index "index"'), declaredCount(s.dims, 'vector index "dims"'), 'cosine', declaredCount(s.size, 'vector index "size"'));
}

/** Mean cosine similarity of each query row to its k nearest indexed rows. */
export function meanTopKSimilarity(ix: VectorIndex, Q: Float32Array, n: number, k: number): Float64Array {
  const out = new Float64Array(n);
  if (n === 0) return out;
  const r = ix.search(Q, n, k);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < r.k; j++) s += 1 - (r.dists[i * r.k + j] as number);
    out[i] = s / r.k;
  }
  return out;
}
