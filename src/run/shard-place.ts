import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TadpoleError } from '../core/errors.js';
import type { InputKind } from '../io/input-kind.js';
import type { PassPlace, Scored } from '../passes/drive.js';
import type { Pass2Writer } from '../passes/emit-pass.js';
import type { OutFormat } from '../passes/out-format.js';
import type { ShardPlan } from '../passes/plan.js';
import type { SegmentSettings } from '../passes/score-pass.js';
import { refuseCorpusWide } from '../passes/scored.js';
import { threadsOf, type Scoring } from '../threads/scoring.js';
import { shardPaths, type ShardId } from './layout.js';
import { RunLock } from './lock.js';
import { checkInputsUnchanged } from './run-dir.js';
import { cutRun, type RunCut } from './run-cut.js';
import type { Shard } from './shard.js';
import { emitShard, type EmitStats } from './shard-emit.js';
import { scoreShard } from './shard-score.js';
import { sqliteDriver } from './sqlite.js';

/** What a shard's pass 1 reads and scores with; the scorer is opened only if the shard still has scoring to do (`own`: disposed after). */
export interface ShardInputs {
  inputs: readonly InputKind[];
  plan: ShardPlan;
  settings: SegmentSettings & { batchSentences: number; stdin: Readable | undefined };
  open: () => Promise<{ scorer: Scoring; own: boolean }>;
}

/** Where a shard's pass 2 reads and writes. */
export interface ShardOutput {
  /** Inputs as pass 2 reads them (stdin replaced by the spool), resolved once pass 1 has written the spool. */
  inputs: () => readonly InputKind[];
  /** The inputs as recorded (stdin named as such): checked unchanged before pass 2. */
  recorded: readonly string[];
  /** The shard's part of the inputs, planned once they are known unchanged. */
  plan: (inputs: readonly InputKind[]) => ShardPlan;
  segment: number;
  partial: string;
  target: string;
  outFormat: OutFormat;
  /** Runs pass 2 (under the shard's lock, for the emit command). */
  around: <T>(fn: () => Promise<T>) => Promise<T>;
}

/**
 * A shard of a run directory as the place where the passes run (passes/drive.ts): pass 1
 * into the shard's spill, doc index and checkpoints, the cut over every shard of the run
 * (cut.json), pass 2 into a resumable part; the ledger records each. `whole`: one command
 * runs all three (filter --run-dir), and the run's stage in the ledger follows it. What it
 * did is read from it after the drive: `threads` that scored, what pass 2 `emitted`.
 */
export class ShardPlace implements PassPlace<RunCut> {
  threads: number | undefined;
  emitted: EmitStats | undefined;

  constructor(
    private readonly shard: Shard,
    private readonly work: { whole: boolean; score: ShardInputs | undefined; emit: ShardOutput | undefined },
  ) {}

  async score(): Promise<Scored | undefined> {
    const { shard: s, work } = this;
    const sc = work.score;
    if (!sc || (work.whole && existsSync(shardPaths(s.runDir, s.id).done))) return undefined;
    const { scorer, own } = await sc.open();
    try {
      this.threads = threadsOf(scorer);
      refuseCorpusWide(scorer);
      if (work.whole) s.ledger.setMeta({ stage: 'score', status: 'running' });
      const summary = await scoreShard(s, sc.inputs, sc.plan, scorer, sc.settings);
      return { moments: { mean: summary.moments.mean, std: summary.moments.n > 0 ? Math.sqrt(summary.moments.m2 / summary.moments.n) : 0 }, reader: summary.reader };
    } finally {
      if (own) await scorer.dispose();
    }
  }

  /** Pass 2 may run in another process, long after pass 1: the ledger's fingerprints say whether the inputs are still those it scored. */
  betweenPasses(): void {
    const em = this.work.emit;
    if (em) checkInputsUnchanged(this.shard.ledger, [...em.recorded], this.shard.runDir);
  }

  cut(keep: number, keepBy: Parameters<typeof cutRun>[3]): RunCut {
    const { shard: s, work } = this;
    if (work.whole) s.ledger.setMeta({ stage: 'cut' });
    const cut = cutRun(s.runDir, s.id.of, keep, keepBy, s.crashAt);
    if (work.whole) s.ledger.event(null, 'cut', `threshold ${cut.threshold}, tie id ${cut.tieId}, ${cut.keptSegments}/${cut.totalSegments} segments`);
    return cut;
  }

  async emit(writer: Pass2Writer): Promise<{ tally: EmitStats }> {
    const { shard: s, work } = this;
    const em = work.emit;
    if (!em || writer.kind !== 'kept' || !('shards' in writer.cut)) throw new TadpoleError('TADPOLE_INTERNAL', 'a run directory writes kept runs under its own cut, to a part');
    if (work.whole) s.ledger.setMeta({ stage: 'emit' });
    const inputs = em.inputs();
    const plan = em.plan(inputs);
    this.emitted = await em.around(() => emitShard(s, inputs, plan, writer.cut as RunCut, em));
    return { tally: this.emitted };
  }
}

/** Runs `fn` holding shard `id`'s lock (the ledger's driver checked first: nothing is made without it). */
export function withShardLock<T>(runDir: string, id: ShardId, fn: () => Promise<T>): Promise<T> {
  sqliteDriver();
  mkdirSync(shardPaths(runDir, id).dir, { recursive: true });
  const lock = RunLock.acquire(shardPaths(runDir, id).lock, `shard ${id.shard}/${id.of} of ${runDir}`);
  return fn().finally(() => lock.release());
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

