import { existsSync, type WriteStream } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { TadpoleError, type TadpoleErrorCode } from '../core/errors.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { KeepBy } from '../cut/exact.js';
import type { ReaderOptions } from '../io/documents.js';
import { resolveInputs, type InputKind } from '../io/input-kind.js';
import { defined } from '../core/defined.js';
import { completeModel, needsCompletion, sampleSizeFor, type CompleteOptions } from '../model/complete.js';
import { sampleKinds, type SentenceSample } from '../io/sample.js';
import type { CompletionJob, CompletionReply, FitJob } from './complete-protocol.js';
import type { ModelFile } from '../model/file.js';
import { startWorker } from './pool.js';
import { chooseOnThread, measuresAside } from './choice-thread.js';
import { abortedBy, Interrupted, throwIfAborted } from '../core/interrupt.js';
import type { CompletionInfo } from '../passes/run-options.js';
import { fitStep, PhaseProgress, readingProgress } from '../passes/progress.js';

export type { CompletionInfo };

export interface CorpusCompletion {
  model: ModelFile;
  /** Undefined when the model needed no completion. */
  info?: CompletionInfo;
  /** stdin was copied whole to the spool by the sampling: the spool's kind (src/io/input-kind.ts). */
  spooled?: InputKind;
}

export interface CompleteFromCorpusOptions {
  stdin?: Readable | undefined;
  /** stdin's bytes are copied here by the sampling pass (it is the only one to see them). */
  spool?: WriteStream | undefined;
  embedder?: Partial<EmbedderSpec> | undefined;
  log?: ((line: string) => void) | undefined;
  /** The fit's own lines (its choice, every self-training round, warnings); default: log. */
  detail?: ((line: string) => void) | undefined;
  /** SIGINT/SIGTERM: the fit then runs on a worker thread, ended at once by an abort (throws Interrupted). */
  signal?: AbortSignal | undefined;
  /** Threads the run may use (default 1): with 2 or more (and a core to spare), the default's held-out measure runs on one of its own. */
  workers?: number | undefined;
  /** The share the filter keeps (sizes the default's self-training; model/complete.ts). */
  keep?: number | undefined;
  /** The unit of `keep`, in which the self-training's moves are sized. */
  keepBy?: KeepBy | undefined;
  /** One-line progress for a terminal: the sampling (MB, rate, ETA) and the fit (its step, seconds). */
  progress?: ((line: string) => void) | undefined;
}

