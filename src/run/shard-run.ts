import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tokenCounter } from '../cut/tokens.js';
import { join, resolve } from 'node:path';
import type { OutFormat } from '../passes/out-format.js';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TadpoleError } from '../core/errors.js';
import { DEFAULT_KEEP_BY, type KeepBy } from '../cut/exact.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import { resolveInputs, type InputKind } from '../io/input-kind.js';
import type { ModelFile } from '../model/file.js';
import { refuseCorpusWide } from '../passes/scored.js';
import { partPath, runPaths, shardPaths, type ShardId, type ShardSummary } from './layout.js';
import { RunLock } from './lock.js';
import { planShard, type ShardPlan } from '../passes/plan.js';
import type { SentenceScorer } from '../select/selector.js';
import type { Ledger } from './ledger.js';
import { defaultWorkers } from '../threads/pool.js';
import { openScoring, threadsOf, type Scoring } from '../threads/scoring.js';
import { drivePasses, type PassPlace } from '../passes/drive.js';
import { cutRun, readCut, type RunCut } from './run-cut.js';
import { DEFAULT_DOC_CONTEXT } from '../segment/context.js';
import { sqliteDriver } from './sqlite.js';
import { checkInputsUnchanged, completeInRunDir, docContextIdentity, identityFor, openExistingRun, openRun, tokenizerIdentity } from './run-dir.js';
import { emitShard, type EmitStats } from './shard-emit.js';
import { scoreShard } from './shard-score.js';

interface StageCommon {
  runDir: string;
  resume: boolean;
  checkpointSeconds?: number;
  signal?: AbortSignal;
  progress?: (line: string) => void;
  crashAt?: string;
}

export interface ScoreStageOptions extends StageCommon {
  id: ShardId;
  inputs: string[];
  reader: ReaderOptions;
  model: ModelFile;
  modelSha256: string;
  embedder?: Partial<EmbedderSpec>;
  segment: number;
  /** How much a segment's score leans on its document's (src/segment/context.ts); 0 = the paper's plain mean; default DEFAULT_DOC_CONTEXT. */
  docContext?: number;
  /** A Hugging Face tokenizer.json: each segment's tokens are counted, so the cut can keep by tokens. */
  tokenizer?: string;
  stdin?: Readable;
  batchSentences?: number;
  args: string[];
  scorer?: SentenceScorer;
  log?: (line: string) => void;
  /** Scoring threads (default: every available core); 1 scores in this thread. */
  workers?: number;
}

function withShardLock<T>(runDir: string, id: ShardId, fn: () => Promise<T>): Promise<T> {
  // The ledger's driver is an optional package: when it is missing, say so before making anything.
  sqliteDriver();
  mkdirSync(shardPaths(runDir, id).dir, { recursive: true });
  const lock = RunLock.acquire(shardPaths(runDir, id).lock, `shard ${id.shard}/${id.of} of ${runDir}`);
  return fn().finally(() => lock.release());
}

function stageOpts(o: StageCommon) {
  return {
    runDir: o.runDir,
    resume: o.resume,
    ...(o.checkpointSeconds !== undefined ? { checkpointSeconds: o.checkpointSeconds } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.progress ? { progress: o.progress } : {}),
    ...(o.crashAt ? { crashAt: o.crashAt } : {}),
  };
}

/** Pass 1 of a shard, as a run-directory place runs it: the scorer is opened only if the shard still has scoring to do. */
export interface ShardScoring {
  inputs: readonly InputKind[];
  plan: ShardPlan;
  segment: number;
  docContext?: number;
  tokenizer?: string;
  stdin?: Readable;
  batchSentences?: number;
  /** Opens the scorer; `own`: the place disposes it after pass 1. */
  open: () => Promise<{ scorer: Scoring; own: boolean }>;
}

