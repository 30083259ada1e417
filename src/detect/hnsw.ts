/**
 * The one file that loads hnswlib-node. Everything else sees `VectorIndex`.
 * Labels are row numbers 0..n-1 of the matrix added.
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { removeScratch, scratchDir } from '../io/atomic.js';

type Hnswlib = typeof import('hnswlib-node');

let loaded: Hnswlib | undefined;

/**
 * hnswlib-node at first use: it is an optional dependency (it compiles at install), needed
 * only by the kNN index (the knn, lof, task-knn and knn-ratio detectors, knn-tapt, textgram), so that
 * tadpole installs without it and only those say it is missing.
 */
function hnswlib(): Hnswlib {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('hnswlib-node') as Hnswlib;
  } catch (err) {
    throw new TadpoleError(
      'TADPOLE_MODEL',
      `the kNN index needs hnswlib-node, an optional dependency, which could not be loaded (${(err as Error).message.split('\n')[0]}): npm install hnswlib-node (it compiles: python3, make and a C++ compiler), or use a method without a kNN index`,
      { cause: err },
    );
  }
  return loaded;
}

export type Space = 'cosine' | 'l2' | 'ip';

export interface SearchResult {
  /** n * k neighbour labels, row-major. */
  ids: Int32Array;
  /** n * k distances (cosine: 1 - cos; l2: squared euclidean; ip: 1 - dot), ascending per row. */
  dists: Float32Array;
  k: number;
}

export interface VectorIndex {
  readonly dims: number;
  readonly space: Space;
  readonly size: number;
  search(Q: Float32Array, n: number, k: number): SearchResult;
  serialize(): Buffer;
  dispose(): void;
}

export interface BuildOptions {
  M?: number;
  efConstruction?: number;
  efSearch?: number;
  seed?: number;
}

class HnswIndex implements VectorIndex {
  constructor(
    private index: InstanceType<Hnswlib['HierarchicalNSW']>,
    readonly dims: number,
    readonly space: Space,
    readonly size: number,
  ) {}

  search(Q: Float32Array, n: number, k: number): SearchResult {
    const kk = Math.min(k, this.size);
    const ids = new Int32Array(n * kk);
    const dists = new Float32Array(n * kk);
    const q = new Array<number>(this.dims);
    for (let i = 0; i < n; i++) {
      for (let d = 0; d < this.dims; d++) q[d] = Q[i * this.dims + d] as number;
      const r = this.index.searchKnn(q, kk);
      // hnswlib returns nearest first; keep that order explicitly.
      const order = r.distances.map((_, j) => j).sort((a, b) => (r.distances[a] as number) - (r.distances[b] as number) || (r.neighbors[a] as number) - (r.neighbors[b] as number));
      for (let j = 0; j < kk; j++) {
        ids[i * kk + j] = r.neighbors[order[j] as number] as number;
        dists[i * kk + j] = r.distances[order[j] as number] as number;
      }
    }
    return { ids, dists, k: kk };
  }

  serialize(): Buffer {
    return throughFile((f) => {
      this.index.writeIndexSync(f);
      // hnswlib writes through a C++ stream that never reports a full disk: an index cut short
      // is found by reading it back, before a model file holds it and fit says it succeeded.
      try {
        new (hnswlib().HierarchicalNSW)(this.space, this.dims).readIndexSync(f);
      } catch (err) {
        throw new TadpoleError('TADPOLE_IO', `cannot write the kNN index to a scratch file in ${tmpdir()}: it reads back cut short (no space left on the device?); free space, or set TMPDIR to a writable folder`, { file: f, cause: err });
      }
      return readFileSync(f);
    });
  }

  dispose(): void {
    // hnswlib-node frees native memory on GC; drop our reference.
    (this as unknown as { index: unknown }).index = undefined;
  }
}

export function buildIndex(X: Float32Array, n: number, dims: number, space: Space, opts: BuildOptions = {}): VectorIndex {
  const index = new (hnswlib().HierarchicalNSW)(space, dims);
  index.initIndex(Math.max(1, n), opts.M ?? 16, opts.efConstruction ?? 200, opts.seed ?? 100);
  const row = new Array<number>(dims);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < dims; d++) row[d] = X[i * dims + d] as number;
    index.addPoint(row, i);
  }
  index.setEf(opts.efSearch ?? 64);
  return new HnswIndex(index, dims, space, n);
}

export function loadIndex(buf: Buffer, dims: number, space: Space, size: number, efSearch = 64): VectorIndex {
  return throughFile((f) => {
    writeFileSync(f, buf);
    const index = new (hnswlib().HierarchicalNSW)(space, dims);
    index.readIndexSync(f);
    index.setEf(efSearch);
    return new HnswIndex(index, dims, space, size);
  });
}

/**
 * hnswlib-node reads and writes an index only through a file: one in a scratch folder of its
 * own, so a TMPDIR that is missing, full or read-only is named as such (exit 5), not taken
 * for a damaged model.
 */
function throughFile<T>(fn: (file: string) => T): T {
  const dir = scratchDir('tadpole-hnsw-');
  try {
    return fn(join(dir, 'index.bin'));
  } finally {
    removeScratch(dir);
  }
}
