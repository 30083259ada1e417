/**
 * Isolation Forest (Liu, Ting & Zhou 2008; TADPOLE Appendix C).
 *
 * Each tree is grown on ψ rows drawn without replacement, splitting on a random feature at
 * a value uniform between that feature's min and max in the node, up to height ceil(log2 ψ).
 * A row's path length is the depth of the leaf it reaches plus c(leaf size); the score is
 * 2^(-E[h(x)] / c(ψ)), so higher = more anomalous.
 *
 * Trees live in flat typed arrays in pre-order: the left child of node i is i+1, the right
 * child is right[i]; feature[i] = -1 marks a leaf.
 */
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { f32ToB64, i32ToB64 } from '../core/b64.js';
import type { Detector, DetectorJSON } from './detector.js';
import { checkKnown, intOption, type DetectorOptions } from './options.js';
import { StateReader, checkFitInput, checkScoreInput, i16ToB64, u16ToB64 } from './pack.js';
import { averagePathLength, leafValues } from './pathlen.js';

export const IFOREST_FORMAT = 1;

export interface IForestParams {
  trees: number;
  sampleSize: number;
  seed: number;
}

/** Flat forest; exported for tests and the benchmark. */
export interface ForestArrays {
  roots: Int32Array;
  feature: Int16Array;
  threshold: Float32Array;
  right: Int32Array;
  leafSize: Uint16Array;
}

/** Max dims a feature index fits in (Int16). Embeddings are 64..4096 wide. */
const MAX_DIMS = 32767;

export class IsolationForest implements Detector {
  readonly name = 'iforest';
  readonly params: IForestParams;
  private dims = 0;
  private psi = 0;
  private forest: ForestArrays | undefined;
  /** depth + c(leafSize) at each leaf, 0 elsewhere: the scoring loop only adds it. */
  private leafValue: Float32Array = new Float32Array(0);

  constructor(opts: DetectorOptions) {
    checkKnown('iforest', opts, ['trees', 'sampleSize']);
    this.params = {
      trees: intOption('iforest', opts, 'trees', 100, 1),
      sampleSize: intOption('iforest', opts, 'sampleSize', 256, 2),
      seed: opts.seed,
    };
    if (this.params.sampleSize > 65535) throw new TadpoleError('TADPOLE_USAGE', `detector iforest: sampleSize must be <= 65535, got ${this.params.sampleSize}`);
  }

  fit(X: Float32Array, n: number, dims: number): void {
    checkFitInput('iforest', X, n, dims);
    if (dims > MAX_DIMS) throw new TadpoleError('TADPOLE_INPUT', `detector iforest: at most ${MAX_DIMS} dims, got ${dims}`);
    const rng = new Rng(this.params.seed);
    const psi = Math.min(this.params.sampleSize, n);
    const heightLimit = Math.ceil(Math.log2(Math.max(psi, 2)));
    const maxNodes = this.params.trees * (2 * psi - 1);
    const b = new ForestBuilder(X, dims, maxNodes, heightLimit, rng);
    const roots = new Int32Array(this.params.trees);
    for (let t = 0; t < this.params.trees; t++) {
      const rows = Int32Array.from(rng.sample(n, psi));
      roots[t] = b.grow(rows);
    }
    this.dims = dims;
    this.psi = psi;
    this.setForest({ roots, ...b.arrays() });
  }

