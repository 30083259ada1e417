/**
 * Models fitted without a general sample: the corpus being filtered is the background.
 *
 * `tadpole fit --task T` (no --general) for a method that contrasts the task with general
 * text does not fit yet: it stores the task sentences (`deferFit`). Before pass 1,
 * `tadpole filter` draws a seeded sample of the corpus it filters (io/sample.ts) and
 * `completeModel` re-runs the method's own fit with that sample as the general side. The
 * result is an ordinary model plus the sample's fingerprint, so one function serves every
 * method, and a run directory can keep the completed model for --resume and shards.
 */
import type { KeepBy } from '../cut/exact.js';
import { TadpoleError } from '../core/errors.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { SentenceSample } from '../io/sample.js';
import type { ChooseAside } from '../select/choice.js';
import { canonicalMethod, checkMethodOptions, resolveMethod, selectorFactory } from '../select/registry.js';
import { MODEL_FORMAT, MODEL_VERSION, type ModelFile } from './file.js';
import { checkAvoid, fitModel, selfTrains, type FitOptions } from './fit.js';
import { describeUnread } from './unread-options.js';

export { selfTrains };

/**
 * Does a fit without a general sample wait for the corpus? Methods that need general text
 * (the default, contrast; dsir, moore-lewis, distance) do; the paper's method (tadpole: a
 * detector fitted on the task alone) and methods that ignore general text (random, knn-tapt)
 * fit at once.
 */
export function completesFromCorpus(method: string, options: Record<string, unknown>): boolean {
  return selectorFactory(resolveMethod(method, options).method).needsGeneral;
}

/**
 * The method a waiting model is completed with. Before the default had a name, its waiting
 * models said method tadpole with no detector (or detector auto): those are contrast.
 */
export function completionMethod(model: ModelFile): { method: string; options: Record<string, unknown> } {
  const options = model.fit.options;
  if (canonicalMethod(model.method) === 'tadpole' && (options.detector === undefined || options.detector === 'auto')) return resolveMethod(undefined, { ...options, detector: 'auto' });
  return resolveMethod(model.method, options);
}

/** True for a model that still waits for its corpus sample. */
export function needsCompletion(model: ModelFile): boolean {
  return !!model.completion && !model.completion.sample && !model.selector;
}

/** The model file of a fit deferred to filter time: method, options, seed, task sentences. */
export function deferFit(opts: Omit<FitOptions, 'general' | 'generalFiles'> & { sampleSize: number }): ModelFile {
  // An unknown method or option: the usual error now, not at filter time.
  const resolved = resolveMethod(opts.method, opts.options);
  const method = resolved.method;
  // A waiting tadpole model names its detector: one without says the default (completionMethod).
  const options = method === 'tadpole' && resolved.options.detector === undefined ? { ...resolved.options, detector: 'iforest' } : resolved.options;
  checkMethodOptions(method, options);
  if (opts.task.length === 0) throw new TadpoleError('TADPOLE_INPUT', 'the task data holds no sentences: check --task files and --format/--text-field');
  if (!(Number.isInteger(opts.sampleSize) && opts.sampleSize > 0)) throw new TadpoleError('TADPOLE_USAGE', `deferFit: sampleSize (the general sentences filter samples from the corpus to complete the model) must be a positive integer, got ${String(opts.sampleSize)}`);
  checkAvoid(method, options, !!opts.avoid?.length);
  const embedder = opts.embedder ? Object.fromEntries(Object.entries(opts.embedder).filter(([k, v]) => k !== 'log' && v !== undefined)) : undefined;
  return {
    format: MODEL_FORMAT,
    version: MODEL_VERSION,
    method,
    embedder: null,
    fit: { seed: opts.seed, options },
    counts: {
      taskSentences: opts.task.length,
      generalSentences: 0,
      taskFiles: opts.taskFiles ?? [],
      generalFiles: [],
      ...(opts.avoid?.length ? { avoidSentences: opts.avoid.length, avoidFiles: opts.avoidFiles ?? [] } : {}),
    },
    completion: { task: opts.task, ...(opts.avoid?.length ? { avoid: opts.avoid } : {}), sampleSize: opts.sampleSize, ...(embedder ? { embedder } : {}) },
  };
}

/** Task sentences a deferred fit's trial uses (checkDeferredOptions). */
const TRIAL_SENTENCES = 200;

/**
 * A deferred fit reads its options only when filter completes it, where a bad value would stop
 * a nightly run hours in. So fit now on a slice of the task against itself, a trial whose model
 * is thrown away: a bad value fails here with the message filter would give (exit 2), and an
 * option the fit never reads is said. Other trial errors are the slice's, not the options', and
 * are left to the real fit.
 */
export async function checkDeferredOptions(opts: Omit<FitOptions, 'general' | 'generalFiles' | 'generalGroups'>): Promise<void> {
  const slice = opts.task.slice(0, TRIAL_SENTENCES);
  let unread: string[] = [];
  try {
    await fitModel({
      method: opts.method,
      task: slice,
      general: slice,
      seed: opts.seed,
      options: opts.options,
      ...(opts.embedder ? { embedder: opts.embedder } : {}),
      ...(opts.avoid?.length ? { avoid: opts.avoid.slice(0, TRIAL_SENTENCES) } : {}),
      onUnreadOptions: (keys) => (unread = keys),
    });
  } catch (err) {
    if (err instanceof TadpoleError && err.code === 'TADPOLE_USAGE') throw err;
    return;
  }
  if (unread.length) {
    const { method, options } = resolveMethod(opts.method, opts.options);
    opts.log?.(describeUnread(method, unread, options));
  }
}

