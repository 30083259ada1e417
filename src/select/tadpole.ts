/**
 * `tadpole`: representation + anomaly score (the paper, Section 3 / Algorithm 1).
 * - detector = a name from src/detect/registry.ts (iforest, the paper's choice): fitted on
 *   the task rows mixed with a general sample of generalRatio * |task| rows (Algorithm 1);
 *   score = the detector's anomaly score.
 * - detector = 'task-knn': 1 - mean cosine similarity to the k nearest task rows (the kNN
 *   detector of the paper's Table 1), through the hnswlib wrapper.
 * - detector = 'knn-ratio': mean similarity to the k nearest general rows minus that to the
 *   k nearest task rows: a local density ratio, so text that is common everywhere (which
 *   a one-class detector also finds "normal") is not kept.
 * - detector = 'ensemble': the sum of the components' scores (default Moore-Lewis +
 *   distance on the fitted LSA), each z-normalised on the general sample at fit time
 *   (ensemble.ts); best on the two tuned Figure-5 mixes (99.1% Bio / 99.0% CS).
 * The detector is iforest unless named: `--method tadpole` is always the paper's method. The
 * default fit (no --method) is `contrast` (auto.ts). Model files of the default from before it
 * had its own name say method tadpole with detector auto: they still load, as contrast.
 */
