/**
 * `classifier`: a positive-vs-unlabelled text classifier, the recipe behind DCLM's quality
 * filter (Li et al. 2024) with a linear model instead of fastText: task sentences (positive)
 * against a sample of the corpus or general text (unlabelled), hashed word unigrams +
 * bigrams and (by default) fastText-style character 5-grams of each word with digits folded,
 * logistic regression fitted here by seeded SGD. Score = minus the logit (lower =
 * more task-like). The unlabelled side holds some task-like text too; a PU classifier's
 * logit still ranks by the same order as P(task | x) (Elkan & Noto 2008), which is all the
 * cut needs.
 */
import { b64ToF32, declaredCount, f32ToB64 } from '../core/b64.js';
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { FEATURE_SETS, MAX_CHAR_N, SUBWORD_CHARS, type FeatureSet } from './features.js';
import { fitHasher, type FeatureCache } from './feature-cache.js';
import { HashedFeatureScorer, scoreFrom, sumBuckets } from './raw-ngrams.js';
import { needGeneral, needTask } from './options.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

export const CLASSIFIER_DEFAULTS = {
  /** 2^18 buckets: collisions stay rare for the ~100k distinct 1-2-grams of 20k sentences. */
  buckets: 1 << 18,
  epochs: 6,
  /** Initial SGD step; decays as 1/sqrt(epoch). */
  rate: 0.5,
  /** L2 penalty on the touched weights per update (keeps rare n-grams from dominating). */
  l2: 1e-5,
  /**
   * Self-training rounds after the first fit (0 = plain PU classifier): the corpus sentences
   * it finds most task-like join the positives, which teaches it the corpus's own wording. The
   * default pair (auto.ts) runs one round of 5% inside its own self-training by segments
   * (self-training.ts): moving single sentences drifts when the task's domain is a small share
   * of the corpus (docs/research.md, "Subword features", "Self-training by segments").
   */
  rounds: 2,
  /** Share of the general sample moved to the positive side per round (its most task-like). */
  expand: 0.1,
  /**
   * Word 1-2-grams plus character 5-grams of each word, digits folded: a task's wording
   * rarely matches the corpus's in-domain text word for word (PhraseBank's "EUR131m" and
   * "mn" against Reuters' "mln dlrs"; docs/research.md, "Subword features").
   */
  features: 'chars-folded' as FeatureSet,
  /** Characters per subword when features include chars. */
  charN: SUBWORD_CHARS,
  /**
   * No weight may fall below -weightFloor x the weights' root mean square (0: no floor).
   * A feature found in many corpus sentences and never in the task (wikitext's "<unk>",
   * markup, a tokeniser's habits) is pushed down on every pass until it alone sinks any
   * sentence that holds it, in-domain text included. 48 is the lowest floor that changes
   * nothing measured outside such a trap: a real feature's most negative weight sits far
   * above it (docs/research.md, "Transfer mixes and a format trap").
   */
  weightFloor: 48,
} as const;

/**
 * Raises every weight below -floor x RMS(weights) to that bound, in place; returns how many
 * were raised. The RMS is over all buckets, so it is a property of the fit, not of one feature.
 */
export function floorWeights(w: Float32Array, floor: number): number {
  if (!(floor > 0)) return 0;
  let sq = 0;
  for (let i = 0; i < w.length; i++) sq += (w[i] as number) ** 2;
  const bound = -floor * Math.sqrt(sq / w.length);
  let raised = 0;
  for (let i = 0; i < w.length; i++) {
    if ((w[i] as number) < bound) {
      w[i] = bound;
      raised++;
    }
  }
  return raised;
}

/** Hashed features of many sentences, flat: ids[offsets[i] .. offsets[i+1]). */
interface FeatureRows {
  ids: Uint32Array;
  offsets: Uint32Array;
}

