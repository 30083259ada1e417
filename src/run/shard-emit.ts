import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { writeFileAtomic } from '../io/atomic.js';
import { ReadCounters, readKinds } from '../io/documents.js';
import type { InputKind } from '../io/input-kind.js';
import { moveFile, Sink } from '../io/sink.js';
import { emitPass } from '../passes/emit-pass.js';
import type { EmitState, ReadPosition } from '../passes/hooks.js';
import type { OutFormat } from '../passes/out-format.js';
import { resumePlan, type ShardPlan } from '../passes/plan.js';
import { hooksOf, Progress } from '../passes/progress.js';
import { RunWriter } from '../passes/run-writer.js';
import { SpilledSegments } from '../passes/segment-sources.js';
import { ledgerCheckpoints } from './checkpoints.js';
import { readShardSummary, shardPaths } from './layout.js';
import { checkReadDigest, ReadDigest, readDigestAt } from './read-digest.js';
import type { RunCut, ShardOffsets } from './run-cut.js';
import type { Shard } from './shard.js';

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
  docIndexOffset?: number | undefined;
  /** sha256 of the input bytes read up to `at`, as in the score checkpoint. */
  readSha256?: string;
}

interface EmitDone {
  cutKey: string;
  target: string;
  stats: EmitStats;
}

function emptyStats(): EmitStats {
  return { documents: { total: 0, withKept: 0 }, sentences: { total: 0, kept: 0 }, segments: { total: 0, kept: 0 }, bytes: { total: 0, kept: 0 }, outputBytes: 0, seconds: 0 };
}

function cutKeyOf(cut: RunCut, off: ShardOffsets): string {
  return JSON.stringify([cut.keep, cut.keepBy, String(cut.threshold), cut.tieId, off.firstId, off.firstDoc, off.precededByKept]);
}

/**
 * Pass 2 of one shard, resumable: the pass body (passes/emit-pass.ts) reading the shard's
 * documents again beside its spill and doc index (the splitter runs again only for a shard
 * scored before doc indexes existed), with the ledger's checkpoints. Documents with nothing
 * kept are skimmed, not decoded (kept-triage.ts), as in filter. Checkpoints (output length,
 * read position, spill position, separator state) let a resumed run truncate the partial
 * output and continue: byte-identical output. `inputs`: as pass 2 reads them (stdin
 * replaced by the spool); `partial` is written and moved to `target` when whole.
 */
