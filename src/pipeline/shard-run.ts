import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OutFormat } from './runs.js';
import type { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import { DEFAULT_KEEP_BY, type KeepBy } from '../cut/exact.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import type { ModelFile } from '../model/file.js';
import { refuseCorpusWide } from './scored.js';
import { completeInRunDir } from './complete.js';
import { partPath, runPaths, shardPaths, type ShardId } from '../shard/layout.js';
import { RunLock } from '../shard/lock.js';
import { planShard } from '../shard/plan.js';
import type { SentenceScorer } from '../select/selector.js';
import type { Ledger } from '../store/ledger.js';
import { defaultWorkers } from './pool.js';
import { openScoring, type Scoring } from './scoring.js';
import { cutRun, readCut, type RunCut } from './run-cut.js';
import { DEFAULT_DOC_CONTEXT } from '../segment/context.js';
import { sqliteDriver } from '../store/sqlite.js';
import { checkInputsUnchanged, docContextIdentity, identityFor, openExistingRun, openRun } from './run-dir.js';
import { emitShard, type EmitStats } from './shard-emit.js';
import { scoreShard, type ShardSummary } from './shard-score.js';

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

/** `score --run-dir DIR --shard i/n`: pass 1 of one shard (all shards of a run must use the same inputs, model and settings). */
export async function scoreStage(opts: ScoreStageOptions): Promise<ShardSummary> {
  if (opts.id.of > 1 && opts.inputs.includes(STDIN)) throw new TadpoleError('TADPOLE_USAGE', 'stdin cannot be split into shards: give files (or use --shard 0/1)');
  return withShardLock(opts.runDir, opts.id, async () => {
    const identity = identityFor({ kind: 'shards', inputs: opts.inputs, reader: opts.reader, segment: opts.segment, ...docContextIdentity(opts.docContext ?? DEFAULT_DOC_CONTEXT), modelSha256: opts.modelSha256, of: opts.id.of });
    const run = openRun(opts.runDir, identity, { resume: opts.resume, args: opts.args, requireResume: false });
    // The unit its cut counts unless told: kept with the run, so a later default never changes it.
    if (run.created) run.ledger.setMeta({ keepBy: DEFAULT_KEEP_BY });
    let scorer: Scoring | undefined;
    try {
      const plan = planShard(opts.inputs, run.fingerprints, opts.reader, opts.id.shard, opts.id.of);
      // Every shard samples the WHOLE input set, so all draw (and claim) the same completion.
      const completion = opts.scorer ? { model: opts.model } : await completeInRunDir(opts.model, opts.inputs, opts.reader, opts.runDir, run.ledger, { workers: opts.workers ?? defaultWorkers(opts.inputs), ...(opts.embedder ? { embedder: opts.embedder } : {}), ...(opts.log ? { log: opts.log } : {}), ...(opts.progress ? { progress: opts.progress } : {}) });
      scorer = opts.scorer ?? (await openScoring(completion.model, opts.embedder ?? {}, opts.workers ?? defaultWorkers(opts.inputs)));
      refuseCorpusWide(scorer);
      return await scoreShard({
        ...stageOpts(opts),
        id: opts.id,
        inputs: opts.inputs,
        reader: opts.reader,
        plan,
        scorer,
        segment: opts.segment,
        docContext: opts.docContext ?? DEFAULT_DOC_CONTEXT,
        ledger: run.ledger,
        ...(opts.stdin ? { stdin: opts.stdin } : {}),
        ...(opts.batchSentences ? { batchSentences: opts.batchSentences } : {}),
      });
    } finally {
      if (scorer && !opts.scorer) await scorer.dispose();
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
export function cutStage(runDir: string, keep: number, keepBy: KeepBy, crashAt?: string): RunCut & { replaced?: ReplacedCut } {
  const { ledger, identity } = openExistingRun(runDir);
  const lock = RunLock.acquire(runPaths(runDir).lock, `run directory ${runDir}`);
  try {
    const earlier = readCut(runDir);
    const cut = cutRun(runDir, identity.of, keep, keepBy, crashAt);
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
  outFormat?: OutFormat;
}

/** `emit --run-dir DIR --shard i/n`: shard i's kept text (reads inputs and settings from the ledger). */
export async function emitStage(opts: EmitStageOptions): Promise<EmitStats & { target: string }> {
  const { ledger, identity } = openExistingRun(opts.runDir);
  try {
    if (identity.of !== opts.id.of) throw new TadpoleError('TADPOLE_USAGE', `${opts.runDir} was scored as ${identity.of} shards, not ${opts.id.of}: use --shard I/${identity.of}`);
    const cut = readCut(opts.runDir);
    if (!cut) throw new TadpoleError('TADPOLE_RUN', `${opts.runDir} has no cut yet: run tadpole cut --run-dir ${opts.runDir} --keep SHARE first`);
    const inputs = identity.inputs.map((i) => (i === STDIN ? runPaths(opts.runDir).spool : i));
    checkInputsUnchanged(ledger, identity.inputs, opts.runDir);
    const plan = planShard(inputs, ledger.inputs(), identity.reader, opts.id.shard, opts.id.of);
    const target = opts.output ?? partPath(opts.runDir, opts.id);
    mkdirSync(runPaths(opts.runDir).parts, { recursive: true });
    const partial = `${partPath(opts.runDir, opts.id)}.partial`;
    const stats = await withShardLock(opts.runDir, opts.id, () =>
      emitShard({ ...stageOpts(opts), id: opts.id, inputs, reader: identity.reader, plan, segment: identity.segment, cut, ledger, partial, target, ...(opts.outFormat ? { outFormat: opts.outFormat } : {}) }),
    );
    return { ...stats, target };
  } finally {
    ledger.close();
  }
}