function featurize(sentences: string[], buckets: number, features: FeatureSet = 'words', charN = SUBWORD_CHARS, cache?: FeatureCache): FeatureRows {
  const hasher = fitHasher(buckets, features, charN, cache);
  const offsets = new Uint32Array(sentences.length + 1);
  let ids = new Uint32Array(sentences.length * 32 + 1024);
  let at = 0;
  for (let i = 0; i < sentences.length; i++) {
    const n = hasher.hash(sentences[i] as string);
    if (at + n > ids.length) {
      const grown = new Uint32Array(Math.max(ids.length * 2, at + n));
      grown.set(ids);
      ids = grown;
    }
    ids.set(hasher.ids.subarray(0, n), at);
    at += n;
    offsets[i + 1] = at;
  }
  return { ids: ids.subarray(0, at), offsets };
}

/** Logit of one row: bias + sum of weights / sqrt(n), so long sentences do not saturate. */
function logit(w: Float32Array, bias: number, ids: Uint32Array, from: number, to: number): number {
  const n = to - from;
  if (n === 0) return bias;
  let s = 0;
  for (let j = from; j < to; j++) s += w[ids[j] as number] as number;
  return bias + s / Math.sqrt(n);
}

export interface LogisticFit {
  weights: Float32Array;
  bias: number;
}

/**
 * Class-balanced logistic regression by SGD over a seeded shuffle (deterministic for a
 * given seed and input order).
 */
export function fitLogistic(pos: string[], neg: string[], opts: { buckets: number; epochs: number; rate: number; l2: number; seed: number; features?: FeatureSet; charN?: number; cache?: FeatureCache }): LogisticFit {
  // One table of rows, the positives first: row k is order's k.
  const { ids, offsets } = featurize([...pos, ...neg], opts.buckets, opts.features, opts.charN, opts.cache);
  const w = new Float32Array(opts.buckets);
  let bias = 0;
  const positives = pos.length;
  const total = pos.length + neg.length;
  const wPos = total / (2 * pos.length);
  const wNeg = total / (2 * neg.length);
  const order = Array.from({ length: total }, (_, i) => i);
  const rng = new Rng(opts.seed);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    rng.shuffle(order);
    const rate = opts.rate / Math.sqrt(epoch + 1);
    const decay = 1 - rate * opts.l2;
    for (let o = 0; o < total; o++) {
      const k = order[o] as number;
      const isPos = k < positives;
      const from = offsets[k] as number;
      const to = offsets[k + 1] as number;
      const z = logit(w, bias, ids, from, to);
      const p = 1 / (1 + Math.exp(-z));
      // Gradient of the weighted log loss wrt the logit.
      const g = isPos ? (p - 1) * wPos : p * wNeg;
      const n = to - from;
      const step = n > 0 ? (rate * g) / Math.sqrt(n) : 0;
      for (let j = from; j < to; j++) {
        const b = ids[j] as number;
        w[b] = (w[b] as number) * decay - step;
      }
      bias -= rate * g * 0.1;
    }
  }
  return { weights: w, bias };
}

class ClassifierScorer extends HashedFeatureScorer {
  readonly method = 'classifier';
  constructor(private readonly w: Float32Array, private readonly bias: number, features: FeatureSet = 'words', charN = SUBWORD_CHARS) {
    super(features, charN);
  }
  /** Minus the logit, as `logit` computes it, with the weights indexed by raw % buckets. */
  scoreRaw(raw: Uint32Array, n: number): number {
    if (n === 0) return -this.bias;
    return -(this.bias + sumBuckets(this.w, raw, n) / Math.sqrt(n));
  }
}