/**
 * Under this share kept, the general sample grows as the share falls (asked x this / keep
 * sentences), so that it holds as many sentences of the kind kept as it does at this share: 500
 * of the default 20,000. Where the task's domain is scarce (a percent of the corpus or less), the
 * sample that serves a keep of 20% holds a hundred of them and too few of the rare kinds of other
 * text that the cut's narrow tail is made of: on the scarce suite (keep = the domain's share,
 * 0.7-1.9%) every mix but one gained (docs/research.md, "Scarce domains").
 */
export const SAMPLE_FULL_KEEP = 0.025;
/** ... up to this many times the size asked: every fit of the completion is on the whole sample. */
export const SAMPLE_MAX_GROWTH = 5;

/** The general sample to draw when `asked` sentences were asked for and `keep` will be kept. */
export function sampleSizeFor(asked: number, keep: number | undefined): number {
  if (keep === undefined || !(keep > 0 && keep < SAMPLE_FULL_KEEP)) return asked;
  return Math.ceil(asked * Math.min(SAMPLE_MAX_GROWTH, SAMPLE_FULL_KEEP / keep));
}

export interface CompleteOptions {
  /** Filter-time embedder overrides (model folder, device, batch size). */
  embedder?: Partial<EmbedderSpec> | undefined;
  /**
   * The share the filter keeps: the default's self-training moves a quarter of it per round
   * (select/self-training.ts), unless the fit named `keep` or `expand` itself.
   */
  keep?: number | undefined;
  /** The unit of `keep` (filter's --keep-by): the moves are sized in it. */
  keepBy?: KeepBy | undefined;
  log?: ((line: string) => void) | undefined;
  /** The default's held-out measure, run on another thread while the self-training goes on. */
  chooseAside?: ChooseAside | undefined;
}

/**
 * The fit options with the share to keep added, which sizes the self-training (filter's
 * --keep, an eval spec's keep); unchanged for a method that does not self-train, or a fit
 * that named `keep` or `expand` itself.
 */
export function optionsWithKeep(method: string, options: Record<string, unknown>, keep: number | undefined, keepBy?: KeepBy): Record<string, unknown> {
  // Keeping nothing or everything sizes nothing: the moves keep their default size.
  if (keep === undefined || !(keep > 0 && keep < 1) || !selfTrains(method, options) || options.keep !== undefined || options.expand !== undefined) return options;
  return keepBy === undefined || options.keepBy !== undefined ? { ...options, keep } : { ...options, keep, keepBy };
}

/**
 * The method's own fit, re-run on the stored task sentences with `sample` as the general
 * sample (same method, options and seed). The completed model records the sample's
 * fingerprint and drops the task sentences (and those to avoid).
 */
export async function completeModel(model: ModelFile, sample: SentenceSample, opts: CompleteOptions = {}): Promise<ModelFile> {
  const c = model.completion;
  if (!c || !c.task || !needsCompletion(model)) throw new TadpoleError('TADPOLE_INTERNAL', 'completeModel: the model does not wait for completion');
  if (sample.sentences.length === 0) {
    throw new TadpoleError('TADPOLE_INPUT', 'the corpus gave no sentences to complete the model with (is it empty, or read with the wrong --format/--text-field?)');
  }
  // The embedder named at fit time; on this machine its files may live elsewhere and run on
  // another device (those overrides apply), while what it computes (dims, pooling) is fixed:
  // a filter-time --dims that differs is refused by openScorer's fingerprint check.
  const named = c.embedder as Partial<EmbedderSpec> | undefined;
  const local: Partial<EmbedderSpec> = {};
  for (const k of ['modelDir', 'onnxFile', 'device', 'batchSize', 'threads'] as const) {
    if (opts.embedder?.[k] !== undefined) (local as Record<string, unknown>)[k] = opts.embedder[k];
  }
  const embedder = named ? ({ ...named, ...local, kind: named.kind } as EmbedderSpec) : undefined;
  const asked = completionMethod(model);
  const options = optionsWithKeep(asked.method, asked.options, opts.keep, opts.keepBy);
  const fitted = await fitModel({
    method: asked.method,
    task: c.task,
    general: sample.sentences,
    generalGroups: sample.groups,
    ...(embedder ? { embedder } : {}),
    seed: model.fit.seed,
    options,
    taskFiles: model.counts.taskFiles,
    generalFiles: [],
    ...(c.avoid?.length ? { avoid: c.avoid, avoidFiles: model.counts.avoidFiles ?? [] } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.chooseAside ? { chooseAside: opts.chooseAside } : {}),
  });
  return {
    ...fitted,
    completion: {
      sampleSize: c.sampleSize,
      sample: {
        fingerprint: sample.fingerprint,
        sentences: sample.sentences.length,
        size: sample.size,
        seed: sample.seed,
        sampler: sample.sampler,
        bytesRead: sample.bytesRead,
        documents: sample.documents,
      },
    },
  };
}
