import type { SketchJSON } from '../cut/sketch.js';
import { ReadCounters, readKinds, type ReaderOptions } from '../io/documents.js';
import type { ByteRange } from '../io/input.js';
import type { InputKind } from '../io/input-kind.js';
import { Sink } from '../io/sink.js';
import type { SentenceScorer } from '../select/selector.js';
import { emitPass, type Pass2Writer } from '../passes/emit-pass.js';
import { NO_EMIT_CHECKPOINTS, NO_SCORE_CHECKPOINTS, type PassHooks } from '../passes/hooks.js';
import { emptyTally, type KeepTally } from '../passes/keep-tally.js';
import type { OutFormat } from '../passes/out-format.js';
import { RunWriter } from '../passes/run-writer.js';
import { scorePass, type SegmentSettings } from '../passes/score-pass.js';
import { scoreDocBatches } from '../passes/scored.js';
import { SpilledSegments } from '../passes/segment-sources.js';
import type { RangeHooks } from './pool-protocol.js';

/**
 * One byte range of the input, scored (pass 1) or emitted (pass 2) by one thread on its
 * own, as a shard is, so that every thread reads, parses and splits for itself
 * (ranges-place.ts). Plain data: it crosses to a worker thread as it is.
 */
export interface RangeJob {
  /** Kinds resolved once by the planner (plain data), so no thread judges an input's bytes again. */
  inputs: readonly InputKind[];
  reader: ReaderOptions;
  only: number[];
  ranges: Array<[number, ByteRange]>;
  settings: SegmentSettings;
  batchSentences: number;
  spillPath: string;
  docIndexPath: string;
}

export interface RangeEmitJob extends RangeJob {
  writer: Pass2Writer;
  /** Global id of the range's first segment and ordinal of its first document. */
  firstId: number;
  firstDoc: number;
  partPath: string;
  outFormat: OutFormat;
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

/** A range's hooks: the pool carries its progress, and one shared flag says the run was interrupted. */
const passHooks = (hooks: RangeHooks): PassHooks => ({ progress: hooks.progress, abortedBy: () => (hooks.aborted() ? 'SIGINT' : undefined) });

const readRange = (job: RangeJob) => ({ only: new Set(job.only), ranges: new Map(job.ranges) });

/** Pass 1 on one range: its own spill and doc index, sketch and moments. */
export async function scoreRange(job: RangeJob, scorer: SentenceScorer, hooks: RangeHooks): Promise<RangeScored> {
  const r = await scorePass({
    read: (counters) => readKinds(job.inputs, job.reader, { counters, ...readRange(job) }),
    score: (docs) => scoreDocBatches(docs, scorer, job.batchSentences),
    method: scorer.method,
    settings: job.settings,
    paths: { spill: job.spillPath, docIndex: job.docIndexPath },
    hooks: passHooks(hooks),
    checkpoints: NO_SCORE_CHECKPOINTS,
  });
  return { sketch: r.sketch.toJSON(), moments: { n: r.moments.n, mean: r.moments.mean, m2: r.moments.m2 }, segments: r.segments, docs: r.reader.docs, reader: r.reader.toJSON() };
}

/** Pass 2 on one range: what its writer writes, to its own part file, and its tallies. */
export async function emitRange(job: RangeEmitJob, hooks: RangeHooks): Promise<RangeEmitted> {
  const counters = new ReadCounters();
  const sink = Sink.toFile(job.partPath);
  const kept = job.writer.kind === 'kept' ? job.writer.cut : undefined;
  const out = new RunWriter(sink, job.reader, kept ? job.outFormat : 'jsonl');
  try {
    const source = new SpilledSegments((triage, spans) => readKinds(job.inputs, job.reader, { counters, ...readRange(job), firstOrdinal: job.firstDoc, triage, spans }), {
      spill: job.spillPath,
      docIndex: job.docIndexPath,
      indexed: true,
      segment: job.settings.segment,
      id: job.firstId,
      spillRecord: 0,
      indexOffset: 0,
      cut: kept,
      fetchKept: kept ? { linesNeeded: job.outFormat === 'jsonl' } : undefined,
    });
    const tally = await emitPass({ source, writer: job.writer, out, counters, tally: emptyTally(), docs: 0, consumed: 0, stop: () => false, hooks: passHooks(hooks), checkpoints: NO_EMIT_CHECKPOINTS });
    await sink.close();
    return { tally, startedWithBlock: out.startedWithBlock };
  } catch (err) {
    await sink.abort();
    throw err;
  }
}
