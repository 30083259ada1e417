/**
 * Extended Isolation Forest (Hariri, Carrasco Kind & Brunner 2018): like the isolation
 * forest, but each node splits on a random hyperplane. The normal has N(0,1) coordinates,
 * of which dims-1-extensionLevel are zeroed (0 = one axis, as the plain forest; dims-1 =
 * full, the default); the intercept p is uniform in the node's bounding box; rows with
 * (x - p)·normal < 0 go left. Path length and score as in the isolation forest.
 *
 * The model file stores, per split, the seed that regenerates its normal and the offset
 * p·normal: a few bytes per node instead of dims floats. Normals are rebuilt on load.
 */
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { f32ToB64, i32ToB64 } from '../core/b64.js';
import type { Detector, DetectorJSON } from './detector.js';
import { checkKnown, intOption, type DetectorOptions } from './options.js';
import { StateReader, checkFitInput, checkScoreInput, u16ToB64 } from './pack.js';
import { averagePathLength, leafValues } from './pathlen.js';

export const EIF_FORMAT = 1;

export interface EifParams {
  trees: number;
  sampleSize: number;
  /** -1 = full (dims - 1). */
  extensionLevel: number;
  seed: number;
}

interface EifArrays {
  roots: Int32Array;
  /** Per node: the seed of its normal (>= 0), or -1 for a leaf. */
  normalSeed: Int32Array;
  offset: Float32Array;
  right: Int32Array;
  leafSize: Uint16Array;
}

/** The normal of one split, regenerated from its seed: same numbers at fit and after load. */
function makeNormal(seed: number, dims: number, nonZero: number, out: Float32Array, at: number): void {
  const rng = new Rng(seed);
  if (nonZero >= dims) {
    for (let d = 0; d < dims; d++) out[at + d] = rng.normal();
    return;
  }
  for (let d = 0; d < dims; d++) out[at + d] = 0;
  for (const d of rng.sample(dims, nonZero)) out[at + d] = rng.normal();
}

export class ExtendedIsolationForest implements Detector {
  readonly name = 'eif';
  readonly params: EifParams;
  private dims = 0;
  private psi = 0;
  private arrays: EifArrays | undefined;
  /** Row r of `normals` is the normal of the node whose normalRow is r. */
  private normals: Float32Array = new Float32Array(0);
  private normalRow: Int32Array = new Int32Array(0);
  private leafValue: Float32Array = new Float32Array(0);

  constructor(opts: DetectorOptions) {
    checkKnown('eif', opts, ['trees', 'sampleSize', 'extensionLevel']);
    this.params = {
      trees: intOption('eif', opts, 'trees', 100, 1),
      sampleSize: intOption('eif', opts, 'sampleSize', 256, 2),
      extensionLevel: intOption('eif', opts, 'extensionLevel', -1, -1),
      seed: opts.seed,
    };
    if (this.params.sampleSize > 65535) throw new TadpoleError('TADPOLE_USAGE', `detector eif: sampleSize must be <= 65535, got ${this.params.sampleSize}`);
  }

  private nonZero(dims: number): number {
    const e = this.params.extensionLevel;
    if (e >= dims) throw new TadpoleError('TADPOLE_USAGE', `detector eif: extensionLevel must be < dims (${dims}), got ${e}`);
    return e < 0 ? dims : e + 1;
  }

  fit(X: Float32Array, n: number, dims: number): void {
    checkFitInput('eif', X, n, dims);
    const nonZero = this.nonZero(dims);
    const rng = new Rng(this.params.seed);
    const psi = Math.min(this.params.sampleSize, n);
    const heightLimit = Math.ceil(Math.log2(Math.max(psi, 2)));
    const maxNodes = this.params.trees * (2 * psi - 1);
    const normalSeed = new Int32Array(maxNodes);
    const offset = new Float32Array(maxNodes);
    const right = new Int32Array(maxNodes);
    const leafSize = new Uint16Array(maxNodes);
    const roots = new Int32Array(this.params.trees);
    const normal = new Float32Array(dims);
    const lo = new Float64Array(dims);
    const hi = new Float64Array(dims);
    const proj = new Float64Array(psi);
    let used = 0;

    const grow = (rows: Int32Array, a: number, b: number, depth: number): number => {
      const id = used++;
      const count = b - a;
      if (count <= 1 || depth >= heightLimit || !boundingBox(X, dims, rows, a, b, lo, hi)) {
        normalSeed[id] = -1;
        leafSize[id] = count;
        return id;
      }
      const seed = rng.int(0x7fffffff);
      makeNormal(seed, dims, nonZero, normal, 0);
      let pn = 0;
      for (let d = 0; d < dims; d++) pn += (lo[d] as number + rng.next() * ((hi[d] as number) - (lo[d] as number))) * (normal[d] as number);
      const off = Math.fround(pn);
      for (let r = a; r < b; r++) {
        const base = (rows[r] as number) * dims;
        let s = 0;
        for (let d = 0; d < dims; d++) s += (X[base + d] as number) * (normal[d] as number);
        proj[r - a] = Math.fround(s);
      }
      // Partition rows (and their projections) so that proj < offset comes first.
      let i = a;
      let j = b - 1;
      while (i <= j) {
        if ((proj[i - a] as number) < off) i++;
        else {
          const t = rows[i] as number;
          rows[i] = rows[j] as number;
          rows[j] = t;
          const u = proj[i - a] as number;
          proj[i - a] = proj[j - a] as number;
          proj[j - a] = u;
          j--;
        }
      }
      normalSeed[id] = seed;
      offset[id] = off;
      grow(rows, a, i, depth + 1);
      right[id] = grow(rows, i, b, depth + 1);
      return id;
    };

    for (let t = 0; t < this.params.trees; t++) roots[t] = grow(Int32Array.from(rng.sample(n, psi)), 0, psi, 0);
    this.dims = dims;
    this.psi = psi;
    this.setArrays({
      roots,
      normalSeed: normalSeed.slice(0, used),
      offset: offset.slice(0, used),
      right: right.slice(0, used),
      leafSize: leafSize.slice(0, used),
    });
  }