/** Pass 2 of a shard, as a run-directory place runs it. */
export interface ShardEmitting {
  /** Inputs as pass 2 reads them (stdin replaced by the spool), resolved once pass 1 has written the spool. */
  inputs: () => readonly InputKind[];
  /** The inputs as recorded (stdin named as such): checked unchanged before pass 2. */
  recorded: string[];
  /** The shard's part of the inputs, planned once they are known unchanged. */
  plan: (inputs: readonly InputKind[]) => ShardPlan;
  segment: number;
  partial: string;
  target: string;
  outFormat?: OutFormat;
  /** Runs pass 2 (under the shard's lock, for the emit command). */
  around?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** What a run-directory place left for its entry to report. */
export interface ShardResults {
  summary?: ShardSummary;
  threads?: number;
  emitted?: EmitStats;
}

/**
 * A shard of a run directory as the place where the passes run (drive.ts): pass 1 into the
 * shard's spill, doc index and checkpoints, the cut over every shard of the run (cut.json),
 * pass 2 into a resumable part; the ledger records each. `whole`: one command runs all
 * three (filter --run-dir), and the run's stage in the ledger follows it.
 */
export function runDirPlace(o: StageCommon & { id: ShardId; reader: ReaderOptions; ledger: Ledger; whole?: boolean; score?: ShardScoring; emit?: ShardEmitting }, results: ShardResults = {}): PassPlace<RunCut> {
  const common = { ...stageOpts(o), id: o.id, reader: o.reader, ledger: o.ledger };
  return {
    async score() {
      const sc = o.score;
      if (!sc) throw new TadpoleError('TADPOLE_INTERNAL', 'a run-directory place without inputs to score');
      if (o.whole && existsSync(shardPaths(o.runDir, o.id).done)) return undefined;
      const { scorer, own } = await sc.open();
      try {
        results.threads = threadsOf(scorer);
        refuseCorpusWide(scorer);
        if (o.whole) o.ledger.setMeta({ stage: 'score', status: 'running' });
        const summary = await scoreShard({ ...common, inputs: sc.inputs, plan: sc.plan, scorer, segment: sc.segment, ...(sc.docContext !== undefined ? { docContext: sc.docContext } : {}), ...(sc.tokenizer ? { tokenizer: sc.tokenizer } : {}), ...(sc.stdin ? { stdin: sc.stdin } : {}), ...(sc.batchSentences ? { batchSentences: sc.batchSentences } : {}) });
        results.summary = summary;
        return { moments: { mean: summary.moments.mean, std: summary.moments.n > 0 ? Math.sqrt(summary.moments.m2 / summary.moments.n) : 0 }, reader: summary.reader };
      } finally {
        if (own) await scorer.dispose();
      }
    },
    cut(keep, keepBy) {
      if (o.whole) o.ledger.setMeta({ stage: 'cut' });
      const cut = cutRun(o.runDir, o.id.of, keep, keepBy, o.crashAt);
      if (o.whole) o.ledger.event(null, 'cut', `threshold ${cut.threshold}, tie id ${cut.tieId}, ${cut.keptSegments}/${cut.totalSegments} segments`);
      return cut;
    },
    recordedCut() {
      const cut = readCut(o.runDir);
      if (!cut) throw new TadpoleError('TADPOLE_RUN', `${o.runDir} has no cut yet: run tadpole cut --run-dir ${o.runDir} --keep SHARE first`);
      return cut;
    },
    async emit(cut) {
      const em = o.emit;
      if (!em) throw new TadpoleError('TADPOLE_INTERNAL', 'a run-directory place without an output to emit');
      checkInputsUnchanged(o.ledger, em.recorded, o.runDir);
      if (o.whole) o.ledger.setMeta({ stage: 'emit' });
      const inputs = em.inputs();
      const plan = em.plan(inputs);
      const run = () => emitShard({ ...common, inputs, plan, segment: em.segment, cut, partial: em.partial, target: em.target, ...(em.outFormat ? { outFormat: em.outFormat } : {}) });
      const emitted = await (em.around ? em.around(run) : run());
      results.emitted = emitted;
      return emitted;
    },
  };
}

/** `score --run-dir DIR --shard i/n`: pass 1 of one shard (all shards of a run must use the same inputs, model and settings). */
export async function scoreStage(opts: ScoreStageOptions): Promise<ShardSummary> {
  if (opts.id.of > 1 && opts.inputs.includes(STDIN)) throw new TadpoleError('TADPOLE_USAGE', 'stdin cannot be split into shards: give files (or use --shard 0/1)');
  // Loaded now (and kept for pass 1): a damaged file stops the shard before it reads anything.
  if (opts.tokenizer) tokenCounter(opts.tokenizer);
  return withShardLock(opts.runDir, opts.id, async () => {
    const identity = identityFor({ kind: 'shards', inputs: opts.inputs, reader: opts.reader, segment: opts.segment, ...docContextIdentity(opts.docContext ?? DEFAULT_DOC_CONTEXT), modelSha256: opts.modelSha256, of: opts.id.of, ...tokenizerIdentity(opts.tokenizer) });
    const run = openRun(opts.runDir, identity, { resume: opts.resume, args: opts.args, requireResume: false });
    // The unit its cut counts unless told: kept with the run, so a later default never changes it.
    if (run.created) run.ledger.setMeta({ keepBy: DEFAULT_KEEP_BY });
    try {
      const kinds = resolveInputs(opts.inputs, opts.reader.format);
      const plan = planShard(kinds, run.fingerprints, opts.reader, opts.id.shard, opts.id.of);
      const open = async () => {
        if (opts.scorer) return { scorer: opts.scorer as Scoring, own: false };
        // Every shard samples the WHOLE input set, so all draw (and claim) the same completion.
        const completion = await completeInRunDir(opts.model, kinds, opts.reader, opts.runDir, run.ledger, { workers: opts.workers ?? defaultWorkers(opts.inputs), ...(opts.embedder ? { embedder: opts.embedder } : {}), ...(opts.log ? { log: opts.log } : {}), ...(opts.progress ? { progress: opts.progress } : {}) });
        return { scorer: await openScoring(completion.model, opts.embedder ?? {}, opts.workers ?? defaultWorkers(opts.inputs)), own: true };
      };
      const results: ShardResults = {};
      const score: ShardScoring = { inputs: kinds, plan, segment: opts.segment, docContext: opts.docContext ?? DEFAULT_DOC_CONTEXT, open, ...(opts.tokenizer ? { tokenizer: opts.tokenizer } : {}), ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(opts.batchSentences ? { batchSentences: opts.batchSentences } : {}) };
      await drivePasses(runDirPlace({ ...opts, reader: opts.reader, ledger: run.ledger, score }, results), { stages: ['score'] });
      return results.summary!;
    } finally {
      run.ledger.close();
    }
  });
}

/** What a new cut did to the parts emitted under the one it replaced. */
export interface ReplacedCut {
  keep: number;
  keepBy: KeepBy;
  /** Parts removed from the run directory's parts/ folder. */
  removed: string[];
  /** Emit outputs written elsewhere (-o) under the earlier cut: left in place, named so they are not mixed in. */
  elsewhere: string[];
}

/**
 * `cut --run-dir DIR --keep K`: the global cut over every shard (refused while one is missing).
 * A cut that differs from the one before it removes the parts emitted under that one, so
 * `cat parts/part-*` never mixes two cuts; the ledger marks those shards stale.
 */
export async function cutStage(runDir: string, keep: number, keepBy: KeepBy, crashAt?: string): Promise<RunCut & { replaced?: ReplacedCut }> {
  const { ledger, identity } = openExistingRun(runDir);
  const lock = RunLock.acquire(runPaths(runDir).lock, `run directory ${runDir}`);
  try {
    const earlier = readCut(runDir);
    const place = runDirPlace({ runDir, resume: false, id: { shard: 0, of: identity.of }, reader: identity.reader, ledger, ...(crashAt ? { crashAt } : {}) });
    const cut = (await drivePasses(place, { keep: { share: keep, by: keepBy }, stages: ['cut'] })).cut!;
    // The earlier cut's parts go as soon as cut.json names the new one, before any ledger write:
    // one that fails (a full disk) must not leave them, for a second cut would find cut.json
    // the same as itself and keep them.
    const replaced = earlier && !sameCut(earlier, cut) ? dropEarlierParts(runDir, identity.of, ledger, earlier) : undefined;
    ledger.setMeta({ stage: 'cut', keep: String(keep), keepBy });
    ledger.event(null, 'cut', `keep ${keep} by ${keepBy}: threshold ${cut.threshold}, tie id ${cut.tieId}, ${cut.keptSegments}/${cut.totalSegments} segments`);
    return replaced ? { ...cut, replaced } : cut;
  } finally {
    lock.release();
    ledger.close();
  }
}

function sameCut(a: RunCut, b: RunCut): boolean {
  return a.of === b.of && a.keep === b.keep && a.keepBy === b.keepBy && String(a.threshold) === String(b.threshold) && a.tieId === b.tieId;
}

/**
 * Removes what each shard emitted under an earlier cut from parts/ and records it (a partial
 * output restarts by itself: its checkpoint names its cut). Undefined when nothing was emitted.
 */
function dropEarlierParts(runDir: string, of: number, ledger: Ledger, earlier: RunCut): ReplacedCut | undefined {
  const removed: string[] = [];
  const elsewhere: string[] = [];
  let stale = 0;
  for (let shard = 0; shard < of; shard++) {
    const part = partPath(runDir, { shard, of });
    const record = join(shardPaths(runDir, { shard, of }).dir, 'emit.json');
    let target: string | undefined;
    try {
      target = (JSON.parse(readFileSync(record, 'utf8')) as { target?: string }).target;
    } catch {
      // Never emitted, or its record is unreadable: nothing but the default part to look for.
    }
    if (target && resolve(target) !== resolve(part) && existsSync(target)) elsewhere.push(target);
    if (existsSync(part)) {
      rmSync(part);
      removed.push(part);
    }
    rmSync(record, { force: true });
  }
  // Every file first, then the ledger: a ledger write that fails leaves no part of the earlier cut.
  for (let shard = 0; shard < of; shard++) {
    if (ledger.shard(shard, of)?.stage === 'emit') {
      ledger.updateShard(shard, of, { status: 'stale' });
      stale++;
    }
  }
  if (removed.length === 0 && elsewhere.length === 0 && stale === 0) return undefined;
  const what = `${removed.length} part(s) removed${elsewhere.length ? `; left in place, from the earlier cut: ${elsewhere.join(' ')}` : ''}`;
  ledger.event(null, 'cut', `replaces the cut of keep ${earlier.keep} by ${earlier.keepBy}: ${what}; emit every shard again`);
  return { keep: earlier.keep, keepBy: earlier.keepBy, removed, elsewhere };
}

export interface EmitStageOptions extends StageCommon {
  id: ShardId;
  /** Output file; default parts/part-IIIII-of-NNNNN in the run directory. */
  output?: string;
  /** `-o -`: the part, once written, is also copied here. */
  stdout?: Writable;
  outFormat?: OutFormat;
}

/** `emit --run-dir DIR --shard i/n`: shard i's kept text (reads inputs and settings from the ledger). */
export async function emitStage(opts: EmitStageOptions): Promise<EmitStats & { target: string }> {
  const { ledger, identity } = openExistingRun(opts.runDir);
  const target = opts.output ?? partPath(opts.runDir, opts.id);
  try {
    if (identity.of !== opts.id.of) throw new TadpoleError('TADPOLE_USAGE', `${opts.runDir} was scored as ${identity.of} shards, not ${opts.id.of}: use --shard I/${identity.of}`);
    const emit: ShardEmitting = {
      inputs: () => resolveInputs(identity.inputs.map((i) => (i === STDIN ? runPaths(opts.runDir).spool : i)), identity.reader.format),
      recorded: identity.inputs,
      plan: (inputs) => planShard(inputs, ledger.inputs(), identity.reader, opts.id.shard, opts.id.of),
      segment: identity.segment,
      partial: `${partPath(opts.runDir, opts.id)}.partial`,
      target,
      ...(opts.outFormat ? { outFormat: opts.outFormat } : {}),
      around: (fn) => {
        mkdirSync(runPaths(opts.runDir).parts, { recursive: true });
        return withShardLock(opts.runDir, opts.id, fn);
      },
    };
    const place = runDirPlace({ ...opts, reader: identity.reader, ledger, emit });
    const stats = (await drivePasses(place, { stages: ['emit'] })).tally as EmitStats;
    if (opts.stdout) await copyToStream(target, opts.stdout);
    return { ...stats, target };
  } finally {
    ledger.close();
  }
}

/** Sends a finished output file to stdout; a reader that went away (`| head`) is a quiet stop. */
export async function copyToStream(path: string, out: Writable): Promise<boolean> {
  try {
    await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), out, { end: false });
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
    throw new TadpoleError('TADPOLE_IO', `cannot write output: ${(err as Error).message}`, { cause: err });
  }
}
