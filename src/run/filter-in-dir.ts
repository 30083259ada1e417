import { mkdirSync } from 'node:fs';
import { STDIN } from '../io/input.js';
import { resolveInput } from '../io/input-kind.js';
import { drivePasses } from '../passes/drive.js';
import type { RunDir, RunOptions } from '../passes/run-options.js';
import { planShard } from '../passes/plan.js';
import { statsOf, type FilterStats } from '../passes/stats.js';
import { openScoring, type Scoring } from '../threads/scoring.js';
import { runPaths, shardPaths } from './layout.js';
import { RunLock } from './lock.js';
import { completeInRunDir, docContextIdentity, identityFor, openRun, tokenizerIdentity } from './run-dir.js';
import { copyToStream, ShardPlace } from './shard-place.js';
import { sqliteDriver } from './sqlite.js';

/**
 * `filter --run-dir`: the sharded path with one shard (score 0/1, cut, emit 0/1), every
 * stage checkpointed in the run directory so `--resume` continues after a crash. Output
 * is byte-identical to a run to a sink (and to the concatenated parts of an n-shard run).
 */
export async function filterInDir(o: RunOptions, dir: RunDir, t0: number): Promise<FilterStats> {
  const inputs = o.inputs.map((k) => k.input);
  // The ledger's driver is an optional package: when it is missing, say so before making anything.
  sqliteDriver();
  mkdirSync(dir.dir, { recursive: true });
  const paths = runPaths(dir.dir);
  const lock = RunLock.acquire(paths.lock, `run directory ${dir.dir}`);
  const id = { shard: 0, of: 1 };
  const shardLock = (() => {
    try {
      mkdirSync(shardPaths(dir.dir, id).dir, { recursive: true });
      return RunLock.acquire(shardPaths(dir.dir, id).lock, `shard 0/1 of ${dir.dir}`);
    } catch (err) {
      lock.release();
      throw err;
    }
  })();
  let run: ReturnType<typeof openRun> | undefined;
  try {
    const identity = identityFor({ kind: 'filter', inputs, reader: o.reader, segment: o.segment, ...docContextIdentity(o.docContext), modelSha256: dir.modelSha256, of: 1, keep: o.keep, keepBy: o.keepBy, ...tokenizerIdentity(o.tokenizer) });
    run = openRun(dir.dir, identity, { resume: dir.resume, args: [...dir.args], requireResume: true });
    const { ledger } = run;
    const plan = planShard(o.inputs, run.fingerprints, o.reader, 0, 1);
    // Completed once per run directory (kept there), so --resume scores with the same model.
    const completion = o.scorer ? { model: o.model } : await completeInRunDir(o.model, o.inputs, o.reader, dir.dir, ledger, { keep: o.keep, workers: o.workers, embedder: o.embedder, log: o.log, detail: o.detail, signal: o.signal, progress: o.progress });
    const tOpen = performance.now();
    const open = async () => (o.scorer ? { scorer: o.scorer as Scoring, own: false } : { scorer: await openScoring(completion.model, o.embedder, o.workers), own: true });
    const target = dir.output ?? paths.output;
    const shard = { runDir: dir.dir, id, ledger, reader: o.reader, resume: dir.resume, checkpointSeconds: dir.checkpointSeconds, signal: o.signal, progress: o.progress, crashAt: dir.crashAt };
    const place = new ShardPlace(shard, {
      whole: true,
      score: { inputs: o.inputs, plan, settings: o, open },
      // Pass 2 reads stdin from the spool pass 1 wrote: a new input, resolved once it is there.
      emit: { inputs: () => o.inputs.map((k) => (k.input === STDIN ? resolveInput(paths.spool, o.reader.format) : k)), recorded: inputs, plan: () => plan, segment: o.segment, partial: paths.partial, target, outFormat: o.outFormat, around: (fn) => fn() },
    });
    const driven = await drivePasses(place, { stages: ['score', 'cut', 'emit'], keep: { share: o.keep, by: o.keepBy }, writes: { kind: 'kept' }, recorded: undefined, threshold: undefined, progress: o.progress });
    const outputBytes = place.emitted?.outputBytes ?? 0;
    const closedEarly = dir.output === undefined && dir.stdout ? await copyToStream(target, dir.stdout) : false;
    ledger.setMeta({ stage: 'done', status: 'done' });
    ledger.event(null, 'done', `${outputBytes} bytes written to ${dir.output ?? 'stdout'}`);
    return statsOf(o, driven, { model: completion.model, completion: completion.info, seconds: { open: (tOpen - t0) / 1000, total: (performance.now() - t0) / 1000 }, closedEarly, threads: place.threads, ranges: undefined });
  } catch (err) {
    run?.ledger.recordRunStop(err);
    throw err;
  } finally {
    run?.ledger.close();
    shardLock.release();
    lock.release();
  }
}
