/**
 * `dsir` (Xie et al. 2023, Data Selection with Importance Resampling): hashed unigram +
 * bigram bag-of-n-grams models of task and general text; score = minus the log importance
 * weight = -sum over the sentence's hashed n-grams of (log p_task(b) - log p_general(b)).
 * Deterministic ranking by the weight (no Gumbel resampling: the cut does the selection).
 * `--option features=chars-folded` adds character 5-grams of each word, digits folded
 * (features.ts): not the paper's features, but the default ensemble's DSIR component,
 * which they lifted on every suite mix but bio (docs/research.md, "Subword features").
 */
import { b64ToF32, declaredCount, f32ToB64 } from '../core/b64.js';
import { needGeneral, needTask } from './options.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';
import { FEATURE_SETS, MAX_CHAR_N, SUBWORD_CHARS, type FeatureSet } from './features.js';
import { fitHasher, type FeatureCache } from './feature-cache.js';
import { HashedFeatureScorer, sumBuckets } from './raw-ngrams.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

/** Log-probabilities of each bucket, add-alpha smoothed. */
export function bucketLogProbs(sentences: string[], buckets: number, alpha: number, features: FeatureSet = 'words', charN = SUBWORD_CHARS, cache?: FeatureCache): Float32Array {
  const counts = new Float64Array(buckets);
  const hasher = fitHasher(buckets, features, charN, cache);
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

/**
 * How a sentence's n-gram log ratios make its score. `sum`: the paper's log importance weight.
 * `mean`: per n-gram, so a long sentence is not more extreme for its length alone (as
 * Moore-Lewis scores per word); the default ensemble's DSIR (docs/research.md,
 * "DSIR per n-gram").
 */
export const DSIR_NORMS = ['sum', 'mean'] as const;
export type DsirNorm = (typeof DSIR_NORMS)[number];

class DsirScorer extends HashedFeatureScorer {
  readonly method = 'dsir';
  private readonly logRatio: Float32Array;
  constructor(task: Float32Array, general: Float32Array, features: FeatureSet = 'words', charN = SUBWORD_CHARS, private readonly norm: DsirNorm = 'sum') {
    super(features, charN);
    this.logRatio = Float32Array.from(task, (v, i) => v - (general[i] as number));
  }
  scoreRaw(raw: Uint32Array, n: number): number {
    const w = sumBuckets(this.logRatio, raw, n);
    return this.norm === 'mean' && n > 0 ? -w / n : -w;
  }
}

export const DSIR_OPTIONS: readonly OptionDecl[] = [
  // 10k buckets as in the DSIR paper's hashed n-gram features.
  { name: 'buckets', type: 'int', default: 10000, min: 1, help: 'hash buckets of the n-gram models' },
  { name: 'alpha', type: 'number', default: 1, min: 0, minOpen: true, help: 'add-alpha smoothing of the bucket counts' },
  { name: 'features', type: 'choice', default: 'words', choices: FEATURE_SETS, help: 'words: the paper\'s 1-2-grams; chars-folded adds character n-grams of each word, digits folded' },
  { name: 'charN', type: 'int', default: SUBWORD_CHARS, min: 2, max: MAX_CHAR_N, help: 'character n-gram length of the chars features' },
  { name: 'norm', type: 'choice', default: 'sum', choices: DSIR_NORMS, help: 'sum: the paper\'s log importance weight; mean: per n-gram' },
];

export const dsirSelector: SelectorFactory = {
  method: 'dsir',
  summary: 'importance weights of hashed n-gram models, task vs general (Xie et al. 2023)',
  explain: 'dsir (Xie et al. 2023): models of hashed word n-grams in the task and in the general\nsample; a sentence scores by how much likelier its n-grams are under the task model.',
  options: DSIR_OPTIONS,
  needsEmbedder: false,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'dsir');
    needGeneral(ctx.general, 'dsir');
    const read = optionReader({ label: 'method dsir', options: DSIR_OPTIONS }, ctx.options);
    const buckets = read.number('buckets');
    const alpha = read.number('alpha');
    const features = read.string<FeatureSet>('features');
    const charN = read.number('charN');
    const norm = read.string<DsirNorm>('norm');
    return {
      method: 'dsir',
      // `norm` only when not the paper's sum, so a model without it reads as before.
      params: { buckets, alpha, features, charN, ...(norm !== 'sum' ? { norm } : {}) },
      state: { task: f32ToB64(bucketLogProbs(ctx.task, buckets, alpha, features, charN, ctx.features)), general: f32ToB64(bucketLogProbs(ctx.general, buckets, alpha, features, charN, ctx.features)) },
    };
  },
  async load(json): Promise<SentenceScorer> {
    const buckets = declaredCount(json.params.buckets, 'dsir "buckets"');
    return new DsirScorer(b64ToF32(json.state.task, 'dsir "task"', buckets), b64ToF32(json.state.general, 'dsir "general"', buckets), (json.params.features as FeatureSet | undefined) ?? 'words', Number(json.params.charN ?? SUBWORD_CHARS), (json.params.norm as DsirNorm | undefined) ?? 'sum');
  },
};
