import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { exactCut } from '../cut/exact.js';
import { ScoreSketch } from '../cut/sketch.js';
import { ReadCounters, type ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import type { Sink } from '../io/sink.js';
import { throwIfAborted } from '../core/interrupt.js';
import { planShard, type ShardPlan } from '../passes/plan.js';
import type { InputFingerprint } from '../passes/fingerprint.js';
import type { PassPlace } from '../passes/drive.js';
import type { RunOptions } from '../passes/run-options.js';
import { Moments } from '../passes/spill-pass.js';
import type { RangeTask, RunHere } from './pool-protocol.js';
import type { ScoringPool } from './pool.js';
import { Progress } from '../passes/progress.js';
import { emitRange, scoreRange, type RangeEmitJob, type RangeEmitted, type RangeJob, type RangeScored } from './range-pass.js';
import { addTally, emptyTally } from '../passes/keep-tally.js';
import type { InputKind } from '../io/input-kind.js';

/**
 * Below this much input the pool's batches are used instead: ranges pay off when each
 * thread has megabytes to read (each JIT-compiles the whole pipeline for itself).
 * Sizes are as on disk (compressed files count their compressed bytes).
 */
export const RANGE_MIN_BYTES = 64 * 1024 * 1024;

/**
 * The input is cut into at least this many pieces per scoring thread (more for a large input,
 * RANGE_PIECE_BYTES each), and the pieces are dealt out as ranges that shrink towards the end
 * of the input (rangeSizes): threads take the next range as they finish one, so the big first
 * ranges keep the hand-offs few, and the small last ones leave no thread idle for long while
 * another finishes (with 4 equal ranges a thread, the last range of 300 MB kept one of two
 * cores idle for about a second of each pass).
 */
export const RANGES_PER_THREAD = 4;
/** About this much input per piece when the input is cut finer than RANGES_PER_THREAD a thread. */
export const RANGE_PIECE_BYTES = 2 * 1024 * 1024;
/** ... up to this many pieces per thread. */
const MAX_PIECES_PER_THREAD = 64;

/**
 * How many pieces each range takes, in input order: guided self-scheduling, each range a
 * 1/(2 x threads) share of the pieces left, so the last ones are single pieces.
 */
export function rangeSizes(pieces: number, threads: number): number[] {
  const sizes: number[] = [];
  for (let left = pieces; left > 0; ) {
    const take = Math.max(1, Math.ceil(left / (2 * threads)));
    sizes.push(take);
    left -= take;
  }
  return sizes;
}

/** Where one range lies: the inputs it reads, and the byte range of each it reads in part. */
export type RangePiece = Pick<RangeJob, 'only' | 'ranges'>;

/**
 * Whether `filter` can split its input into ranges that threads filter apart, and where:
 * cut exactly as shards are (planShard), at document boundaries of
 * plain text and JSONL files and between Parquet row groups, into pieces dealt out as ranges
 * that shrink towards the end (RANGES_PER_THREAD); a compressed file cannot be entered
 * mid-way and goes whole to one range. Ranges are used when the input is
 * RANGE_MIN_BYTES or more and gives every thread at least two ranges (a corpus of many
 * compressed files does; one .gz file does not, and its batches go to the pool). Never for
 * stdin.
 */
export function planRanges(inputs: readonly InputKind[], fps: InputFingerprint[], reader: ReaderOptions, threads: number, minBytes = RANGE_MIN_BYTES): RangePiece[] | undefined {
  if (threads < 2 || inputs.some((k) => k.input === STDIN)) return undefined;
  const bytes = fps.reduce((a, f) => a + Math.max(0, f.size), 0);
  if (bytes < minBytes) return undefined;
  const pieces = Math.min(threads * MAX_PIECES_PER_THREAD, Math.max(threads * RANGES_PER_THREAD, Math.ceil(bytes / RANGE_PIECE_BYTES)));
  const jobs: RangePiece[] = [];
  let first = 0;
  for (const take of rangeSizes(pieces, threads)) {
    const plan = joinPlans(Array.from({ length: take }, (_, k) => planShard(inputs, fps, reader, first + k, pieces)));
    first += take;
    if (plan.only.size === 0) continue;
    jobs.push({ only: [...plan.only], ranges: [...plan.ranges] });
  }
  return jobs.length >= 2 * threads ? jobs : undefined;
}

/** Consecutive shard plans as one: on each input, from the first one's start to the last one's end. */
function joinPlans(plans: ShardPlan[]): ShardPlan {
  const joined: ShardPlan = { only: new Set(), ranges: new Map() };
  const whole = new Set<number>();
  for (const p of plans) {
    for (const j of p.only) {
      joined.only.add(j);
      const r = p.ranges.get(j);
      if (!r) whole.add(j);
      else {
        const had = joined.ranges.get(j);
        joined.ranges.set(j, had ? { start: Math.min(had.start, r.start), end: Math.max(had.end, r.end) } : { ...r });
      }
    }
  }
  for (const j of whole) joined.ranges.delete(j);
  // A piece that reached the end of a file it did not start leaves the range open-ended; one
  // that covers a file from 0 to its end is the whole file.
  for (const [j, r] of joined.ranges) if (r.start === 0 && r.end === Number.MAX_SAFE_INTEGER) joined.ranges.delete(j);
  return joined;
}

/**
 * Both passes of a cut-mode `filter`, each range by one thread of the pool (this one
 * included): every thread reads, parses, splits and scores its own ranges into its own
 * spill and doc index; the sketches merge into one exact cut over all the spills; every
 * thread writes its ranges' kept runs to a part; the parts are joined in input order. The
 * bytes are those of one thread reading everything (the shards' argument: the same
 * documents, segments, global segment ids and document ordinals), and nothing is serial
 * but the cut and the join. drivePasses (drive.ts) runs the steps.
 */
export function rangesPlace(pool: ScoringPool, ranges: RangePiece[], o: RunOptions, work: string, betweenPasses: () => void): PassPlace {
  const settings = { segment: o.segment, docContext: o.docContext, tokenizer: o.tokenizer };
  const jobs: RangeJob[] = ranges.map((r, i) => ({ ...r, inputs: o.inputs, reader: o.reader, settings, batchSentences: o.batchSentences, spillPath: join(work, `range-${i}.spill`), docIndexPath: join(work, `range-${i}.index`) }));
  const sketch = new ScoreSketch();
  let scored: RangeScored[] = [];
  return {
    async score() {
      scored = await run<RangeScored>(pool, o, 'score', jobs.map((job) => ({ kind: 'score' as const, job })), (t, scorer, hooks) => {
        if (!scorer) throw new TadpoleError('TADPOLE_INTERNAL', 'a pool without a scorer was asked to score a range');
        return scoreRange(t.job as RangeJob, scorer, hooks);
      });
      const moments = new Moments();
      const counters = new ReadCounters();
      for (const s of scored) {
        sketch.merge(ScoreSketch.fromJSON(s.sketch));
        moments.merge(s.moments);
        addCounts(counters, s.reader);
      }
      return { segments: sketch.totals().segments, moments: { mean: moments.mean, std: moments.std }, reader: counters.toJSON() };
    },
    betweenPasses,
    cut: (keep, keepBy) => exactCut(sketch, jobs.map((j) => j.spillPath), keep, keepBy),
    async emit(writer) {
      const sink = o.sink as Sink;
      let firstId = 0;
      let firstDoc = 0;
      const emits: RangeEmitJob[] = jobs.map((job, i) => {
        const e = { ...job, writer, firstId, firstDoc, partPath: join(work, `range-${i}.part`), outFormat: o.outFormat };
        firstId += scored[i]!.segments;
        firstDoc += scored[i]!.docs;
        return e;
      });
      const emitted = await run<RangeEmitted>(pool, o, 'write', emits.map((job) => ({ kind: 'emit' as const, job })), (t, _scorer, hooks) => emitRange(t.job as RangeEmitJob, hooks));
      const tally = emptyTally();
      let wrote = false;
      for (let i = 0; i < emits.length; i++) {
        const e = emitted[i]!;
        addTally(tally, e.tally);
        // A text block after earlier output is preceded by a blank line, as RunWriter does.
        if (wrote && e.startedWithBlock) await sink.write('\n');
        wrote = (await copyInto(emits[i]!.partPath, sink)) || wrote;
        rmSync(emits[i]!.partPath, { force: true }); // a fifth of the input: not left in a --work-dir
        if (sink.closedEarly) break;
      }
      return { tally };
    },
  };
}

/**
 * One pass over every range on the pool's threads, with one progress line summed over them;
 * an interrupt stops every range after its current batch.
 */
async function run<R>(pool: ScoringPool, o: RunOptions, stage: string, tasks: Array<Omit<RangeTask, 'progress'>>, here: RunHere): Promise<R[]> {
  const abort = new SharedArrayBuffer(4);
  const stop = () => Atomics.store(new Int32Array(abort), 0, 1);
  if (o.signal?.aborted) stop();
  o.signal?.addEventListener('abort', stop);
  const progress = new Progress(stage, o.inputs, o.progress);
  const docs = new Array<number>(tasks.length).fill(0);
  const bytes = new Array<number>(tasks.length).fill(0);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const withProgress = tasks.map((t, i) => ({
    ...t,
    progress: (d: number, b: number) => {
      docs[i] = d;
      bytes[i] = b;
      progress.update(sum(docs), sum(bytes));
    },
  }));
  try {
    const out = (await pool.runRanges(withProgress, abort, here)) as R[];
    progress.done(sum(docs), sum(bytes));
    return out;
  } catch (err) {
    throwIfAborted(o.signal);
    throw err;
  } finally {
    o.signal?.removeEventListener('abort', stop);
  }
}

function addCounts(into: ReadCounters, from: Record<string, number>): void {
  const self = into as unknown as Record<string, number>;
  for (const [k, v] of Object.entries(from)) if (typeof self[k] === 'number') self[k] += v;
}

/** Appends a part file to the sink as bytes, in 1 MB pieces; whether it held anything. */
async function copyInto(path: string, sink: Sink): Promise<boolean> {
  const fd = openSync(path, 'r');
  let any = false;
  try {
    for (;;) {
      // A fresh buffer each time: the stream may still hold the previous one.
      const buf = Buffer.allocUnsafe(1 << 20);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      any = true;
      await sink.writeBytes(buf.subarray(0, n));
      if (sink.closedEarly) break;
    }
  } finally {
    closeSync(fd);
  }
  return any;
}
