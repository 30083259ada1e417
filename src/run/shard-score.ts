import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import type { SketchJSON } from '../cut/sketch.js';
import { writeFileAtomic } from '../io/atomic.js';
import { ReadCounters, readKinds, type Doc, type ReaderOptions } from '../io/documents.js';
import { closeSpool, openSpool, STDIN } from '../io/input.js';
import { crashPoint, throwIfAborted } from '../core/interrupt.js';
import { readShardSummary, runPaths, shardPaths, type MomentsState, type ShardId, type ShardSummary } from './layout.js';
import { resumePlan, type ShardPlan } from '../passes/plan.js';
import { ReadDigest } from './read-digest.js';
import { verifyPrefix } from './stdin-prefix.js';
import type { Ledger } from './ledger.js';
import type { InputKind } from '../io/input-kind.js';
import { openSpill, spillBatch } from '../passes/spill-pass.js';
import { tokenCounter } from '../cut/tokens.js';
import { Progress } from '../passes/progress.js';
import { scoreDocuments, type Scoring } from '../threads/scoring.js';

/** Default checkpoint interval: a resumed run loses at most this much work plus one batch. */
export const DEFAULT_CHECKPOINT_SECONDS = 2;

/** Where reading restarts: a document boundary. */
export interface ReadPosition {
  input: number;
  offset: number;
  line: number;
}

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
  docIndexBytes?: number;
  /** sha256 of the input bytes read up to `at` (read-digest.ts); absent in checkpoints written before it existed. */
  readSha256?: string;
}

export interface ScoreShardOptions {
  runDir: string;
  id: ShardId;
  inputs: readonly InputKind[];
  reader: ReaderOptions;
  plan: ShardPlan;
  scorer: Scoring;
  segment: number;
  /** How much a segment's score leans on its document's (src/segment/context.ts); 0 = the paper's plain mean; default DEFAULT_DOC_CONTEXT. */
  docContext?: number;
  /** --tokenizer: a tokenizer.json whose token counts each segment's spill record carries. */
  tokenizer?: string;
  ledger: Ledger;
  /** Continue from the shard's last checkpoint when there is one (a fresh start otherwise). */
  resume: boolean;
  stdin?: Readable;
  batchSentences?: number;
  checkpointSeconds?: number;
  signal?: AbortSignal;
  progress?: (line: string) => void;
  crashAt?: string;
}

/**
 * Pass 1 of one shard, resumable: scores every sentence, spills one record per segment,
 * feeds the sketch, and every few seconds (after a whole batch, so at a document
 * boundary) syncs the spill and saves a checkpoint: read position, spill record count,
 * sketch, moments, reader counters. Resuming truncates the spill to the checkpoint and
 * reads on from the saved position, so the result is byte-identical to one attempt.
 */
