import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { SpillReader } from '../cut/spill.js';
import { writeFileAtomic } from '../io/atomic.js';
import { ReadCounters, readKinds, type Doc, type ReaderOptions } from '../io/documents.js';
import { moveFile, Sink } from '../io/sink.js';
import { segmentBounds } from '../segment/segments.js';
import { crashPoint, throwIfAborted } from '../core/interrupt.js';
import { readShardSummary, shardPaths, type ShardId } from './layout.js';
import { resumePlan, type ShardPlan } from '../passes/plan.js';
import type { Ledger } from './ledger.js';
import type { InputKind } from '../io/input-kind.js';
import { splitSentences } from '../text/sentences.js';
import type { RunCut, ShardOffsets } from './run-cut.js';
import { Progress } from '../passes/progress.js';
import type { OutFormat } from '../passes/out-format.js';
import { RunWriter, writeKept } from '../passes/passes.js';
import { checkReadDigest, DEFAULT_CHECKPOINT_SECONDS, readDigestAt, type ReadPosition } from './shard-score.js';
import { ReadDigest } from './read-digest.js';
import { DocIndexReader } from '../passes/doc-index.js';
import { nextIndexedDoc, spillRecordsOf, type IndexedDoc } from '../passes/indexed-doc.js';
import { KeptTriage } from '../passes/kept-triage.js';

export interface EmitStats {
  documents: { total: number; withKept: number };
  sentences: { total: number; kept: number };
  segments: { total: number; kept: number };
  bytes: { total: number; kept: number };
  outputBytes: number;
  seconds: number;
}

interface EmitCheckpoint {
  cutKey: string;
  at: ReadPosition;
  spillRecords: number;
  docs: number;
  outputBytes: number;
  atStart: boolean;
  stats: EmitStats;
  /** Doc-index offset of the next document, when the emit reads the index; absent in checkpoints from before it (or of an emit that splits). */
  docIndexOffset?: number;
  /** sha256 of the input bytes read up to `at`, as in the score checkpoint. */
  readSha256?: string;
}

interface EmitDone {
  cutKey: string;
  target: string;
  stats: EmitStats;
}

export interface EmitShardOptions {
  runDir: string;
  id: ShardId;
  /** Inputs as pass 2 reads them (stdin replaced by the spool). */
  inputs: readonly InputKind[];
  reader: ReaderOptions;
  plan: ShardPlan;
  segment: number;
  cut: RunCut;
  ledger: Ledger;
  /** Written while emitting; kept on interrupt (it is the checkpoint's output). */
  partial: string;
  /** Where the finished output is moved. */
  target: string;
  /** How kept runs are written (out-format.ts); default 'input'. */
  outFormat?: OutFormat;
  resume: boolean;
  checkpointSeconds?: number;
  signal?: AbortSignal;
  progress?: (line: string) => void;
  crashAt?: string;
}

function emptyStats(): EmitStats {
  return { documents: { total: 0, withKept: 0 }, sentences: { total: 0, kept: 0 }, segments: { total: 0, kept: 0 }, bytes: { total: 0, kept: 0 }, outputBytes: 0, seconds: 0 };
}

function cutKeyOf(cut: RunCut, off: ShardOffsets): string {
  return JSON.stringify([cut.keep, cut.keepBy, String(cut.threshold), cut.tieId, off.firstId, off.firstDoc, off.precededByKept]);
}

/**
 * Pass 2 of one shard, resumable: re-reads the shard's documents, takes their sentence
 * spans from the shard's doc index (the splitter runs again only for a shard scored before
 * doc indexes existed), looks their scores up in the spill and writes the kept runs;
 * documents with nothing kept are skimmed, not decoded (kept-triage.ts), as in filter.
 * Checkpoints (output length, read position, spill position, separator state) let a
 * resumed run truncate the partial output and continue: byte-identical output.
 */
