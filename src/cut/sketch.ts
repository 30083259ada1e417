/**
 * A mergeable log-bucket histogram of segment scores (DDSketch-style relative buckets,
 * with a mirrored store for negative scores). Bucket counts and weights are EXACT, so the
 * bucket holding the cut is known exactly; the exact cut then looks only at that bucket's
 * records in the spill. Mergeable across shards by adding buckets.
 */
export const SKETCH_GAMMA = 1.002; // 0.1% relative bucket width: ~1000 buckets per e-fold of score range
const LOG_GAMMA = Math.log(SKETCH_GAMMA);
const ZERO_EPS = 1e-12;
const MID = 1e7;
const SPAN = 1e6;

/** Monotone bucket key: a < b implies key(a) <= key(b). */
export function bucketKey(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return 2 * MID + 1;
  if (x === -Infinity) return -1;
  const a = Math.abs(x);
  if (a < ZERO_EPS) return MID;
  const k = Math.ceil(Math.log(a / ZERO_EPS) / LOG_GAMMA) + 1; // >= 1
  const kk = Math.min(k, SPAN * 9);
  return x > 0 ? MID + kk : MID - kk;
}

export interface SketchJSON {
  version: 1;
  gamma: number;
  /** [key, segments, sentences, bytes], and tokens after them in a run that counts tokens */
  buckets: Array<[number, number, number, number] | [number, number, number, number, number]>;
}

type Bucket = [number, number, number, number];

export class ScoreSketch {
  /** key -> [segments, sentences, bytes, tokens] */
  readonly buckets = new Map<number, Bucket>();
  /** Token counts were added (a tokenizer in pass 1): they are written out with the rest. */
  tokens = false;

  add(score: number, sentences: number, bytes: number, tokens?: number): void {
    if (tokens !== undefined) this.tokens = true;
    const k = bucketKey(score);
    const b = this.buckets.get(k);
    if (b) {
      b[0]++;
      b[1] += sentences;
      b[2] += bytes;
      b[3] += tokens ?? 0;
    } else this.buckets.set(k, [1, sentences, bytes, tokens ?? 0]);
  }

  merge(other: ScoreSketch): this {
    this.tokens ||= other.tokens;
    for (const [k, v] of other.buckets) {
      const b = this.buckets.get(k);
      if (b) {
        for (let i = 0; i < 4; i++) b[i] = b[i]! + v[i]!;
      } else this.buckets.set(k, [v[0], v[1], v[2], v[3]]);
    }
    return this;
  }

  totals(): { segments: number; sentences: number; bytes: number; tokens: number } {
    let segments = 0;
    let sentences = 0;
    let bytes = 0;
    let tokens = 0;
    for (const v of this.buckets.values()) {
      segments += v[0];
      sentences += v[1];
      bytes += v[2];
      tokens += v[3];
    }
    return { segments, sentences, bytes, tokens };
  }

  sortedKeys(): number[] {
    return [...this.buckets.keys()].sort((a, b) => a - b);
  }

  toJSON(): SketchJSON {
    return {
      version: 1,
      gamma: SKETCH_GAMMA,
      buckets: this.sortedKeys().map((k) => {
        const [a, b, c, d] = this.buckets.get(k)!;
        return this.tokens ? [k, a, b, c, d] : [k, a, b, c];
      }),
    };
  }

  static fromJSON(json: SketchJSON): ScoreSketch {
    if (json.gamma !== SKETCH_GAMMA) throw new Error(`sketch gamma ${json.gamma} differs from this build's ${SKETCH_GAMMA}`);
    const s = new ScoreSketch();
    for (const [k, a, b, c, d] of json.buckets) {
      if (d !== undefined) s.tokens = true;
      s.buckets.set(k, [a, b, c, d ?? 0]);
    }
    return s;
  }
}
