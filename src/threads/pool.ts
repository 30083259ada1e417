import { existsSync, statSync } from 'node:fs';
import { STDIN } from '../io/input.js';
import { inputPath, type InputRef } from '../io/input-kind.js';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TadpoleError, type TadpoleErrorCode } from '../core/errors.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { Doc } from '../io/documents.js';
import type { ModelFile } from '../model/file.js';
import type { SentenceScorer } from '../select/selector.js';
import { scoreBatch, slicesFor, splitDocs, type ScoredBatch } from '../passes/scored.js';
import type { PoolReply, PoolRequest, PoolWorkerData, RangeTask, RunHere } from './pool-protocol.js';
import { checkThreadsFit, mostWorkers, threadsThatFit, workerResourceLimits } from './thread-budget.js';

/**
 * Input bytes per scoring thread when --workers is not given: each thread is its own V8
 * isolate, which loads and JIT-compiles the pipeline for itself (about a CPU-second), and a
 * second thread was slower than one below about 60 MB (the default method, 2 cores, `filter
 * --workers 2` over `--workers 1`: 1.49x the wall at 10 MB, 1.20x at 30 MB, 1.02x at 45 MB,
 * 1.07x at 60 MB with one reader and 0.97x with input ranges, 0.86x at 80 MB;
 * docs/benchmarks/speed-and-memory.md, "How many threads by default"). So one thread per 40 MB:
 * one below 80 MB, two from 80 MB, N cores' worth from N x 40 MB.
 */
export const BYTES_PER_DEFAULT_THREAD = 40_000_000;

/**
 * Scoring threads when the user names none: one per BYTES_PER_DEFAULT_THREAD of the input
 * files (compressed files count by their size on disk), at least one and at most the cores
 * this process may run on and the threads that fit under `ulimit -v` (thread-budget.ts); every
 * core for stdin, whose size is unknown.
 */
export function defaultWorkers(inputs: readonly InputRef[] = []): number {
  const cores = availableParallelism();
  if (inputs.length === 0 || inputs.some((i) => inputPath(i) === STDIN)) return Math.min(cores, threadsThatFit());
  let bytes = 0;
  for (const input of inputs) {
    try {
      bytes += typeof input === 'string' ? statSync(input).size : input.size >= 0 ? input.size : statSync(input.input).size;
    } catch {
      return cores; // the reader reports a missing input
    }
  }
  return Math.max(1, Math.min(cores, threadsThatFit(), Math.floor(bytes / BYTES_PER_DEFAULT_THREAD)));
}

/**
 * Refuses a thread count that is not a whole number >= 1, that is over mostWorkers(), or
 * that does not fit under `ulimit -v` (a flag's or a library caller's), before any starts.
 */
export function checkWorkers(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new TadpoleError('TADPOLE_USAGE', `--workers must be a whole number >= 1, not ${n}`);
  const most = mostWorkers();
  if (n > most) throw new TadpoleError('TADPOLE_USAGE', `--workers ${n} is more threads than this machine can use: at most ${most} (4 per core, ${availableParallelism()} cores available); one per core is fastest`);
  checkThreadsFit(n);
}

/** `--workers` as given, or the default for these inputs (undefined inputs: one thread), checked. */
export function workersFor(given: number | undefined, inputs: readonly InputRef[] | undefined): number {
  const n = given ?? (inputs ? defaultWorkers(inputs) : 1);
  checkWorkers(n);
  return n;
}

/**
 * Characters of document text per batch sent to a worker (the main thread does not split,
 * so it cannot count sentences). The 60 MB JSONL bench mix averages 92 characters a
 * sentence, so 100 characters per requested sentence gives batches of about the size
 * the in-thread path scores (DEFAULT_BATCH_SENTENCES).
 */
const CHARS_PER_SENTENCE = 100;

/** A worker that has not exited this long after being asked to is stopped (a batch takes well under a second). */
const DISPOSE_GRACE_MS = 30_000;

