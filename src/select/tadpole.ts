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
 * - detector = 'auto' (the default, auto.ts): the z-score ensemble of the task-vs-corpus
 *   classifier and DSIR, measured on held-out task and corpus sentences (AUROC stored, warned
 *   when near random). Chosen on the selection suite (corpora/suite, docs/benchmarks/selection-suites.md)
 *   by the minimum over its mixes among scorers costing at most 2x `random`, and as the hedge against one recipe collapsing on a
 *   task (see AUTO_DEFAULTS); the Moore-Lewis + distance ensemble below, the default before,
 *   had a lower minimum and costs 9x.
 * - detector = 'ensemble': the sum of the components' scores (default Moore-Lewis +
 *   distance on the fitted LSA), each z-normalised on the general sample at fit time
 *   (ensemble.ts); best on the two tuned Figure-5 mixes (99.1% Bio / 99.0% CS).
 * Without a general sample the default is task-knn (nothing to contrast the task with).
 * The paper's setting stays: --detector iforest with an embedder (--embedder onnx --model-dir DIR).
 */
import { Rng } from '../core/rng.js';
import { TadpoleError } from '../core/errors.js';
import type { Detector, DetectorJSON } from '../detect/detector.js';
import type { VectorIndex } from '../detect/hnsw.js';
import { fitAuto, loadAuto } from './auto.js';
import { fitEnsemble, loadEnsemble, parseComponents } from './ensemble.js';
import { intOpt, needTask, numOpt, strOpt } from './options.js';
import { buildTaskIndex, meanTopKSimilarity, restoreIndex, storeIndex, type StoredIndex } from './knn.js';
import { fitRepresentation, loadRepresentation, parseRepresentation, type Representation } from './representation.js';
import type { FitContext, SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

const LOCAL_DETECTORS = ['task-knn', 'knn-ratio'] as const;
/** Options the selector consumes itself; the rest go to the registry detector. */
const OWN_OPTIONS = ['representation', 'dims', 'detector', 'generalRatio', 'k', 'generalSize', 'components', 'candidates', 'holdout'];

export const TADPOLE_DEFAULTS = {
  representation: 'auto',
  dims: 64,
  detector: 'auto',
  components: 'moore-lewis,distance',
  detectorWithoutGeneral: 'task-knn',
  k: 5,
  generalRatio: 0.1,
  /** knn-ratio's contrast set: at most this many general rows (times |task|). */
  generalSize: 2,
} as const;

function sampleRows(xs: string[], n: number, seed: number): string[] {
  if (xs.length <= n) return xs;
  return new Rng(seed).sample(xs.length, n).map((i) => xs[i] as string);
}

function detectorOptions(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([k]) => !OWN_OPTIONS.includes(k)));
}

async function fitTadpole(ctx: FitContext): Promise<SelectorJSON> {
  needTask(ctx.task, 'tadpole');
  const o = ctx.options;
  // The ensemble contrasts task with general text; without a general sample: task-knn.
  const detector = strOpt(o, 'detector', ctx.general.length > 0 ? TADPOLE_DEFAULTS.detector : TADPOLE_DEFAULTS.detectorWithoutGeneral);
  if (detector === 'auto') {
    const auto = await fitAuto(ctx);
    return { method: 'tadpole', params: { detector, ...auto.params }, state: auto.state };
  }
  if (detector === 'ensemble') {
    const components = parseComponents(o.components ?? TADPOLE_DEFAULTS.components);
    const shared = Object.fromEntries(['representation', 'dims', 'k'].filter((key) => o[key] !== undefined).map((key) => [key, o[key]]));
    return { method: 'tadpole', params: { detector, components }, state: await fitEnsemble(ctx, components, shared) };
  }
  const k = intOpt(o, 'k', TADPOLE_DEFAULTS.k);
  const kind = parseRepresentation(o.representation ?? TADPOLE_DEFAULTS.representation);
  const rep = fitRepresentation({ kind, embedder: ctx.embedder, text: [...ctx.task, ...ctx.general], dims: intOpt(o, 'dims', TADPOLE_DEFAULTS.dims), seed: ctx.seed });
  const params = { representation: rep.kind, dims: rep.dims, detector, k };
  const state: Record<string, unknown> = { representation: rep.toJSON() };
  const taskX = await rep.embed(ctx.task);
  if (detector === 'task-knn' || detector === 'knn-ratio') {
    const ix = buildTaskIndex(taskX, ctx.task.length, rep.dims, ctx.seed);
    state.task = storeIndex(ix);
    ix.dispose();
    if (detector === 'knn-ratio') {
      if (ctx.general.length === 0) throw new TadpoleError('TADPOLE_USAGE', 'tadpole detector knn-ratio needs a general sample (--general FILE)');
      const size = Math.ceil(numOpt(o, 'generalSize', TADPOLE_DEFAULTS.generalSize, (v) => v > 0) * ctx.task.length);
      const gen = sampleRows(ctx.general, size, ctx.seed + 1);
      const gx = buildTaskIndex(await rep.embed(gen), gen.length, rep.dims, ctx.seed + 1);
      state.general = storeIndex(gx);
      gx.dispose();
    }
    return { method: 'tadpole', params, state };
  }
  // Algorithm 1: train on task rows plus a general sample of ratio * |task| rows.
  const ratio = numOpt(o, 'generalRatio', ctx.general.length > 0 ? TADPOLE_DEFAULTS.generalRatio : 0, (v) => v >= 0);
  const gen = sampleRows(ctx.general, Math.round(ratio * ctx.task.length), ctx.seed + 1);
  const genX = gen.length > 0 ? await rep.embed(gen) : new Float32Array(0);
  const X = new Float32Array(taskX.length + genX.length);
  X.set(taskX);
  X.set(genX, taskX.length);
  // Loaded lazily: the kNN detectors need no registry detector.
  const { createDetector } = await import('../detect/registry.js');
  const det = createDetector(detector, { seed: ctx.seed, ...detectorOptions(o) });
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
  summary: 'TADPOLE: detector over task vs general text; default: auto (z-score ensemble of the task-vs-corpus classifier and DSIR, held-out AUROC checked; completed from the corpus at filter time without --general); --detector iforest for the paper',
  needsEmbedder: false,
  needsGeneral: false,
  fit: fitTadpole,
  async load(json, ctx): Promise<SentenceScorer> {
    const detector = String(json.params.detector);
    if (detector === 'auto') return loadAuto(json.state, ctx);
    if (detector === 'ensemble') return loadEnsemble(json.state, ctx);
    const rep = loadRepresentation(json.state.representation as Record<string, unknown>, ctx.embedder);
    if ((LOCAL_DETECTORS as readonly string[]).includes(detector)) {
      const k = intOpt(ctx.options, 'k', Number(json.params.k ?? TADPOLE_DEFAULTS.k));
      const general = json.state.general ? restoreIndex(json.state.general as StoredIndex) : undefined;
      return new KnnScorer(rep, restoreIndex(json.state.task as StoredIndex), general, k);
    }
    const { detectorFromJSON } = await import('../detect/registry.js');
    return new DetectorScorer(rep, detectorFromJSON(json.state.detector as DetectorJSON));
  },
};
