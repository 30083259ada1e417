import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { defined } from '../core/defined.js';
import { TadpoleError } from '../core/errors.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import { expandInputs } from '../io/inputs/expand.js';
import { readSentences } from '../io/sentences.js';
import { checkDeferredOptions, completesFromCorpus, deferFit, SAMPLE_FULL_KEEP, sampleSizeFor, selfTrains } from '../model/complete.js';
import { explainFit } from '../model/explain.js';
import { writeModel } from '../model/file.js';
import { checkAvoid, fitModel } from '../model/fit.js';
import { avoidShareOf, avoidTarget } from '../select/avoid.js';
import { checkMethodOptions, resolveMethod } from '../select/registry.js';
import { chooseOnThread, measuresAside } from '../threads/choice-thread.js';
import { fitOffThread, plainData, startFitter, type Fitter } from '../threads/corpus-completion.js';
import { throwIfAborted } from '../core/interrupt.js';
import type { EmbedderSpec as Spec } from '../embed/factory.js';
import { workersFor } from '../threads/pool.js';
import { fitStep, PhaseProgress, readingProgress } from '../passes/progress.js';
import { sampleSentencesOn } from '../threads/split-pool.js';

/**
 * Under this many task sentences fit warns. The paper's smallest task set (ChemProt train,
 * ~4k sentences) is far above it; 50 is where a held-out 10% (rank) is down to five sentences.
 */
const FEW_TASK_SENTENCES = 50;

export interface FitModelFileOptions {
  /** Task files, expanded (io/inputs/expand.ts); `-` is stdin. */
  taskFiles: string[];
  /** General files to sample; none: a method that can defers its fit to the corpus filter reads. */
  generalFiles: string[];
  /** Text not to keep (the default's fit only), as given: expanded after the checks on the method. */
  avoid: string[];
  reader: ReaderOptions;
  /** A method name as asked (undefined: contrast, or tadpole when options name a detector). */
  method: string | undefined;
  /** The method's options as given (`--option`, and the flags that stand for one). */
  given: Record<string, unknown>;
  /** The share the filter will keep, which sizes the default's self-training. */
  keep?: number;
  /** How many general sentences to sample (seeded). */
  sampleSize: number;
  seed: number;
  embedder?: EmbedderSpec;
  /** Threads; undefined: one per 40 MB of general files for the split, the cores for the held-out measure. */
  workers?: number;
  /** The model file to write. */
  output: string;
  /** Also every step of the fit (its choice, each self-training round) on `log`; its warnings always. */
  verbose?: boolean;
  /** The lines said on the way: warnings start with `warning:`. */
  log: (line: string) => void;
  /** A progress line (redrawn in place), and the end of the last one. */
  progress?: { line: (line: string) => void; end: () => void };
  /** What `-` reads (default: process.stdin). */
  stdin?: Readable;
  /** SIGINT/SIGTERM/SIGHUP (the CLI): the fit then runs on a worker thread, ended at once by an abort (throws Interrupted); no model is written. */
  signal?: AbortSignal;
}

export interface FitModelFileResult {
  method: string;
  options: Record<string, unknown>;
  /** The model file written. */
  output: string;
  task: number;
  general: number;
  /** Sentences to avoid that were read (undefined: no --avoid). */
  avoid?: number;
  /** No general sample: the filter completes the model from this many of its corpus's sentences (more when its keep is under largerUnderKeep). */
  deferred?: { sampleSize: number; largerUnderKeep: number };
  /** What the method does, in words (select/*.ts `explain`). */
  explanation: string[];
}

/**
 * Fits a model on task text (and a seeded sample of general text, or later the corpus the
 * filter reads) and writes the model file: what `tadpole fit` does. Every check that needs no
 * text runs before any is read.
 */
export async function fitModelFile(o: FitModelFileOptions): Promise<FitModelFileResult> {
  // No method: contrast, or tadpole when a detector is named; `auto` is contrast's older name.
  const { method, options } = resolveMethod(o.method, o.given);
  if (o.keep !== undefined) {
    if (!(o.keep > 0 && o.keep < 1)) throw new TadpoleError('TADPOLE_USAGE', `--keep must be a share between 0 and 1, got ${o.keep}`);
    if (!selfTrains(method, options)) throw new TadpoleError('TADPOLE_USAGE', `--keep sizes the self-training of the default fit (contrast) only; ${method}${options.detector ? ` --detector ${String(options.detector)}` : ''} does not self-train`);
    options.keep = o.keep;
  }
  // An unknown option fails now, with a suggestion, before any text is read.
  checkMethodOptions(method, options);
  const { taskFiles, generalFiles } = o;
  const avoidFiles = expandInputs(o.avoid);
  // Refused before any text is read: only the default's fit weighs text to avoid.
  checkAvoid(method, options, avoidFiles.length > 0);
  if (avoidFiles.includes(STDIN) && taskFiles.includes(STDIN)) throw new TadpoleError('TADPOLE_USAGE', 'stdin (-) can feed --task or --avoid, not both');
  // With a signal to answer, the fit's seconds of synchronous work run on a thread of their
  // own, started now so that it loads its modules while this one reads the text.
  const defers = generalFiles.length === 0 && completesFromCorpus(method, options);
  const fitter = o.signal && !defers ? startFitter() : undefined;
  try {
    return await readAndFit(o, method, options, avoidFiles, defers, fitter);
  } finally {
    void fitter?.worker.terminate();
  }
}