function mb(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * A model fitted without --general, completed from a seeded sample of `inputs` (the
 * corpus about to be filtered); any other model is returned as it is.
 */
export async function completeFromCorpus(model: ModelFile, inputs: readonly string[], reader: ReaderOptions, opts: CompleteFromCorpusOptions = {}): Promise<CorpusCompletion> {
  if (!needsCompletion(model)) return { model };
  // Each input's kind is decided here, once, at the library's entry (src/io/input-kind.ts).
  return completeFromKinds(model, resolveInputs(inputs, reader.format), reader, opts);
}

/** completeFromCorpus of inputs already resolved, as a run completes its model. */
export async function completeFromKinds(model: ModelFile, inputs: readonly InputKind[], reader: ReaderOptions, opts: CompleteFromCorpusOptions = {}): Promise<CorpusCompletion> {
  if (!needsCompletion(model)) return { model };
  const t0 = performance.now();
  // A small share to keep asks for a larger sample (model/complete.ts, sampleSizeFor).
  const size = sampleSizeFor(model.completion!.sampleSize, opts.keep);
  const seed = model.fit.seed;
  const ro = { stdin: opts.stdin, spool: opts.spool };
  // With a signal to answer (the CLI), the fit runs on a worker thread: seconds of
  // synchronous work there leave this thread free to stop at once on Ctrl-C. Started now, it
  // loads its modules while this thread samples.
  const fitter = opts.signal ? startFitter() : undefined;
  let sample: SentenceSample;
  const reading = readingProgress('complete: sample the corpus', inputs, opts.progress);
  try {
    // Split in this thread: threads do not pay there. The reservoir pass of a 30 MB JSONL took
    // 1.35-1.67 s split on a pool against 1.12-1.20 s here, and of 300 MB of gzip 5.5-5.6 s
    // against 5.3-5.9 s (reading, decompressing and parsing bound it, all on this thread).
    sample = await sampleKinds(inputs, reader, { size, seed }, { ...ro, counters: reading.counters });
  } catch (err) {
    void fitter?.worker.terminate();
    throw err;
  } finally {
    reading.stop();
  }
  const how = sample.sampler === 'seek'
    ? `seeking to ${sample.draws} random offsets, ${mb(sample.bytesRead)} read`
    : `one reservoir pass over ${mb(sample.bytesRead)}, as ${sample.readWhole ?? 'the corpus'} is read whole`;
  opts.log?.(`model fitted without --general: completing ${model.method} from the corpus: ${sample.sentences.length} sentences of ${sample.documents} documents (seed ${seed}; ${how}); sample fingerprint ${sample.fingerprint}`);
  if (sample.sentences.length < size) opts.log?.(`the corpus gave ${sample.sentences.length} of the ${size} sentences asked for`);
  if (sample.differs) opts.log?.(sample.differs);
  if (opts.signal?.aborted) void fitter?.worker.terminate();
  throwIfAborted(opts.signal);
  const told = opts.detail ?? opts.log;
  const fitting = new PhaseProgress('complete: fit', opts.progress, fitStep(sample.sentences.length, model.completion?.task?.length ?? 0));
  const detail = opts.progress || told
    ? (line: string) => {
        fitting.atRound(line);
        told?.(line);
      }
    : undefined;
  // Another thread takes the default's held-out measure while the self-training runs.
  const completeOpts: CompleteOptions = { embedder: opts.embedder, keep: opts.keep, keepBy: opts.keepBy, log: detail, chooseAside: measuresAside(opts.workers ?? 1) ? chooseOnThread : undefined };
  let completed: ModelFile;
  try {
    completed = fitter && opts.signal ? await completeOffThread(fitter, model, sample, completeOpts, opts.signal) : await completeModel(model, sample, completeOpts);
  } finally {
    fitting.stop();
  }
  throwIfAborted(opts.signal);
  return { model: completed, info: { ...completed.completion!.sample!, seconds: (performance.now() - t0) / 1000, reused: false }, ...defined({ spooled: sample.spooled }) };
}

/** The completion worker (complete-worker.ts), waiting for its job; `ended` rejects if it fails or exits first. */
export interface Fitter {
  worker: Worker;
  ended: Promise<never>;
}

/** Started before the text is read, so that it loads its modules meanwhile; `fitOffThread` gives it its job. */
export function startFitter(): Fitter {
  const worker = startWorker(completionWorkerScript(), null);
  // Listened to from the start: the worker could fail while this thread samples.
  const ended = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new TadpoleError('TADPOLE_INTERNAL', `the completion worker stopped (exit ${code}) before it sent the model`)));
  });
  ended.catch(() => undefined);
  return { worker, ended };
}

/** completeModel on the fitter's thread; an abort terminates it and throws Interrupted. */
function completeOffThread(fitter: Fitter, model: ModelFile, sample: SentenceSample, opts: CompleteOptions, signal: AbortSignal): Promise<ModelFile> {
  const embedder = opts.embedder ? plainData(opts.embedder) : undefined;
  const job: CompletionJob = { model, sample, embedder, keep: opts.keep, keepBy: opts.keepBy, measureAside: opts.chooseAside !== undefined };
  return fitOffThread(fitter, job, opts.log, signal);
}

/** Functions do not cross to a worker: an embedder spec's log stays on this thread. */
export function plainData<T extends object>(spec: T): Partial<T> {
  return Object.fromEntries(Object.entries(spec).filter(([, v]) => typeof v !== 'function')) as Partial<T>;
}

/** The job (a completion or a whole fit) on the fitter's thread, its lines on `log`; an abort terminates it and throws Interrupted. */
export async function fitOffThread({ worker, ended }: Fitter, job: CompletionJob | FitJob, log: ((line: string) => void) | undefined, signal: AbortSignal): Promise<ModelFile> {
  let onAbort = (): void => undefined;
  try {
    const completed = new Promise<ModelFile>((resolve, reject) => {
      onAbort = () => {
        reject(new Interrupted(abortedBy(signal) ?? 'SIGINT'));
        void worker.terminate();
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', (m: CompletionReply) => {
        if ('log' in m) log?.(m.log);
        else if ('model' in m) resolve(m.model);
        else reject(m.error.code ? new TadpoleError(m.error.code as TadpoleErrorCode, m.error.message) : new Error(m.error.message));
      });
      worker.postMessage(job);
    });
    return await Promise.race([completed, ended]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    void worker.terminate();
  }
}

/** The compiled worker beside this module; from the TypeScript sources (tests), the one in dist/. */
function completionWorkerScript(): URL {
  const here = new URL('./complete-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL('../../dist/threads/complete-worker.js', import.meta.url);
}