import { Rng } from '../core/rng.js';
import { TadpoleError } from '../core/errors.js';
import type { Detector, DetectorJSON } from '../detect/detector.js';
import type { VectorIndex } from '../detect/hnsw.js';
import { loadAuto } from './auto.js';
import { fitEnsemble, loadEnsemble, parseComponents } from './ensemble.js';
import { needTask } from './options.js';
import { optionReader, type OptionDecl, type OptionOwner } from '../core/option-decl.js';
import { buildTaskIndex, meanTopKSimilarity, restoreIndex, storeIndex, type StoredIndex } from './knn.js';
import { fitRepresentation, loadRepresentation, parseRepresentation, REPRESENTATION_OPTIONS, type Representation } from './representation.js';
import type { FitContext, SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

const LOCAL_DETECTORS = ['task-knn', 'knn-ratio'] as const;
/** Detectors of the registry (src/detect/registry.ts); kept here so the declarations need not load it. */
export const REGISTRY_DETECTORS = ['iforest', 'eif', 'knn', 'lof', 'pca', 'mahalanobis', 'ocsvm'] as const;
export const TADPOLE_DETECTORS: readonly string[] = [...REGISTRY_DETECTORS, ...LOCAL_DETECTORS, 'ensemble'];

export const TADPOLE_DEFAULTS = {
  representation: 'auto',
  dims: 64,
  detector: 'iforest',
  components: 'moore-lewis,distance',
  k: 5,
  generalRatio: 0.1,
  /** knn-ratio's contrast set: at most this many general rows (times |task|). */
  generalSize: 2,
} as const;

/** The method's own options; a registry detector adds its own (tadpoleOwners). */
export const TADPOLE_OPTIONS: readonly OptionDecl[] = [
  { name: 'detector', type: 'choice', default: TADPOLE_DEFAULTS.detector, choices: TADPOLE_DETECTORS, help: 'the anomaly detector (--detector NAME)' },
  ...REPRESENTATION_OPTIONS,
  { name: 'generalRatio', type: 'number', defaultText: `${TADPOLE_DEFAULTS.generalRatio} with a general sample, else 0`, min: 0, help: 'general rows mixed into the detector\'s training rows, as a share of the task rows (--general-ratio)' },
  { name: 'k', type: 'int', default: TADPOLE_DEFAULTS.k, min: 1, help: 'task-knn, knn-ratio: nearest task rows averaged (knn and lof declare their own k) (--k)' },
  { name: 'generalSize', type: 'number', default: TADPOLE_DEFAULTS.generalSize, min: 0, minOpen: true, help: 'knn-ratio: general rows indexed, times the task rows' },
  { name: 'components', type: 'string', default: TADPOLE_DEFAULTS.components, help: 'ensemble: methods or detectors whose z-scores add up (comma separated; name:key=value for their options)' },
];

const TADPOLE_OWNER: OptionOwner = { label: 'method tadpole', options: TADPOLE_OPTIONS };
const tadpoleReader = (options: Record<string, unknown>) => optionReader(TADPOLE_OWNER, options);

function sampleRows(xs: string[], n: number, seed: number): string[] {
  if (xs.length <= n) return xs;
  return new Rng(seed).sample(xs.length, n).map((i) => xs[i] as string);
}

/**
 * Whose options a tadpole fit takes: its own, and the registry detector's. Where the detector
 * declares a name the method also has (k for knn and lof), the name is the detector's alone.
 */
export function tadpoleOwners(detectorDecls: (name: string) => readonly OptionDecl[] | undefined, options: Record<string, unknown>): OptionOwner[] {
  const detector = String(options.detector ?? TADPOLE_DEFAULTS.detector);
  const decls = detectorDecls(detector);
  if (!decls) return [TADPOLE_OWNER];
  const own = TADPOLE_OPTIONS.filter((d) => !decls.some((x) => x.name === d.name));
  return [{ label: 'method tadpole', options: own }, { label: `detector ${detector}`, options: decls }];
}

/** The options handed to a registry detector: the ones it declares. */
function detectorOptions(decls: readonly OptionDecl[], options: Record<string, unknown>): Record<string, unknown> {
  const names = new Set(decls.map((d) => d.name));
  return Object.fromEntries(Object.entries(options).filter(([k]) => names.has(k)));
}

async function fitTadpole(ctx: FitContext): Promise<SelectorJSON> {
  needTask(ctx.task, 'tadpole');
  const o = ctx.options;
  const read = tadpoleReader(o);
  const detector = read.string('detector');
  if (detector === 'ensemble') {
    const components = parseComponents(read.string('components'));
    const shared = Object.fromEntries(['representation', 'dims', 'k'].filter((key) => o[key] !== undefined).map((key) => [key, o[key]]));
    return { method: 'tadpole', params: { detector, components }, state: await fitEnsemble(ctx, components, shared) };
  }
  // A registry detector loads lazily: the kNN detectors need none. Its own k (knn, lof) is the k recorded.
  const registry = (REGISTRY_DETECTORS as readonly string[]).includes(detector) ? await import('../detect/registry.js') : undefined;
  const detectorDecls = registry?.detectorOptions(detector) ?? [];
  const kDecl = detectorDecls.find((d) => d.name === 'k');
  const k = kDecl ? optionReader({ label: `detector ${detector}`, options: [kDecl] }, o).number('k') : read.number('k');
  const kind = parseRepresentation(read.string('representation'));
  const rep = fitRepresentation({ kind, embedder: ctx.embedder, text: [...ctx.task, ...ctx.general], dims: read.number('dims'), seed: ctx.seed });
  const params = { representation: rep.kind, dims: rep.dims, detector, k };
  const state: Record<string, unknown> = { representation: rep.toJSON() };
  const taskX = await rep.embed(ctx.task);
  if (detector === 'task-knn' || detector === 'knn-ratio') {
    const ix = buildTaskIndex(taskX, ctx.task.length, rep.dims, ctx.seed);
    state.task = storeIndex(ix);
    ix.dispose();
    if (detector === 'knn-ratio') {
      if (ctx.general.length === 0) throw new TadpoleError('TADPOLE_USAGE', 'tadpole detector knn-ratio needs a general sample (--general FILE)');
      const size = Math.ceil(read.number('generalSize') * ctx.task.length);
      const gen = sampleRows(ctx.general, size, ctx.seed + 1);
      const gx = buildTaskIndex(await rep.embed(gen), gen.length, rep.dims, ctx.seed + 1);
      state.general = storeIndex(gx);
      gx.dispose();
    }
    return { method: 'tadpole', params, state };
  }
  // Algorithm 1: train on task rows plus a general sample of ratio * |task| rows.
  const ratio = read.maybeNumber('generalRatio') ?? (ctx.general.length > 0 ? TADPOLE_DEFAULTS.generalRatio : 0);
  const gen = sampleRows(ctx.general, Math.round(ratio * ctx.task.length), ctx.seed + 1);
  const genX = gen.length > 0 ? await rep.embed(gen) : new Float32Array(0);
  const X = new Float32Array(taskX.length + genX.length);
  X.set(taskX);
  X.set(genX, taskX.length);
  if (!registry) throw new TadpoleError('TADPOLE_USAGE', `unknown detector "${detector}"`);
  const det = registry.createDetector(detector, { seed: ctx.seed, ...detectorOptions(detectorDecls, o) });
  det.fit(X, ctx.task.length + gen.length, rep.dims);
  state.detector = det.toJSON();
  return { method: 'tadpole', params: { ...params, generalRatio: ratio }, state };
}

class DetectorScorer implements SentenceScorer {
  readonly method = 'tadpole';
  constructor(private readonly rep: Representation, private readonly det: Detector) {}
  async score(sentences: string[]): Promise<Float64Array> {
    return Float64Array.from(this.det.score(await this.rep.embed(sentences), sentences.length));
  }
  async dispose(): Promise<void> {}
}

class KnnScorer implements SentenceScorer {
  readonly method = 'tadpole';
  constructor(private readonly rep: Representation, private readonly task: VectorIndex, private readonly general: VectorIndex | undefined, private readonly k: number) {}
  async score(sentences: string[]): Promise<Float64Array> {
    const X = await this.rep.embed(sentences);
    const n = sentences.length;
    const simTask = meanTopKSimilarity(this.task, X, n, this.k);
    const simGen = this.general ? meanTopKSimilarity(this.general, X, n, this.k) : new Float64Array(n).fill(1);
    return Float64Array.from(simTask, (s, i) => (simGen[i] as number) - s);
  }
  async dispose(): Promise<void> {
    this.task.dispose();
    this.general?.dispose();
  }
}

export const tadpoleSelector: SelectorFactory = {
  method: 'tadpole',
  summary: 'the paper\'s method: sentence vectors + anomaly detector (--detector, iforest)',
  explain:
    "tadpole (the paper's method): turns each sentence into a vector (the embedder, or LSA)\n" +
    "and fits an anomaly detector on the task's vectors; it keeps the sentences the detector\n" +
    'finds normal, that is, like the task.',
  options: TADPOLE_OPTIONS,
  needsEmbedder: false,
  needsGeneral: false,
  fit: fitTadpole,
  async load(json, ctx): Promise<SentenceScorer> {
    const detector = String(json.params.detector);
    // The default's model files from before it was named contrast.
    if (detector === 'auto') return loadAuto(json.state, ctx);
    if (detector === 'ensemble') return loadEnsemble(json.state, ctx);
    const rep = loadRepresentation(json.state.representation as Record<string, unknown>, ctx.embedder);
    if ((LOCAL_DETECTORS as readonly string[]).includes(detector)) {
      const k = tadpoleReader(ctx.options).maybeNumber('k') ?? Number(json.params.k ?? TADPOLE_DEFAULTS.k);
      const general = json.state.general ? restoreIndex(json.state.general as StoredIndex) : undefined;
      return new KnnScorer(rep, restoreIndex(json.state.task as StoredIndex), general, k);
    }
    const { detectorFromJSON } = await import('../detect/registry.js');
    const stored = json.state.detector as DetectorJSON | undefined;
    // A detector fitted on vectors of another width would score garbage (or refuse every batch as bad input).
    if (stored?.state?.dims !== rep.dims) throw new TadpoleError('TADPOLE_MODEL', `model file is damaged: detector "dims" is ${JSON.stringify(stored?.state?.dims) ?? 'missing'}, its vectors have ${rep.dims}; refit the model or restore the file`);
    return new DetectorScorer(rep, detectorFromJSON(stored as DetectorJSON));
  },
};