/** Batches in flight per worker: one being scored, one queued, so no worker waits on the reader. */
const IN_FLIGHT_PER_WORKER = 2;

/** Ranges given to a worker at once: one it works on, one queued (runRanges). */
const RANGE_LANES_PER_WORKER = 2;

interface Pending {
  docs: Doc[];
  resolve: (b: ScoredBatch) => void;
  reject: (e: unknown) => void;
}

interface PendingRange {
  resolve: (r: unknown) => void;
  reject: (e: unknown) => void;
  progress: (docs: number, bytes: number) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  ranges: Map<number, PendingRange>;
  /** Settles once the worker has opened its scorer (or failed to): until then it is given no batch of its own. */
  ready: Promise<void>;
  isReady: boolean;
  /** Settles when the worker thread has exited, whenever that was. */
  exited: Promise<void>;
}

/**
 * A pool of worker threads, each with its own copy of the model's scorer (rebuilt from the
 * in-memory ModelFile, whatever the method). The main thread reads documents and sends
 * batches of their text as one transferred buffer; a worker splits them into sentences,
 * scores them and sends back the sentence spans and scores as transferred typed arrays.
 * Batches come back in input order. At most IN_FLIGHT_PER_WORKER batches per worker are
 * in flight, so memory stays bounded whatever the input size.
 */
export class ScoringPool {
  /** Pools never select against the whole corpus: such methods score in one thread. */
  readonly prepare: undefined = undefined;
  private nextId = 0;
  /** Batches scored so far by the workers and by this thread (for tests and the bench). */
  readonly batches = { workers: 0, here: 0 };
  private failed: unknown;
  private closing = false;

  private constructor(
    private methodName: string,
    private readonly slots: Slot[],
    /** This thread's own scorer: it scores a batch whenever every worker is full (none: a pool that only splits). */
    private local: SentenceScorer | undefined,
  ) {}

  get method(): string {
    return this.methodName;
  }

  /**
   * A pool that only split (the completion's sampling pass) now scores with `model`: this
   * thread with `local` (already open; the pool disposes it), each worker with its own, opened
   * before it handles anything sent after this call. The workers it started for the sampling
   * stay, already loaded, so scoring starts no thread.
   */
  useModel(model: ModelFile, embedder: Partial<EmbedderSpec>, local: SentenceScorer): void {
    if (this.local) throw new TadpoleError('TADPOLE_INTERNAL', 'useModel: the pool already scores with a model');
    const { log: _log, ...spec } = embedder;
    const req: PoolRequest = { type: 'model', model, embedder: spec };
    for (const s of this.slots) s.worker.postMessage(req);
    this.local = local;
    this.methodName = model.method;
  }

  /** Scoring threads: the workers and this one. */
  get workers(): number {
    return this.slots.length + 1;
  }

  /**
   * Scores on `threads` threads: this one, with `local` (the model's scorer, already open;
   * the pool disposes it), and threads - 1 workers, each opening its own (not waited for:
   * in the background: until a worker is ready this thread takes its batches and ranges).
   * This thread scores too, so `threads` = cores keeps every core busy without a reader
   * thread competing with the scorers for them. No model and no `local`: the workers only
   * split. Methods that select against the whole corpus never come here (scoring.ts).
   */
  static async open(model: ModelFile | null, embedder: Partial<EmbedderSpec>, threads: number, local?: SentenceScorer): Promise<ScoringPool> {
    const script = workerScript();
    // Functions do not cross threads: the first worker's log lines come back as messages.
    const { log, ...spec } = embedder;
    const slots: Slot[] = [];
    for (let i = 0; i < threads - 1; i++) {
      const data: PoolWorkerData = { model, embedder: spec, log: log !== undefined && i === 0 };
      const worker = startWorker(script, data);
      if (log && i === 0) worker.on('message', (m: PoolReply) => m.type === 'log' && log(m.line));
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      slots.push({ worker, pending: new Map(), ranges: new Map(), ready: Promise.resolve(), isReady: false, exited });
    }
    // Not waited for: a worker takes a few hundred milliseconds to load the pipeline and open
    // its scorer, which this thread spends on the first batches or ranges instead of idling.
    const pool = new ScoringPool(model?.method ?? 'split', slots, local);
    for (const slot of slots) pool.listen(slot);
    return pool;
  }

