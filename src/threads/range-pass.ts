import type { SketchJSON } from '../cut/sketch.js';
import { ReadCounters, readKinds, type ReaderOptions, type SpanPlan, type Triage } from '../io/documents.js';
import type { ByteRange } from '../io/input.js';
import { Sink } from '../io/sink.js';
import type { SentenceScorer } from '../select/selector.js';
import { Interrupted } from '../core/interrupt.js';
import { emitKept, RunWriter } from '../passes/passes.js';
import { spillScores } from '../passes/spill-pass.js';
import { tokenCounter } from '../cut/tokens.js';
import { emptyTally, type KeepTally } from '../passes/keep-tally.js';
import type { OutFormat } from '../passes/out-format.js';
import { scoreDocBatches } from '../passes/scored.js';
import type { InputKind } from '../io/input-kind.js';
import type { RangeHooks } from './pool-protocol.js';

/**
 * One byte range of the input, scored (pass 1) or emitted (pass 2) by one thread on its
 * own, as a shard is, so that every thread reads, parses and splits for itself
 * (threads/ranges-place.ts). Plain data: it crosses to a worker thread as it is.
 */
export interface RangeJob {
  /** Kinds resolved once by the planner (plain data), so no thread judges an input's bytes again. */
  inputs: readonly InputKind[];
  reader: ReaderOptions;
  only: number[];
  ranges: Array<[number, ByteRange]>;
  segment: number;
  /** --doc-context (src/segment/context.ts); undefined: the default. */
  docContext?: number;
  batchSentences?: number;
  /** --tokenizer: each thread loads it and counts every segment's tokens. */
  tokenizer?: string;
  spillPath: string;
  docIndexPath: string;
}

export interface RangeEmitJob extends RangeJob {
  cut: { threshold: number; tieId: number };
  /** Global id of the range's first segment and ordinal of its first document. */
  firstId: number;
  firstDoc: number;
  partPath: string;
  outFormat?: OutFormat;
}

export interface RangeScored {
  sketch: SketchJSON;
  moments: { n: number; mean: number; m2: number };
  segments: number;
  docs: number;
  reader: Record<string, number>;
}

export interface RangeEmitted {
  tally: KeepTally;
  startedWithBlock: boolean;
}

function documentsOf(job: RangeJob, counters: ReadCounters, extra: { firstOrdinal?: number; triage?: Triage; spans?: SpanPlan } = {}) {
  return readKinds(job.inputs, job.reader, { counters, only: new Set(job.only), ranges: new Map(job.ranges), ...extra });
}

function afterBatch(counters: ReadCounters, hooks: RangeHooks): () => void {
  return () => {
    hooks.progress(counters.docs, counters.bytes);
    if (hooks.aborted()) throw new Interrupted('SIGINT');
  };
}

/** Pass 1 on one range: its own spill and doc index, sketch and moments. */
export async function scoreRange(job: RangeJob, scorer: SentenceScorer, hooks: RangeHooks): Promise<RangeScored> {
  const counters = new ReadCounters();
  const batches = scoreDocBatches(documentsOf(job, counters), scorer, job.batchSentences);
  const out = await spillScores(batches, scorer.method, job.segment, job.docContext, { spill: job.spillPath, docIndex: job.docIndexPath }, afterBatch(counters, hooks), job.tokenizer ? tokenCounter(job.tokenizer) : undefined);
  return { sketch: out.sketch.toJSON(), moments: { n: out.moments.n, mean: out.moments.mean, m2: out.moments.m2 }, segments: out.segments, docs: counters.docs, reader: counters.toJSON() };
}

/** Pass 2 on one range: its kept runs, written to its own part file, and its tallies. */
export async function emitRange(job: RangeEmitJob, hooks: RangeHooks): Promise<RangeEmitted> {
  const counters = new ReadCounters();
  const sink = Sink.toFile(job.partPath);
  const writer = new RunWriter(sink, job.reader, job.outFormat);
  const tally = emptyTally();
  try {
    const read = (triage: Triage | undefined, spans?: SpanPlan) => documentsOf(job, counters, { firstOrdinal: job.firstDoc, ...(triage ? { triage } : {}), ...(spans ? { spans } : {}) });
    const fetchKept = { linesNeeded: job.outFormat === 'jsonl' };
    await emitKept(read, { segment: job.segment, spillPath: job.spillPath, docIndexPath: job.docIndexPath, firstId: job.firstId, cut: job.cut, fetchKept, afterBatch: afterBatch(counters, hooks) }, writer, tally);
    await sink.close();
  } catch (err) {
    await sink.abort();
    throw err;
  }
  return { tally, startedWithBlock: writer.startedWithBlock };
}