async function readAndFit(o: FitModelFileOptions, method: string, options: Record<string, unknown>, avoidFiles: string[], defers: boolean, fitter: Fitter | undefined): Promise<FitModelFileResult> {
  const { reader, seed, log, taskFiles, generalFiles } = o;
  const ro = { stdin: o.stdin };
  // The fit's own steps only when verbose; its warnings always.
  const phase: { fitting?: PhaseProgress } = {};
  const detail = (line: string): void => {
    phase.fitting?.atRound(line);
    if (line.startsWith('warning:') || o.verbose) log(line);
  };
  const task = await readSentences(taskFiles, reader, ro);
  const merged = mergedLinesHint(task, reader);
  if (merged) log(`warning: ${merged}`);
  if (task.length > 0 && task.length < FEW_TASK_SENTENCES) {
    log(`warning: the task has only ${task.length} sentence${task.length === 1 ? '' : 's'} (under ${FEW_TASK_SENTENCES}); a model fitted on so few says little about what task text looks like: give more task text if you have it`);
  }
  const sampleSize = o.sampleSize;
  // The fit weighs at most avoidShare x the sample of them (select/avoid.ts), so a large
  // avoid file is read as a seeded sample of that many, never held whole.
  const avoidCap = avoidFiles.length ? avoidTarget(avoidShareOf(options), sampleSize) : 0;
  const avoid = avoidFiles.length ? await readSentences(avoidFiles, { ...reader, limit: avoidCap, seed }, ro) : undefined;
  if (avoid && avoid.length === 0) throw new TadpoleError('TADPOLE_INPUT', `the --avoid files hold no sentences: check ${avoidFiles.join(', ')} and --format/--text-field`);
  if (avoid && avoid.length === avoidCap) log(`--avoid: a seeded ${avoidCap} of its sentences (as many as the fit can weigh: avoidShare x --general-sample)`);
  // Explained once the fit is written, from the options it ran with.
  const done = (general: number): Omit<FitModelFileResult, 'deferred'> => ({ method, options, output: o.output, task: task.length, general, ...defined({ avoid: avoid?.length }), explanation: explainFit(method, options) });
  if (defers) {
    // No general sample: the corpus being filtered will be the background (model/complete.ts).
    // Its options are tried now, so a bad one fails the fit and not the nightly filter.
    const asked = { method, task, embedder: o.embedder, seed, options, avoid, avoidFiles };
    await checkDeferredOptions({ ...asked, log });
    writeModel(o.output, deferFit({ ...asked, taskFiles, sampleSize }));
    return { ...done(0), deferred: { sampleSize, largerUnderKeep: SAMPLE_FULL_KEEP } };
  }
  let general: string[] = [];
  let generalGroups: Uint32Array | undefined;
  const progress = o.progress?.line;
  if (generalFiles.length > 0) {
    // A keep under 2.5% asks for a larger sample, as filter's completion does (model/complete.ts).
    const size = sampleSizeFor(sampleSize, typeof options.keep === 'number' ? options.keep : undefined);
    const reading = readingProgress('fit: sample --general', generalFiles, progress);
    const sample = await sampleSentencesOn(workersFor(o.workers, generalFiles), generalFiles, reader, { size, seed }, { ...ro, counters: reading.counters }).finally(reading.stop);
    general = sample.sentences;
    generalGroups = sample.groups;
    log(`general sample: ${general.length} sentences (${sample.sampler === 'seek' ? `${sample.draws} seeks` : 'one pass'}, ${(sample.bytesRead / 1e6).toFixed(1)} MB read), fingerprint ${sample.fingerprint}`);
    if (sample.differs) log(sample.differs);
  }
  throwIfAborted(o.signal);
  phase.fitting = new PhaseProgress('fit', progress, fitStep(general.length, task.length));
  const asked = {
    method,
    task,
    general,
    generalGroups,
    embedder: o.embedder,
    seed,
    options,
    taskFiles,
    generalFiles,
    avoid,
    avoidFiles,
  };
  // The held-out measure does not hold up the self-training when another core is free.
  const aside = measuresAside(o.workers === undefined ? availableParallelism() : workersFor(o.workers, undefined));
  const fitted = fitter && o.signal
    ? fitOffThread(fitter, { fit: { ...asked, embedder: o.embedder ? (plainData(o.embedder) as Spec) : undefined, measureAside: aside } }, detail, o.signal)
    : fitModel({ ...asked, log: detail, chooseAside: aside ? chooseOnThread : undefined });
  const model = await fitted.finally(() => {
    phase.fitting?.stop();
    o.progress?.end();
  });
  throwIfAborted(o.signal);
  writeModel(o.output, model);
  return done(general.length);
}

/**
 * Plain text is read as documents of sentences: lines with no final stop run together into
 * one sentence. Hard-wrapped prose does that too, but its sentences still end with a stop; a
 * task of one item per line without stops (titles, snippets) gives merged "sentences" that
 * do not. When most merged sentences are of that kind, say which flag reads the lines apart,
 * whatever the file's length: three titles merged into one sentence are as wrong as three hundred.
 */
function mergedLinesHint(sentences: string[], reader: { format: string; docPerLine?: boolean }): string | undefined {
  if (reader.docPerLine || (reader.format !== 'auto' && reader.format !== 'text')) return undefined;
  let lines = 0;
  let merged = 0;
  let stopless = 0;
  for (const s of sentences) {
    const t = s.trim();
    const breaks = t.match(/\n/g)?.length ?? 0;
    lines += 1 + breaks;
    if (breaks === 0) continue;
    merged++;
    if (!/[.!?…:;"'”’)\]]$/.test(t)) stopless++;
  }
  if (merged === 0 || stopless < 0.5 * merged) return undefined;
  return `the task's ${lines} lines were read as ${sentences.length} sentence${sentences.length === 1 ? '' : 's'}: lines without a final stop run together; if each line is one sentence or item, add --doc-per-line`;
}