  /** Settles when every worker has opened its scorer; rejects with the first that could not. */
  async whenReady(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  private listen(slot: Slot): void {
    let opened = (): void => undefined;
    let notOpened = (_: unknown): void => undefined;
    slot.ready = new Promise<void>((resolve, reject) => {
      opened = resolve;
      notOpened = reject;
    });
    slot.ready.catch(() => undefined); // surfaced by whoever waits for this worker, and by this.failed
    slot.worker.on('message', (m: PoolReply) => {
      if (m.type === 'ready') {
        slot.isReady = true;
        return opened();
      }
      if (m.type === 'error' && m.id === -1) {
        const err = toError(m);
        notOpened(err);
        return fail(err);
      }
      if (m.type === 'range-progress') return slot.ranges.get(m.id)?.progress(m.docs, m.bytes);
      const r = m.type === 'range-done' || m.type === 'error' ? slot.ranges.get(m.id) : undefined;
      if (r && (m.type === 'range-done' || m.type === 'error')) {
        slot.ranges.delete(m.id);
        if (m.type === 'error') r.reject(toError(m));
        else r.resolve(m.result);
        return;
      }
      if (m.type !== 'scored' && m.type !== 'error') return;
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if (m.type === 'error') p.reject(toError(m));
      else p.resolve(assemble(p.docs, new Int32Array(m.spans), new Int32Array(m.counts), new Float64Array(m.scores)));
    });
    const fail = (err: unknown) => {
      this.failed ??= err;
      notOpened(err);
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
      for (const r of slot.ranges.values()) r.reject(err);
      slot.ranges.clear();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => {
      if (this.closing) fail(new TadpoleError('TADPOLE_INTERNAL', 'the scoring pool was closed'));
      else if (slot.pending.size > 0 || code !== 0) fail(new TadpoleError('TADPOLE_INTERNAL', `a scoring worker stopped (exit ${code}); rerun with --workers 1 to score in one thread`));
    });
  }

  /**
   * Scores document batches on the workers, and in this thread whenever every worker already
   * has IN_FLIGHT_PER_WORKER batches or is still opening its scorer (so this thread never
   * waits while there is work);
   * yields scored batches in input order.
   */
  async *scored(docBatches: AsyncIterable<Doc[]>, batchSentences: number): AsyncGenerator<ScoredBatch> {
    const budget = Math.max(1, batchSentences) * CHARS_PER_SENTENCE;
    const limit = this.slots.length * IN_FLIGHT_PER_WORKER;
    const queue: Promise<ScoredBatch>[] = [];
    const send = async (docs: Doc[]) => {
      if (this.failed) throw this.failed;
      const slot = this.roomiest();
      if (slot) {
        this.batches.workers++;
        queue.push(this.submit(slot, docs));
      } else {
        this.batches.here++;
        queue.push(Promise.resolve(await this.scoreHere(docs)));
      }
    };
    let cur: Doc[] = [];
    let chars = 0;
    for await (const docs of docBatches) {
      for (const doc of docs) {
        cur.push(doc);
        chars += doc.text.length;
        if (chars < budget) continue;
        await send(cur);
        cur = [];
        chars = 0;
        // Hand back what is done; keep at most one batch per thread waiting to be handed back.
        while (queue.length > limit + 1 || (queue.length > 0 && (await settled(queue[0]!)))) yield await queue.shift()!;
      }
    }
    if (cur.length > 0) await send(cur);
    while (queue.length > 0) yield await queue.shift()!;
  }

  /**
   * Runs range jobs (threads/ranges-place.ts) on every thread of the pool, this one included (by
   * `here`, with this thread's scorer): each thread takes the next job as it finishes one, so
   * a slow range does not hold the others. Results come back in job order. Setting
   * `abort[0]` stops every job after its current batch; the first failure sets it too.
   */
  async runRanges(tasks: RangeTask[], abort: SharedArrayBuffer, here: RunHere): Promise<unknown[]> {
    const flag = new Int32Array(abort);
    const results: unknown[] = new Array(tasks.length);
    let next = 0;
    const hooksOf = (t: RangeTask) => ({ progress: t.progress, aborted: () => Atomics.load(flag, 0) !== 0 });
    const onThisThread = (t: RangeTask) => here({ kind: t.kind, job: t.job }, this.local, hooksOf(t));
    const there = (slot: Slot) => (t: RangeTask) =>
      new Promise<unknown>((resolve, reject) => {
        if (this.failed) return reject(this.failed);
        const id = this.nextId++;
        slot.ranges.set(id, { resolve, reject, progress: t.progress });
        const req: PoolRequest = { type: 'range', id, abort, kind: t.kind, job: t.job };
        slot.worker.postMessage(req);
      });
    // The first failure in time is the one reported: the others stop because of it.
    let failure: { error: unknown } | undefined;
    const threads = this.workers;
    const runner = async (run: (t: RangeTask) => Promise<unknown>, ready?: Promise<void>, queued = false) => {
      try {
        // A worker still opening its scorer takes no range yet: this thread takes them meanwhile.
        await ready;
        // A queued lane stops once no more ranges are left than threads: the last ones go to
        // whichever thread is free first, not to one that is still busy.
        while (next < tasks.length && !failure && (!queued || tasks.length - next > threads)) {
          const i = next++;
          results[i] = await run(tasks[i]!);
        }
      } catch (err) {
        failure ??= { error: err };
        Atomics.store(flag, 0, 1);
      }
    };
    // Each worker runs RANGE_LANES_PER_WORKER runners, so the next range already waits in its
    // queue when it finishes one: a range handed over only then waited for this thread's event
    // loop, which turns between its own batches.
    const lanes = this.slots.flatMap((s) => Array.from({ length: RANGE_LANES_PER_WORKER }, (_, lane) => runner(there(s), s.ready, lane > 0)));
    await Promise.all([runner(onThisThread), ...lanes]);
    if (failure) throw failure.error;
    return results;
  }

  private async scoreHere(docs: Doc[]): Promise<ScoredBatch> {
    const b = splitDocs(docs, slicesFor(this.local));
    const scores = this.local ? await scoreBatch(b, this.local) : new Float64Array(0);
    return { ...b, scores };
  }

  /** The ready worker with the fewest batches, if it has room for one more. */
  private roomiest(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) if (s.isReady && (!best || s.pending.size < best.pending.size)) best = s;
    return best && best.pending.size < IN_FLIGHT_PER_WORKER ? best : undefined;
  }