export async function emitShard(s: Shard, inputs: readonly InputKind[], plan: ShardPlan, cut: RunCut, out: { partial: string; target: string; outFormat: OutFormat; segment: number }): Promise<EmitStats> {
  const t0 = performance.now();
  const { shard, of } = s.id;
  const p = shardPaths(s.runDir, s.id);
  const off = cut.shards[shard];
  if (!off || cut.of !== of) throw new TadpoleError('TADPOLE_RUN', `the cut in ${s.runDir} is for ${cut.of} shards, not ${of}: run tadpole cut again`);
  // Another output format is another output: a checkpoint written in one is not continued in the other.
  const cutKey = cutKeyOf(cut, off) + (out.outFormat !== 'input' ? `|${out.outFormat}` : '');
  const donePath = join(p.dir, 'emit.json');
  if (existsSync(donePath)) {
    const d = JSON.parse(readFileSync(donePath, 'utf8')) as EmitDone;
    if (d.cutKey === cutKey && d.target === out.target) {
      if (existsSync(out.partial)) moveFile(out.partial, out.target); // crashed between the record and the rename
      if (existsSync(out.target)) return d.stats;
    }
  }
  mkdirSync(p.dir, { recursive: true });
  let cp = s.resume ? s.ledger.checkpoint<EmitCheckpoint>(shard, of, 'emit')?.state : undefined;
  if (cp && (cp.cutKey !== cutKey || !existsSync(out.partial))) cp = undefined; // another cut: start over
  // What pass 1 left (stats.json): whether it wrote a doc index, and the digest of what it read.
  const scored = readShardSummary(s.runDir, s.id);
  // The doc index, when the score stage left a whole one and a resumed emit knows where it was in it.
  const indexed = scored?.docIndex === true && existsSync(p.docIndex) && (!cp || cp.docIndexOffset !== undefined);
  s.ledger.startShard(shard, of, 'emit', !!cp);
  if (cp) s.ledger.event(shard, 'resume', `emit from input ${cp.at.input} byte ${cp.at.offset}, output byte ${cp.outputBytes}`);
  s.ledger.event(shard, 'emit', indexed ? 'sentence spans from the doc index; documents with nothing kept are not decoded' : 'no doc index (scored by an older version, or resumed from its checkpoint): documents are split again');

  const stats = cp ? structuredClone(cp.stats) : emptyStats();
  const secondsBefore = cp?.stats.seconds ?? 0;
  // What pass 2 reads is hashed as pass 1's was: an input edited in place since is refused, not emitted.
  const digest = new ReadDigest(inputs, plan);
  if (cp) checkReadDigest(digest, cp.at, cp.readSha256, s.runDir);
  const from = cp ? resumePlan(plan, cp.at) : plan;
  const sink = Sink.toResumableFile(out.partial, out.target, cp?.outputBytes ?? 0);
  const writer = new RunWriter(sink, s.reader, out.outFormat, cp ? cp.atStart : !off.precededByKept);
  const consumed = cp?.spillRecords ?? 0;
  const docs = cp?.docs ?? 0;
  const counters = new ReadCounters();
  const progress = new Progress(`emit ${shard}/${of}`, inputs, s.progress);
  const source = new SpilledSegments((triage) => readKinds(inputs, s.reader, { counters, only: from.only, ranges: from.ranges, firstOrdinal: off.firstDoc + docs, triage }), {
    spill: p.spill,
    docIndex: p.docIndex,
    indexed,
    segment: out.segment,
    id: off.firstId + consumed,
    spillRecord: consumed,
    indexOffset: cp?.docIndexOffset ?? 0,
    cut,
    fetchKept: undefined,
  });
  const checkpoints = ledgerCheckpoints(s, 'emit', t0, secondsBefore, async (state: EmitState, seconds: number) => {
    const outputBytes = await sink.sync();
    stats.seconds = seconds;
    const saved: EmitCheckpoint = { cutKey, at: state.at, spillRecords: state.consumed, docs: state.docs, outputBytes, atStart: writer.atStart, stats, docIndexOffset: indexed ? source.indexOffset : undefined, ...readDigestAt(digest, state.at) };
    return { state: saved, progress: { docs: state.docs, segments: state.consumed, bytesConsumed: state.counters.bytes } };
  });
  let written = { docs, consumed };
  try {
    await emitPass({
      source,
      writer: { kind: 'kept', cut },
      out: writer,
      counters,
      tally: stats,
      docs,
      consumed,
      stop: () => false,
      hooks: hooksOf(progress, s.signal),
      checkpoints: {
        afterBatch: (state, now) => {
          written = state;
          return checkpoints.after(state, now);
        },
      },
    });
    if (written.consumed !== off.segments) throw new TadpoleError('TADPOLE_RUN', `shard ${shard}/${of}: ${written.consumed} segments emitted, the cut expected ${off.segments}`);
    if (scored?.readSha256 !== undefined && readDigestAt(digest).readSha256 !== scored.readSha256) {
      throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the inputs changed since the run in ${s.runDir} scored them (the bytes of shard ${shard}/${of} differ from what pass 1 read: edited in place); start a new --run-dir`);
    }
    progress.done(written.docs, counters.bytes);
    stats.outputBytes = await sink.sync();
    stats.seconds = secondsBefore + (performance.now() - t0) / 1000;
    writeFileAtomic(donePath, JSON.stringify({ cutKey, target: out.target, stats } satisfies EmitDone, null, 2) + '\n');
    await sink.close();
  } catch (err) {
    await sink.abort();
    // Output of inputs that changed cannot be resumed: nothing of it stays beside the parts.
    if (err instanceof TadpoleError && err.code === 'TADPOLE_INPUT_CHANGED') {
      rmSync(out.partial, { force: true });
      try {
        s.ledger.dropCheckpoint(shard, of, 'emit');
      } catch {
        // Inputs that changed end the run (no resume), so a checkpoint left here is never read.
      }
    }
    s.ledger.recordStop(shard, of, err);
    throw err;
  }
  s.ledger.updateShard(shard, of, { stage: 'emit', status: 'emitted', seconds: stats.seconds, finished: true });
  return stats;
}
