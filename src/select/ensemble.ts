/**
 * Ensemble of selectors: each component's sentence score is z-normalised with the mean and
 * standard deviation it gives on a sample of the GENERAL text, measured at fit time and
 * stored, so scoring still streams; the ensemble score is the sum. On the Figure-5 mix at
 * segment level (docs/research.md, "Before the suites") Moore-Lewis + distance kept more in-domain
 * text than either alone, on the tuned tasks and on the untuned ones.
 *
 * A component is a selection method that needs no extra input (moore-lewis, distance, dsir)
 * or a tadpole detector name (knn-ratio, task-knn, iforest, ...), fitted with the same
 * task, general sample, embedder and seed.
 */
import { Rng } from '../core/rng.js';
import { TadpoleError } from '../core/errors.js';
import { linkedRegistry } from './registry-link.js';
import { parseComponentSpec } from './component-spec.js';
import type { SentenceHasher } from './features.js';
import { needGeneral } from './options.js';
import { isRawNgramScorer, scoreFrom, scoreInPlace, type RawNgramScorer } from './raw-ngrams.js';
import type { FitContext, LoadContext, SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

/** Methods usable as components; any other name is a tadpole detector. */
const METHOD_COMPONENTS = ['moore-lewis', 'distance', 'dsir', 'classifier'];
/** General sentences scored for the z-normalisation: the std of a mean of 2,000 is stable to ~2%. */
const CALIBRATION_SENTENCES = 2000;

interface PartJSON {
  name: string;
  mean: number;
  std: number;
  selector: SelectorJSON;
}

export function parseComponents(v: unknown): string[] {
  const names = String(v).split(/[,+]/).map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new TadpoleError('TADPOLE_USAGE', `ensemble: no components in "${String(v)}"; e.g. components=moore-lewis,distance`);
  if (names.includes('ensemble')) throw new TadpoleError('TADPOLE_USAGE', 'ensemble: a component cannot be an ensemble');
  return names;
}

export async function factoryOf(spec: string): Promise<{ factory: SelectorFactory; options: Record<string, unknown> }> {
  const { checkMethodOptions, selectorFactory } = linkedRegistry();
  const { name, options } = parseComponentSpec(spec);
  // A component's own options are checked like the method's: a typo is an error, not ignored.
  if (METHOD_COMPONENTS.includes(name)) {
    checkMethodOptions(name, options);
    return { factory: selectorFactory(name), options };
  }
  const asDetector = { ...options, detector: name };
  checkMethodOptions('tadpole', asDetector);
  return { factory: selectorFactory('tadpole'), options: asDetector };
}

/** Mean and standard deviation (1 when flat, so a z-score never divides by zero). */
export function meanStd(xs: Float64Array): { mean: number; std: number } {
  let m = 0;
  for (const x of xs) m += x;
  m /= xs.length;
  let v = 0;
  for (const x of xs) v += (x - m) ** 2;
  const std = Math.sqrt(v / xs.length);
  return { mean: m, std: std > 1e-12 ? std : 1 };
}

/** Fit every component; `shared` are options every component sees (dims, representation, k). */
export async function fitEnsemble(ctx: FitContext, names: string[], shared: Record<string, unknown>): Promise<Record<string, unknown>> {
  needGeneral(ctx.general, 'tadpole detector ensemble');
  const calib = ctx.general.length <= CALIBRATION_SENTENCES ? ctx.general : new Rng(ctx.seed + 2).sample(ctx.general.length, CALIBRATION_SENTENCES).sort((a, b) => a - b).map((i) => ctx.general[i] as string);
  const parts: PartJSON[] = [];
  for (const name of names) {
    const { factory, options } = await factoryOf(name);
    const selector = await factory.fit({ ...ctx, options: { ...shared, ...options } });
    const scorer = await factory.load(selector, { ...(ctx.embedder ? { embedder: ctx.embedder } : {}), seed: ctx.seed, options: {} });
    try {
      parts.push({ name, ...meanStd(await scoreFrom(scorer, calib, ctx.features)), selector });
    } finally {
      await scorer.dispose();
    }
    ctx.log?.(`ensemble: fitted ${name}`);
  }
  return { parts };
}

type Part = { scorer: SentenceScorer; mean: number; std: number };
type RawPart = { scorer: RawNgramScorer; mean: number; std: number };

class EnsembleScorer implements SentenceScorer {
  readonly method = 'tadpole';
  constructor(private readonly parts: Part[]) {}
  async score(sentences: string[]): Promise<Float64Array> {
    const out = new Float64Array(sentences.length);
    const views = await this.scoreViews(sentences);
    this.parts.forEach((p, k) => {
      const s = views[k] as Float64Array;
      for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + ((s[i] as number) - p.mean) / p.std;
    });
    return out;
  }
  /** Each part's own scores, in the parts' order (what `score` sums as z-scores). */
  async scoreViews(sentences: string[]): Promise<Float64Array[]> {
    const views: Float64Array[] = [];
    for (const p of this.parts) views.push(await p.scorer.score(sentences));
    return views;
  }
  async dispose(): Promise<void> {
    for (const p of this.parts) await p.scorer.dispose();
  }
}

/**
 * Parts that all score from the same hashed features (the default: classifier + DSIR): one
 * hashing of each sentence serves them all, so the ensemble scores from hashes too.
 */
class SharedFeatureEnsemble extends EnsembleScorer implements RawNgramScorer {
  readonly featureKey: string;
  private readonly hasher: SentenceHasher;
  constructor(private readonly rawParts: RawPart[]) {
    super(rawParts);
    this.featureKey = (rawParts[0] as RawPart).scorer.featureKey;
    this.hasher = this.rawHasher();
  }
  rawHasher(): SentenceHasher {
    return (this.rawParts[0] as RawPart).scorer.rawHasher();
  }
  /** The same sums, in the same order, as the part-by-part loop in EnsembleScorer's `score`. */
  scoreRaw(raw: Uint32Array, n: number): number {
    let z = 0;
    for (const p of this.rawParts) z += (p.scorer.scoreRaw(raw, n) - p.mean) / p.std;
    return z;
  }
  /** scoreRaw's sums, with the parts and the hasher held in locals: this is pass 1's hot loop. */
  override async score(sentences: string[]): Promise<Float64Array> {
    const out = new Float64Array(sentences.length);
    const parts = this.rawParts;
    const hasher = this.hasher;
    for (let i = 0; i < sentences.length; i++) {
      // Hash first: a long sentence can grow the hasher's ids into a new array.
      const n = hasher.hash(sentences[i] as string);
      let z = 0;
      for (const p of parts) z += (p.scorer.scoreRaw(hasher.ids, n) - p.mean) / p.std;
      out[i] = z;
    }
    return out;
  }
  /** `score` of the sentences read in place (spans of each text), none sliced. */
  async scoreSpans(texts: readonly string[], spans: readonly (readonly number[])[]): Promise<Float64Array> {
    return scoreInPlace(this.hasher, this, texts, spans);
  }
}

function sharesFeatures(parts: Part[]): parts is RawPart[] {
  const first = parts[0]?.scorer;
  return !!first && isRawNgramScorer(first) && parts.every((p) => isRawNgramScorer(p.scorer) && p.scorer.featureKey === first.featureKey);
}

export async function loadEnsemble(state: Record<string, unknown>, ctx: LoadContext): Promise<SentenceScorer> {
  const parts = state.parts as PartJSON[] | undefined;
  if (!Array.isArray(parts) || parts.length === 0) throw new TadpoleError('TADPOLE_MODEL', 'tadpole ensemble model has no components; refit the model');
  const loaded: Part[] = [];
  try {
    for (const p of parts) {
      // fit stores std > 0 (meanStd): anything else would make every score NaN or infinite.
      if (typeof p?.mean !== 'number' || !Number.isFinite(p.mean) || typeof p.std !== 'number' || !Number.isFinite(p.std) || p.std <= 0) {
        throw new TadpoleError('TADPOLE_MODEL', `model file is damaged: ensemble part "${String(p?.name)}" has no finite mean and positive std; refit the model or restore the file`);
      }
      const { factory } = await factoryOf(p.name);
      loaded.push({ scorer: await factory.load(p.selector, { ...ctx, options: {} }), mean: p.mean, std: p.std });
    }
  } catch (e) {
    for (const l of loaded) await l.scorer.dispose();
    throw e;
  }
  return sharesFeatures(loaded) ? new SharedFeatureEnsemble(loaded) : new EnsembleScorer(loaded);
}