  private submit(slot: Slot, docs: Doc[]): Promise<ScoredBatch> {
    if (this.failed) return Promise.reject(this.failed);
    // UTF-8 decodes to compact one-byte strings in the worker for Latin-1 text, which split
    // and hash faster than the two-byte strings UTF-16 gives (measured below); a batch with
    // a lone surrogate (which UTF-8 cannot carry) goes as UTF-16 code units instead, so the
    // worker always sees exactly the strings the main thread holds.
    const encoding = docs.every((d) => isWellFormed(d.text)) ? 'utf8' : 'utf16le';
    const ends = new Int32Array(docs.length + 1);
    for (let i = 0; i < docs.length; i++) ends[i + 1] = ends[i]! + Buffer.byteLength(docs[i]!.text, encoding);
    const text = new ArrayBuffer(ends[docs.length]!);
    const view = Buffer.from(text);
    for (let i = 0; i < docs.length; i++) view.write(docs[i]!.text, ends[i]!, encoding);
    const id = this.nextId++;
    const done = new Promise<ScoredBatch>((resolve, reject) => slot.pending.set(id, { docs, resolve, reject }));
    done.catch(() => undefined); // surfaced when the caller awaits it, in order
    const req: PoolRequest = { type: 'score', id, encoding, text, ends: ends.buffer };
    slot.worker.postMessage(req, [text, ends.buffer]);
    return done;
  }