  /** Path-length expectation over trees, then 2^(-E[h]/c(ψ)). Memory: the output only. */
  score(X: Float32Array, n: number): Float32Array {
    const f = this.forest;
    checkScoreInput('iforest', this.dims, X, n);
    if (!f) throw new TadpoleError('TADPOLE_RUN', 'detector iforest: score() called before fit()');
    const { roots, feature, threshold, right } = f;
    const leafValue = this.leafValue;
    const dims = this.dims;
    const T = roots.length;
    const norm = -1 / (T * averagePathLength(this.psi));
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const base = i * dims;
      let sum = 0;
      for (let t = 0; t < T; t++) {
        let node = roots[t] as number;
        let feat = feature[node] as number;
        while (feat >= 0) {
          node = (X[base + feat] as number) < (threshold[node] as number) ? node + 1 : (right[node] as number);
          feat = feature[node] as number;
        }
        sum += leafValue[node] as number;
      }
      out[i] = Math.pow(2, sum * norm);
    }
    return out;
  }

  toJSON(): DetectorJSON {
    const f = this.forest;
    if (!f) throw new TadpoleError('TADPOLE_RUN', 'detector iforest: toJSON() called before fit()');
    return {
      name: this.name,
      params: { ...this.params },
      state: {
        format: IFOREST_FORMAT,
        dims: this.dims,
        psi: this.psi,
        nodes: f.feature.length,
        roots: i32ToB64(f.roots),
        feature: i16ToB64(f.feature),
        threshold: f32ToB64(f.threshold),
        right: i32ToB64(f.right),
        leafSize: u16ToB64(f.leafSize),
      },
    };
  }

  static fromJSON(json: DetectorJSON): IsolationForest {
    const p = new StateReader('iforest', json.params);
    const s = new StateReader('iforest', json.state);
    if (s.num('format') !== IFOREST_FORMAT) throw new TadpoleError('TADPOLE_MODEL', `detector iforest: unsupported state format ${String(json.state.format)}; refit the model`);
    const det = new IsolationForest({ seed: p.num('seed'), trees: p.num('trees'), sampleSize: p.num('sampleSize') });
    const nodes = s.count('nodes');
    det.dims = s.count('dims');
    // Feature indexes are Int16: a wider forest was never fitted (fit refuses it).
    if (det.dims > MAX_DIMS) throw new TadpoleError('TADPOLE_MODEL', `model file is damaged: detector iforest "dims": ${det.dims}, over ${MAX_DIMS}; refit the model or restore the file`);
    det.psi = s.num('psi');
    det.setForest({
      roots: s.i32('roots', det.params.trees),
      feature: s.i16('feature', nodes),
      threshold: s.f32('threshold', nodes),
      right: s.i32('right', nodes),
      leafSize: s.u16('leafSize', nodes),
    });
    return det;
  }

  /** Node count, for tests and stats. */
  get nodeCount(): number {
    return this.forest?.feature.length ?? 0;
  }

  private setForest(f: ForestArrays): void {
    this.forest = f;
    this.leafValue = leafValues(f);
  }
}

/** Grows trees into preallocated flat arrays (at most 2ψ-1 nodes per tree). */
class ForestBuilder {
  private readonly feature: Int16Array;
  private readonly threshold: Float32Array;
  private readonly right: Int32Array;
  private readonly leafSize: Uint16Array;
  private used = 0;

  constructor(
    private readonly X: Float32Array,
    private readonly dims: number,
    maxNodes: number,
    private readonly heightLimit: number,
    private readonly rng: Rng,
  ) {
    this.feature = new Int16Array(maxNodes);
    this.threshold = new Float32Array(maxNodes);
    this.right = new Int32Array(maxNodes);
    this.leafSize = new Uint16Array(maxNodes);
  }

  grow(rows: Int32Array): number {
    return this.node(rows, 0, rows.length, 0);
  }

  arrays(): Omit<ForestArrays, 'roots'> {
    const n = this.used;
    return {
      feature: this.feature.slice(0, n),
      threshold: this.threshold.slice(0, n),
      right: this.right.slice(0, n),
      leafSize: this.leafSize.slice(0, n),
    };
  }

  /** rows[lo, hi) reach this node; returns its index. */
  private node(rows: Int32Array, lo: number, hi: number, depth: number): number {
    const id = this.used++;
    const count = hi - lo;
    const split = count > 1 && depth < this.heightLimit ? this.chooseSplit(rows, lo, hi) : undefined;
    if (!split) {
      this.feature[id] = -1;
      this.leafSize[id] = count;
      return id;
    }
    const [feat, thr] = split;
    // Partition: x < thr to the front (left), the rest to the back (right).
    const X = this.X;
    const dims = this.dims;
    let i = lo;
    let j = hi - 1;
    while (i <= j) {
      if ((X[(rows[i] as number) * dims + feat] as number) < thr) i++;
      else {
        const t = rows[i] as number;
        rows[i] = rows[j] as number;
        rows[j--] = t;
      }
    }
    this.feature[id] = feat;
    this.threshold[id] = thr;
    this.node(rows, lo, i, depth + 1);
    this.right[id] = this.node(rows, i, hi, depth + 1);
    return id;
  }

  /**
   * A random feature that is not constant in the node (as scikit-learn's random splitter
   * does), and a split uniform in (min, max]. Undefined when every feature tried is constant.
   */
  private chooseSplit(rows: Int32Array, lo: number, hi: number): [number, number] | undefined {
    const X = this.X;
    const dims = this.dims;
    // Dense embeddings are almost never constant in a node; bound the retries for duplicates.
    for (let attempt = 0; attempt < 2 * dims; attempt++) {
      const feat = this.rng.int(dims);
      let min = Infinity;
      let max = -Infinity;
      for (let r = lo; r < hi; r++) {
        const v = X[(rows[r] as number) * dims + feat] as number;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      if (!(max > min)) continue;
      let thr = Math.fround(min + this.rng.next() * (max - min));
      // Float32 rounding may land on min, which would leave the left side empty.
      if (thr <= min) thr = max;
      return [feat, thr];
    }
    return undefined;
  }
}
