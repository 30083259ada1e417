import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import type { SketchJSON } from '../cut/sketch.js';
import { writeFileAtomic } from '../io/atomic.js';
import { readKinds } from '../io/documents.js';
import { closeSpool, openSpool, STDIN } from '../io/input.js';
import type { InputKind } from '../io/input-kind.js';
import type { ReadPosition, ScoreState } from '../passes/hooks.js';
import { resumePlan, type ShardPlan } from '../passes/plan.js';
import { hooksOf, Progress } from '../passes/progress.js';
import { scorePass, type SegmentSettings } from '../passes/score-pass.js';
import { scoreDocuments, type Scoring } from '../threads/scoring.js';
import { ledgerCheckpoints } from './checkpoints.js';
import { readShardSummary, runPaths, shardPaths, type MomentsState, type ShardSummary } from './layout.js';
import { checkReadDigest, ReadDigest, readDigestAt } from './read-digest.js';
import type { Shard } from './shard.js';
import { verifyPrefix } from './stdin-prefix.js';

interface ScoreCheckpoint {
  at: ReadPosition;
  spillRecords: number;
  docs: number;
  sentences: number;
  bytes: number;
  sketch: SketchJSON;
  moments: MomentsState;
  reader: Record<string, number>;
  seconds: number;
  /** Length of the doc index at this checkpoint; absent in checkpoints written before it existed. */
  docIndexBytes?: number | undefined;
  /** sha256 of the input bytes read up to `at` (read-digest.ts); absent in checkpoints written before it existed. */
  readSha256?: string;
}

/**
 * Pass 1 of one shard, resumable: the pass body (passes/score-pass.ts) with the ledger's
 * checkpoints. Every few seconds (after a whole batch, so at a document boundary) the spill
 * is synced and a checkpoint saved: read position, spill record count, sketch, moments,
 * reader counters. Resuming truncates the spill to the checkpoint and reads on from the
 * saved position, so the result is byte-identical to one attempt.
 */
export async function scoreShard(s: Shard, inputs: readonly InputKind[], plan: ShardPlan, scorer: Scoring, settings: SegmentSettings & { batchSentences: number; stdin: Readable | undefined }): Promise<ShardSummary> {
  const t0 = performance.now();
  const p = shardPaths(s.runDir, s.id);
  const { shard, of } = s.id;
  const done = readShardSummary(s.runDir, s.id);
  if (done) return done;
  mkdirSync(p.dir, { recursive: true });
  const cp = s.resume ? s.ledger.checkpoint<ScoreCheckpoint>(shard, of, 'score') : undefined;
  if (!s.resume && existsSync(p.spill)) {
    throw new TadpoleError('TADPOLE_RUN', `shard ${shard}/${of} of ${s.runDir} has a partial attempt: add --resume to continue it`);
  }
  const prior = s.ledger.shard(shard, of);
  s.ledger.startShard(shard, of, 'score', !!cp);

  // The doc index lets emit skip the splitter and the decoding of documents with nothing
  // kept (as filter's pass 2 does). A checkpoint from before it existed resumes without one.
  const resumed = cp && existsSync(p.spill) ? cp.state : undefined;
  const digest = new ReadDigest(inputs, plan);
  let from = plan;
  if (resumed) {
    checkReadDigest(digest, resumed.at, resumed.readSha256, s.runDir);
    from = resumePlan(plan, resumed.at);
    s.ledger.event(shard, 'resume', `score from input ${resumed.at.input} byte ${resumed.at.offset} (${resumed.spillRecords} segments kept)`);
  }

  // stdin: spooled for pass 2; a resumed pass 1 reads stdin again and checks it against the old spool.
  const stdinAt = inputs.findIndex((k) => k.input === STDIN);
  const usesStdin = stdinAt >= 0 && from.only.has(stdinAt);
  const spoolPath = runPaths(s.runDir).spool;
  let stdin = settings.stdin;
  if (usesStdin && cp && existsSync(spoolPath) && stdin) {
    renameSync(spoolPath, spoolPath + '.prev');
    stdin = verifyPrefix(stdin, spoolPath + '.prev');
  }
  const spool = usesStdin ? openSpool(spoolPath) : undefined;
  const progress = new Progress(`score ${shard}/${of}`, inputs, s.progress);
  const secondsBefore = resumed?.seconds ?? 0;
  const checkpoints = ledgerCheckpoints(s, 'score', t0, secondsBefore, (state: ScoreState, seconds: number) => {
    state.to.spill.sync();
    state.to.index?.sync();
    const saved: ScoreCheckpoint = {
      at: state.at,
      spillRecords: state.to.spill.count,
      docs: state.docs,
      sentences: state.sentences,
      bytes: state.bytes,
      sketch: state.to.sketch.toJSON(),
      moments: { n: state.to.moments.n, mean: state.to.moments.mean, m2: state.to.moments.m2 },
      reader: state.counters.toJSON(),
      seconds,
      docIndexBytes: state.to.index?.bytes,
      ...readDigestAt(digest, state.at),
    };
    return { state: saved, progress: { docs: state.docs, segments: state.to.spill.count, bytesConsumed: state.counters.bytes } };
  });
  let r;
  try {
    r = await scorePass({
      read: (counters, trackCounts) => readKinds(inputs, s.reader, { counters, trackCounts, only: from.only, ranges: from.ranges, firstOrdinal: resumed?.docs ?? 0, stdin, spool }),
      score: (docs) => scoreDocuments(docs, scorer, settings.batchSentences),
      method: scorer.method,
      settings,
      paths: { spill: p.spill, docIndex: p.docIndex },
      hooks: hooksOf(progress, s.signal),
      checkpoints: { from: resumed, tracksCounts: true, durable: true, afterBatch: (state, now) => checkpoints.after(state, now) },
    });
    if (spool) await closeSpool(spool);
    progress.done(r.docs, r.reader.bytes);
  } catch (err) {
    spool?.destroy();
    s.ledger.recordStop(shard, of, err);
    throw err;
  }
  rmSync(spoolPath + '.prev', { force: true });
  const summary: ShardSummary = {
    shard,
    of,
    docs: r.docs,
    segments: r.segments,
    sentences: r.sentences,
    bytes: r.bytes,
    moments: { n: r.moments.n, mean: r.moments.mean, m2: r.moments.m2 },
    reader: r.reader.toJSON(),
    seconds: secondsBefore + (performance.now() - t0) / 1000,
    checkpoints: (prior?.checkpoints ?? 0) + checkpoints.saved,
    resumes: (prior?.resumes ?? 0) + (cp ? 1 : 0),
    docIndex: existsSync(p.docIndex),
    ...readDigestAt(digest),
  };
  writeFileAtomic(p.sketch, JSON.stringify(r.sketch.toJSON()) + '\n');
  writeFileAtomic(p.stats, JSON.stringify(summary, null, 2) + '\n');
  writeFileSync(p.done, `${new Date().toISOString()}\n`);
  s.ledger.updateShard(shard, of, { stage: 'score', status: 'scored', docs: r.docs, segments: r.segments, sentences: r.sentences, bytes: r.bytes, bytesConsumed: r.reader.bytes, seconds: summary.seconds, finished: true });
  return summary;
}