export async function emitShard(opts: EmitShardOptions): Promise<EmitStats> {
  const t0 = performance.now();
  const { shard, of } = opts.id;
  const p = shardPaths(opts.runDir, opts.id);
  const off = opts.cut.shards[shard];
  if (!off || opts.cut.of !== of) throw new TadpoleError('TADPOLE_RUN', `the cut in ${opts.runDir} is for ${opts.cut.of} shards, not ${of}: run tadpole cut again`);
  // Another output format is another output: a checkpoint written in one is not continued in the other.
  const cutKey = cutKeyOf(opts.cut, off) + (opts.outFormat && opts.outFormat !== 'input' ? `|${opts.outFormat}` : '');
  const donePath = join(p.dir, 'emit.json');
  if (existsSync(donePath)) {
    const d = JSON.parse(readFileSync(donePath, 'utf8')) as EmitDone;
    if (d.cutKey === cutKey && d.target === opts.target) {
      if (existsSync(opts.partial)) moveFile(opts.partial, opts.target); // crashed between the record and the rename
      if (existsSync(opts.target)) return d.stats;
    }
  }
  mkdirSync(p.dir, { recursive: true });
  let cp = opts.resume ? opts.ledger.checkpoint<EmitCheckpoint>(shard, of, 'emit')?.state : undefined;
  if (cp && (cp.cutKey !== cutKey || !existsSync(opts.partial))) cp = undefined; // another cut: start over
  // What pass 1 left (stats.json): whether it wrote a doc index, and the digest of what it read.
  const scored = readShardSummary(opts.runDir, opts.id);
  // The doc index, when the score stage left a whole one and a resumed emit knows where it was in it.
  const indexed = scored?.docIndex === true && existsSync(p.docIndex) && (!cp || cp.docIndexOffset !== undefined);
  opts.ledger.startShard(shard, of, 'emit', !!cp);
  if (cp) opts.ledger.event(shard, 'resume', `emit from input ${cp.at.input} byte ${cp.at.offset}, output byte ${cp.outputBytes}`);
  opts.ledger.event(shard, 'emit', indexed ? 'sentence spans from the doc index; documents with nothing kept are not decoded' : 'no doc index (scored by an older version, or resumed from its checkpoint): documents are split again');

  const stats = cp ? structuredClone(cp.stats) : emptyStats();
  const secondsBefore = cp?.stats.seconds ?? 0;
  // What pass 2 reads is hashed as pass 1's was: an input edited in place since is refused, not emitted.
  const digest = new ReadDigest(opts.inputs, opts.plan);
  if (cp) checkReadDigest(digest, cp.at, cp.readSha256, opts.runDir);
  const plan = cp ? resumePlan(opts.plan, cp.at) : opts.plan;
  const sink = Sink.toResumableFile(opts.partial, opts.target, cp?.outputBytes ?? 0);
  const writer = new RunWriter(sink, opts.reader, opts.outFormat, cp ? cp.atStart : !off.precededByKept);
  const spill = new SpillReader(p.spill, cp?.spillRecords ?? 0);
  let consumed = cp?.spillRecords ?? 0;
  const index = indexed ? new DocIndexReader(p.docIndex, cp?.docIndexOffset ?? 0) : undefined;
  const triage = indexed ? new KeptTriage(p.docIndex, p.spill, opts.cut, { indexOffset: cp?.docIndexOffset ?? 0, spillRecord: consumed, id: off.firstId + consumed }) : undefined;
  let docs = cp?.docs ?? 0;
  let position: ReadPosition | undefined = cp?.at;
  let lastCheckpoint = performance.now();
  let checkpoints = 0;
  const interval = (opts.checkpointSeconds ?? DEFAULT_CHECKPOINT_SECONDS) * 1000;
  const counters = new ReadCounters();
  const progress = new Progress(`emit ${shard}/${of}`, opts.inputs, opts.progress);

  const save = async () => {
    if (!position) return;
    const outputBytes = await sink.sync();
    stats.seconds = secondsBefore + (performance.now() - t0) / 1000;
    const state: EmitCheckpoint = { cutKey, at: position, spillRecords: consumed, docs, outputBytes, atStart: writer.atStart, stats, ...(index ? { docIndexOffset: index.offset } : {}), ...readDigestAt(digest, position) };
    opts.ledger.saveCheckpoint(shard, of, 'emit', state, { docs, segments: consumed, bytesConsumed: counters.bytes, seconds: stats.seconds });
    checkpoints++;
    lastCheckpoint = performance.now();
    crashPoint(opts.crashAt, `emit:${checkpoints}`);
  };

  try {
    const batches = readKinds(opts.inputs, opts.reader, { counters, only: plan.only, ranges: plan.ranges, firstOrdinal: off.firstDoc + docs, ...(triage ? { triage: triage.triage } : {}) });
    for await (const batch of batches) {
      for (const doc of batch) {
        const seg = index ? nextIndexedDoc(doc, index, spill, opts.segment) : splitAgain(doc, spill, opts.segment);
        await writeKept(writer, doc, seg, opts.cut, off.firstId + consumed, stats);
        consumed += seg.scores.length;
        docs++;
        position = { input: doc.input, offset: doc.nextOffset, line: doc.nextLine ?? 1 };
      }
      progress.update(docs, counters.bytes);
      if (opts.signal?.aborted) {
        await save();
        throwIfAborted(opts.signal);
      }
      if (performance.now() - lastCheckpoint >= interval) await save();
    }
    if (spill.next() || index?.next()) throw new TadpoleError('TADPOLE_INPUT_CHANGED', 'the input changed between passes: it now ends before all segments scored in pass 1');
    if (consumed !== off.segments) throw new TadpoleError('TADPOLE_RUN', `shard ${shard}/${of}: ${consumed} segments emitted, the cut expected ${off.segments}`);
    if (scored?.readSha256 !== undefined && readDigestAt(digest).readSha256 !== scored.readSha256) {
      throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the inputs changed since the run in ${opts.runDir} scored them (the bytes of shard ${shard}/${of} differ from what pass 1 read: edited in place); start a new --run-dir`);
    }
    progress.done(docs, counters.bytes);
    stats.outputBytes = await sink.sync();
    stats.seconds = secondsBefore + (performance.now() - t0) / 1000;
    writeFileAtomic(donePath, JSON.stringify({ cutKey, target: opts.target, stats } satisfies EmitDone, null, 2) + '\n');
    await sink.close();
  } catch (err) {
    await sink.abort();
    // Output of inputs that changed cannot be resumed: nothing of it stays beside the parts.
    if (err instanceof TadpoleError && err.code === 'TADPOLE_INPUT_CHANGED') {
      rmSync(opts.partial, { force: true });
      try {
        opts.ledger.dropCheckpoint(shard, of, 'emit');
      } catch {
        // Inputs that changed end the run (no resume), so a checkpoint left here is never read.
      }
    }
    opts.ledger.recordStop(shard, of, err);
    throw err;
  } finally {
    spill.close();
    index?.close();
    triage?.close();
  }
  opts.ledger.updateShard(shard, of, { stage: 'emit', status: 'emitted', seconds: stats.seconds, finished: true });
  return stats;
}

/** A document's segments for a shard scored without a doc index: split again, checked against the spill. */
function splitAgain(doc: Doc, spill: SpillReader, segment: number): IndexedDoc {
  const spans = splitSentences(doc.text);
  const bounds = segmentBounds(spans.length / 2, segment);
  return { ...spillRecordsOf(doc, spill, bounds.length / 2, bounds), spansAndBounds: () => ({ spans, bounds }) };
}