  /**
   * Asks each worker to finish the batch it is on, skip the rest, dispose its scorer and
   * exit. Not worker.terminate(): terminating a thread inside a native call (hnswlib's
   * search) aborts the whole process (measured: SIGINT during filter crashed with
   * "FATAL ERROR: napi_throw" in 5 of 16 tries).
   */
  async dispose(): Promise<void> {
    this.closing = true;
    await this.local?.dispose();
    await Promise.all(
      this.slots.map(async (s) => {
        const close: PoolRequest = { type: 'close' };
        s.worker.postMessage(close);
        const timer = setTimeout(() => void s.worker.terminate(), DISPOSE_GRACE_MS);
        await s.exited;
        clearTimeout(timer);
      }),
    );
  }
}

/**
 * A worker with the parent's Node flags (so --cpu-prof, --enable-source-maps and the like
 * reach it), or with none when a flag is process-wide: Node refuses V8 flags such as
 * --max-semi-space-size in a worker's execArgv, and `node --max-semi-space-size=64 tadpole`
 * failed with an internal error before this fallback.
 */
export function startWorker(script: URL, data: unknown): Worker {
  // The parent's --input-type (node -e) is refused by a worker that runs a file.
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  const options = { workerData: data, resourceLimits: workerResourceLimits() };
  try {
    return new Worker(script, { ...options, execArgv });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    return new Worker(script, { ...options, execArgv: [] });
  }
}

const PENDING = Symbol('pending');

/** Whether a promise has settled, without waiting for it (one turn of the microtask queue). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  return (await Promise.race([p.then(() => true, () => true), Promise.resolve(PENDING)])) !== PENDING;
}

/** A scored batch from a worker's reply; sentence strings are cut from the documents only if someone asks. */
function assemble(docs: Doc[], flat: Int32Array, counts: Int32Array, scores: Float64Array): ScoredBatch {
  const spans: number[][] = new Array(docs.length);
  const firstSentence: number[] = new Array(docs.length);
  let at = 0;
  let sentence = 0;
  for (let d = 0; d < docs.length; d++) {
    const n = counts[d]!;
    const s = new Array<number>(n);
    for (let j = 0; j < n; j++) s[j] = flat[at + j]!;
    spans[d] = s;
    firstSentence[d] = sentence;
    at += n;
    sentence += n / 2;
  }
  let sentences: string[] | undefined;
  return {
    docs,
    spans,
    firstSentence,
    scores,
    get sentences(): string[] {
      if (!sentences) {
        sentences = [];
        for (let d = 0; d < docs.length; d++) {
          const t = docs[d]!.text;
          const s = spans[d]!;
          for (let j = 0; j < s.length; j += 2) sentences.push(t.slice(s[j], s[j + 1]));
        }
      }
      return sentences;
    },
  };
}

const wellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** No lone surrogates (String.prototype.isWellFormed where the runtime has it). */
function isWellFormed(s: string): boolean {
  if (wellFormed) return wellFormed.call(s);
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

function toError(m: { code?: string; message: string }): Error {
  return m.code ? new TadpoleError(m.code as TadpoleErrorCode, m.message) : new Error(m.message);
}

/** The compiled worker beside this module; from the TypeScript sources (tests), the one in dist/. */
function workerScript(): URL {
  const here = new URL('./pool-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL('../../dist/threads/pool-worker.js', import.meta.url);
}
