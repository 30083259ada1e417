/**
 * `dsir` (Xie et al. 2023, Data Selection with Importance Resampling): hashed unigram +
 * bigram bag-of-n-grams models of task and general text; score = minus the log importance
 * weight = -sum over the sentence's hashed n-grams of (log p_task(b) - log p_general(b)).
 * Deterministic ranking by the weight (no Gumbel resampling: the cut does the selection).
 */
import { b64ToF32, f32ToB64 } from '../core/b64.js';
import { NgramHasher } from '../text/fast-ngrams.js';
import { intOpt, needGeneral, needTask, numOpt } from './options.js';
import type { RawNgramScorer } from './raw-ngrams.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

/** Log-probabilities of each bucket, add-alpha smoothed. */
export function bucketLogProbs(sentences: string[], buckets: number, alpha: number): Float32Array {
  const counts = new Float64Array(buckets);
  const hasher = new NgramHasher(buckets);
  let total = 0;
  for (const s of sentences) {
    const n = hasher.hash(s);
    const ids = hasher.ids;
    for (let j = 0; j < n; j++) counts[ids[j] as number] = (counts[ids[j] as number] as number) + 1;
    total += n;
  }
  const out = new Float32Array(buckets);
  const denom = Math.log(total + alpha * buckets);
  for (let b = 0; b < buckets; b++) out[b] = Math.log((counts[b] as number) + alpha) - denom;
  return out;
}

class DsirScorer implements RawNgramScorer {
  readonly method = 'dsir';
  private readonly logRatio: Float32Array;
  private readonly hasher: NgramHasher;
  constructor(task: Float32Array, general: Float32Array) {
    this.logRatio = Float32Array.from(task, (v, i) => v - (general[i] as number));
    this.hasher = new NgramHasher(this.logRatio.length);
  }
  async score(sentences: string[]): Promise<Float64Array> {
    const out = new Float64Array(sentences.length);
    for (let i = 0; i < sentences.length; i++) out[i] = this.scoreRaw(this.hasher.raw, this.hasher.hashRaw(sentences[i] as string));
    return out;
  }
  scoreRaw(raw: Uint32Array, n: number): number {
    const lr = this.logRatio;
    const buckets = lr.length;
    let w = 0;
    for (let j = 0; j < n; j++) w += lr[(raw[j] as number) % buckets] as number;
    return -w;
  }
  async dispose(): Promise<void> {}
}

export const dsirSelector: SelectorFactory = {
  method: 'dsir',
  summary: 'importance weights of hashed 1-2-gram models, task vs general (DSIR, Xie et al. 2023)',
  needsEmbedder: false,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'dsir');
    needGeneral(ctx.general, 'dsir');
    // 10k buckets as in the DSIR paper's hashed n-gram features.
    const buckets = intOpt(ctx.options, 'buckets', 10000);
    const alpha = numOpt(ctx.options, 'alpha', 1, (v) => v > 0);
    return {
      method: 'dsir',
      params: { buckets, alpha },
      state: { task: f32ToB64(bucketLogProbs(ctx.task, buckets, alpha)), general: f32ToB64(bucketLogProbs(ctx.general, buckets, alpha)) },
    };
  },
  async load(json): Promise<SentenceScorer> {
    return new DsirScorer(b64ToF32(json.state.task as string), b64ToF32(json.state.general as string));
  },
};