export async function scoreShard(opts: ScoreShardOptions): Promise<ShardSummary> {
  const t0 = performance.now();
  const p = shardPaths(opts.runDir, opts.id);
  const { shard, of } = opts.id;
  const done = readShardSummary(opts.runDir, opts.id);
  if (done) return done;
  mkdirSync(p.dir, { recursive: true });
  const cp = opts.resume ? opts.ledger.checkpoint<ScoreCheckpoint>(shard, of, 'score') : undefined;
  if (!opts.resume && existsSync(p.spill)) {
    throw new TadpoleError('TADPOLE_RUN', `shard ${shard}/${of} of ${opts.runDir} has a partial attempt: add --resume to continue it`);
  }
  const prior = opts.ledger.shard(shard, of);
  opts.ledger.startShard(shard, of, 'score', !!cp);

  // The doc index lets emit skip the splitter and the decoding of documents with nothing
  // kept (as filter's pass 2 does). A checkpoint from before it existed resumes without one.
  const resumed = cp && existsSync(p.spill) ? cp.state : undefined;
  const to = openSpill({ spill: p.spill, docIndex: p.docIndex }, resumed, opts.tokenizer ? tokenCounter(opts.tokenizer) : undefined);
  const { spill, index, sketch, moments } = to;
  const counters = new ReadCounters();
  let plan = opts.plan;
  let docs = 0;
  let sentences = 0;
  let bytes = 0;
  let secondsBefore = 0;
  const digest = new ReadDigest(opts.inputs, opts.plan);
  if (resumed) {
    const s = resumed;
    counters.restore(s.reader);
    checkReadDigest(digest, s.at, s.readSha256, opts.runDir);
    plan = resumePlan(plan, s.at);
    docs = s.docs;
    sentences = s.sentences;
    bytes = s.bytes;
    secondsBefore = s.seconds;
    opts.ledger.event(shard, 'resume', `score from input ${s.at.input} byte ${s.at.offset} (${s.spillRecords} segments kept)`);
  }

  // stdin: spooled for pass 2; a resumed pass 1 reads stdin again and checks it against the old spool.
  const stdinAt = opts.inputs.findIndex((k) => k.input === STDIN);
  const usesStdin = stdinAt >= 0 && plan.only.has(stdinAt);
  const spoolPath = runPaths(opts.runDir).spool;
  let stdin = opts.stdin;
  if (usesStdin && cp && existsSync(spoolPath) && stdin) {
    renameSync(spoolPath, spoolPath + '.prev');
    stdin = verifyPrefix(stdin, spoolPath + '.prev');
  }
  const spool = usesStdin ? openSpool(spoolPath) : undefined;

  let lastCheckpoint = performance.now();
  let checkpoints = 0;
  let position: ReadPosition | undefined;
  const interval = (opts.checkpointSeconds ?? DEFAULT_CHECKPOINT_SECONDS) * 1000;
  const progress = new Progress(`score ${shard}/${of}`, opts.inputs, opts.progress);
  const save = () => {
    if (!position) return;
    spill.sync();
    index?.sync();
    const state: ScoreCheckpoint = {
      at: position,
      spillRecords: spill.count,
      docs,
      sentences,
      bytes,
      sketch: sketch.toJSON(),
      moments: { ...moments },
      reader: counters.toJSON(),
      seconds: secondsBefore + (performance.now() - t0) / 1000,
      ...(index ? { docIndexBytes: index.bytes } : {}),
      ...readDigestAt(digest, position),
    };
    opts.ledger.saveCheckpoint(shard, of, 'score', state, { docs, segments: spill.count, bytesConsumed: counters.bytes, seconds: state.seconds });
    checkpoints++;
    lastCheckpoint = performance.now();
    crashPoint(opts.crashAt, `score:${checkpoints}`);
  };

  try {
    // The reader runs ahead of scoring; its per-document snapshots (Doc.counts) say what
    // it had seen at each boundary, so a checkpoint saves exactly the counts up to it.
    const ahead = new ReadCounters();
    ahead.restore(counters.toJSON());
    const docBatches = readKinds(opts.inputs, opts.reader, {
      counters: ahead,
      trackCounts: true,
      only: plan.only,
      ranges: plan.ranges,
      firstOrdinal: docs,
      ...(stdin ? { stdin } : {}),
      ...(spool ? { spool } : {}),
    });
    for await (const b of scoreDocuments(docBatches, opts.scorer, opts.batchSentences)) {
      for (const seg of spillBatch(b, to, opts.scorer.method, opts.segment, opts.docContext, spill.count)) {
        sentences += seg.sentences;
        bytes += seg.bytes;
      }
      const last = b.docs[b.docs.length - 1] as Doc;
      docs = last.ordinal + 1;
      position = { input: last.input, offset: last.nextOffset, line: last.nextLine ?? 1 };
      if (last.counts) counters.restore(last.counts);
      progress.update(docs, counters.bytes);
      if (opts.signal?.aborted) {
        save();
        throwIfAborted(opts.signal);
      }
      if (performance.now() - lastCheckpoint >= interval) save();
    }
    if (spool) await closeSpool(spool);
    progress.done(docs, counters.bytes);
  } catch (err) {
    spill.close();
    index?.close();
    spool?.destroy();
    opts.ledger.recordStop(shard, of, err);
    throw err;
  }
  spill.sync();
  spill.close();
  index?.sync();
  index?.close();
  rmSync(spoolPath + '.prev', { force: true });
  const summary: ShardSummary = {
    shard,
    of,
    docs,
    segments: spill.count,
    sentences,
    bytes,
    moments: { ...moments },
    reader: counters.toJSON(),
    seconds: secondsBefore + (performance.now() - t0) / 1000,
    checkpoints: (prior?.checkpoints ?? 0) + checkpoints,
    resumes: (prior?.resumes ?? 0) + (cp ? 1 : 0),
    ...(index ? { docIndex: true } : {}),
    ...readDigestAt(digest),
  };
  writeFileAtomic(p.sketch, JSON.stringify(sketch.toJSON()) + '\n');
  writeFileAtomic(p.stats, JSON.stringify(summary, null, 2) + '\n');
  writeFileSync(p.done, `${new Date().toISOString()}\n`);
  opts.ledger.updateShard(shard, of, { stage: 'score', status: 'scored', docs, segments: spill.count, sentences, bytes, bytesConsumed: counters.bytes, seconds: summary.seconds, finished: true });
  return summary;
}

/** The digest of what was read up to `at` (the whole plan without it); nothing when no input is hashed. */
export function readDigestAt(digest: ReadDigest, at?: ReadPosition): { readSha256?: string } {
  if (!digest.covers) return {};
  digest.advance(at);
  return { readSha256: digest.digest() };
}

/** A resumed shard hashes what its checkpoint says was read and refuses an input edited there since. */
export function checkReadDigest(digest: ReadDigest, at: ReadPosition, recorded: string | undefined, runDir: string): void {
  if (recorded === undefined || !digest.covers) return;
  digest.advance(at);
  if (digest.digest() !== recorded) {
    throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the inputs changed since the run in ${runDir} read them: the bytes it read, up to ${digest.path(at.input)} byte ${at.offset}, differ now (edited in place); cannot resume: start a new --run-dir`);
  }
}