  score(X: Float32Array, n: number): Float32Array {
    const f = this.arrays;
    checkScoreInput('eif', this.dims, X, n);
    if (!f) throw new TadpoleError('TADPOLE_RUN', 'detector eif: score() called before fit()');
    const { roots, offset, right } = f;
    const { normals, normalRow, leafValue, dims } = this;
    const T = roots.length;
    const norm = -1 / (T * averagePathLength(this.psi));
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const base = i * dims;
      let sum = 0;
      for (let t = 0; t < T; t++) {
        let node = roots[t] as number;
        let row = normalRow[node] as number;
        while (row >= 0) {
          const w = row * dims;
          let s = 0;
          for (let d = 0; d < dims; d++) s += (X[base + d] as number) * (normals[w + d] as number);
          node = Math.fround(s) < (offset[node] as number) ? node + 1 : (right[node] as number);
          row = normalRow[node] as number;
        }
        sum += leafValue[node] as number;
      }
      out[i] = Math.pow(2, sum * norm);
    }
    return out;
  }

  toJSON(): DetectorJSON {
    const f = this.arrays;
    if (!f) throw new TadpoleError('TADPOLE_RUN', 'detector eif: toJSON() called before fit()');
    return {
      name: this.name,
      params: { ...this.params },
      state: {
        format: EIF_FORMAT,
        dims: this.dims,
        psi: this.psi,
        nodes: f.normalSeed.length,
        roots: i32ToB64(f.roots),
        normalSeed: i32ToB64(f.normalSeed),
        offset: f32ToB64(f.offset),
        right: i32ToB64(f.right),
        leafSize: u16ToB64(f.leafSize),
      },
    };
  }

  static fromJSON(json: DetectorJSON): ExtendedIsolationForest {
    const p = new StateReader('eif', json.params);
    const s = new StateReader('eif', json.state);
    if (s.num('format') !== EIF_FORMAT) throw new TadpoleError('TADPOLE_MODEL', `detector eif: unsupported state format ${String(json.state.format)}; refit the model`);
    const det = new ExtendedIsolationForest({ seed: p.num('seed'), trees: p.num('trees'), sampleSize: p.num('sampleSize'), extensionLevel: p.num('extensionLevel') });
    const nodes = s.count('nodes');
    det.dims = s.count('dims');
    det.psi = s.num('psi');
    det.setArrays({
      roots: s.i32('roots', det.params.trees),
      normalSeed: s.i32('normalSeed', nodes),
      offset: s.f32('offset', nodes),
      right: s.i32('right', nodes),
      leafSize: s.u16('leafSize', nodes),
    });
    return det;
  }

  private setArrays(f: EifArrays): void {
    const dims = this.dims;
    const nonZero = this.nonZero(dims);
    const nodes = f.normalSeed.length;
    const normalRow = new Int32Array(nodes).fill(-1);
    let splits = 0;
    for (let i = 0; i < nodes; i++) if ((f.normalSeed[i] as number) >= 0) normalRow[i] = splits++;
    const normals = new Float32Array(splits * dims);
    for (let i = 0; i < nodes; i++) {
      const r = normalRow[i] as number;
      if (r >= 0) makeNormal(f.normalSeed[i] as number, dims, nonZero, normals, r * dims);
    }
    this.arrays = f;
    this.normals = normals;
    this.normalRow = normalRow;
    this.leafValue = leafValues({ roots: f.roots, feature: normalRow, right: f.right, leafSize: f.leafSize });
  }
}

/** Per-coordinate min/max of rows[a, b); false when all rows are the same point. */
function boundingBox(X: Float32Array, dims: number, rows: Int32Array, a: number, b: number, lo: Float64Array, hi: Float64Array): boolean {
  lo.fill(Infinity);
  hi.fill(-Infinity);
  for (let r = a; r < b; r++) {
    const base = (rows[r] as number) * dims;
    for (let d = 0; d < dims; d++) {
      const v = X[base + d] as number;
      if (v < (lo[d] as number)) lo[d] = v;
      if (v > (hi[d] as number)) hi[d] = v;
    }
  }
  for (let d = 0; d < dims; d++) if ((hi[d] as number) > (lo[d] as number)) return true;
  return false;
}