export const CLASSIFIER_OPTIONS: readonly OptionDecl[] = [
  { name: 'rounds', type: 'int', default: CLASSIFIER_DEFAULTS.rounds, min: 0, help: 'self-training rounds: the most task-like general sentences join the task side' },
  { name: 'expand', type: 'number', default: CLASSIFIER_DEFAULTS.expand, min: 0, max: 1, minOpen: true, maxOpen: true, help: 'share of the general sentences moved per round (cumulative)' },
  { name: 'features', type: 'choice', default: CLASSIFIER_DEFAULTS.features, choices: FEATURE_SETS, help: 'hashed features: words (1-2-grams), chars (+ character n-grams of each word), chars-folded (digits folded)' },
  { name: 'charN', type: 'int', default: CLASSIFIER_DEFAULTS.charN, min: 2, max: MAX_CHAR_N, help: 'character n-gram length' },
  { name: 'buckets', type: 'int', default: CLASSIFIER_DEFAULTS.buckets, min: 1, help: 'hash buckets (weights)', experimental: true },
  { name: 'epochs', type: 'int', default: CLASSIFIER_DEFAULTS.epochs, min: 1, help: 'passes of stochastic gradient descent', experimental: true },
  { name: 'rate', type: 'number', default: CLASSIFIER_DEFAULTS.rate, min: 0, minOpen: true, help: 'learning rate (divided by the square root of the epoch)', experimental: true },
  { name: 'l2', type: 'number', default: CLASSIFIER_DEFAULTS.l2, min: 0, max: 1, maxOpen: true, help: 'L2 weight decay per step', experimental: true },
  { name: 'weightFloor', type: 'number', default: CLASSIFIER_DEFAULTS.weightFloor, min: 0, help: 'no weight below -weightFloor x their root mean square (0: no floor)', experimental: true },
];

export const classifierSelector: SelectorFactory = {
  method: 'classifier',
  summary: 'task vs general logistic regression on hashed n-grams (DCLM-style)',
  explain: 'classifier: a logistic regression of task sentences against the general sample on hashed\nword and character n-grams, self-trained on the general sentences it finds most task-like;\na sentence scores by its odds of being task text.',
  options: CLASSIFIER_OPTIONS,
  needsEmbedder: false,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'classifier');
    needGeneral(ctx.general, 'classifier');
    const read = optionReader({ label: 'method classifier', options: CLASSIFIER_OPTIONS }, ctx.options);
    const params = {
      buckets: read.number('buckets'),
      epochs: read.number('epochs'),
      rate: read.number('rate'),
      l2: read.number('l2'),
      features: read.string<FeatureSet>('features'),
      charN: read.number('charN'),
      weightFloor: read.number('weightFloor'),
    };
    const rounds = read.number('rounds');
    const expand = read.number('expand');
    // The floor applies to every fit, the ones that rank the self-training's moves included.
    const fitFloored = (pos: string[], neg: string[], seed: number): LogisticFit => {
      const f = fitLogistic(pos, neg, { ...params, seed, ...(ctx.features ? { cache: ctx.features } : {}) });
      floorWeights(f.weights, params.weightFloor);
      return f;
    };
    let fit = fitFloored(ctx.task, ctx.general, ctx.seed);
    for (let r = 0; r < rounds; r++) {
      // Self-training: the corpus sentences the classifier finds most task-like are taken as
      // positives, so the model learns the corpus's own in-domain wording, not only the task's.
      const scorer = new ClassifierScorer(fit.weights, fit.bias, params.features, params.charN);
      const g = await scoreFrom(scorer, ctx.general, ctx.features);
      const order = Array.from(g.keys()).sort((a, b) => (g[a] as number) - (g[b] as number) || a - b);
      const k = Math.round(expand * (r + 1) * ctx.general.length);
      const top = new Set(order.slice(0, k));
      const pos = [...ctx.task, ...ctx.general.filter((_, i) => top.has(i))];
      const neg = ctx.general.filter((_, i) => !top.has(i));
      fit = fitFloored(pos, neg, ctx.seed + r + 1);
    }
    return { method: 'classifier', params: { ...params, rounds, expand }, state: { weights: f32ToB64(fit.weights), bias: fit.bias } };
  },
  async load(json): Promise<SentenceScorer> {
    const bias = json.state.bias;
    if (typeof bias !== 'number' || !Number.isFinite(bias)) throw new TadpoleError('TADPOLE_MODEL', 'model file is damaged: classifier "bias" is not a number; refit the model or restore the file');
    return new ClassifierScorer(b64ToF32(json.state.weights, 'classifier "weights"', declaredCount(json.params.buckets, 'classifier "buckets"')), bias, (json.params.features as FeatureSet | undefined) ?? 'words', Number(json.params.charN ?? SUBWORD_CHARS));
  },
};
