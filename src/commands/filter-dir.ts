import { mkdirSync } from 'node:fs';
import { STDIN } from '../io/input.js';
import { refuseReadOnce, resolveInput, resolveInputs } from '../io/input-kind.js';
import { heldOutEntry } from '../model/describe.js';
import { taskShareEntry } from '../cut/share-estimate.js';
import { checkFilterOptions } from '../passes/checks.js';
import { DEFAULT_DOC_CONTEXT } from '../segment/context.js';
import { RunLock } from '../run/lock.js';
import { runPaths, shardPaths } from '../run/layout.js';
import { planShard } from '../passes/plan.js';
import { defaultWorkers } from '../threads/pool.js';
import { openScoring, type Scoring } from '../threads/scoring.js';
import type { FilterOptions, FilterStats, RunDirSettings } from '../passes/options.js';
import { completeInRunDir, docContextIdentity, identityFor, openRun, tokenizerIdentity } from '../run/run-dir.js';
import { sqliteDriver } from '../run/sqlite.js';
import { drivePasses } from '../passes/drive.js';
import { copyToStream, runDirPlace, type ShardEmitting, type ShardResults, type ShardScoring } from '../run/shard-run.js';

/**
 * `filter --run-dir`: the sharded path with one shard (score 0/1, cut, emit 0/1), every
 * stage checkpointed in the run directory so `--resume` continues after a crash. Output
 * is byte-identical to `runFilter` (and to the concatenated parts of an n-shard run).
 */
export async function runFilterInDir(given: FilterOptions & { runDir: RunDirSettings }): Promise<FilterStats> {
  const t0 = performance.now();
  const { runDir: dir, ...rest } = given;
  // Each input's kind is decided here, once (a no-op for kinds the caller resolved); the run's identity names them by path.
  const kinds = resolveInputs(given.inputs, given.reader.format);
  const opts = { ...rest, ...dir, runDir: dir.dir, inputs: kinds.map((k) => k.input) };
  checkFilterOptions(opts);
  refuseReadOnce(opts.inputs, 'filter --run-dir');
  // The ledger's driver is an optional package: when it is missing, say so before making anything.
  sqliteDriver();
  mkdirSync(opts.runDir, { recursive: true });
  const paths = runPaths(opts.runDir);
  const lock = RunLock.acquire(paths.lock, `run directory ${opts.runDir}`);
  const id = { shard: 0, of: 1 };
  const shardLock = (() => {
    try {
      mkdirSync(shardPaths(opts.runDir, id).dir, { recursive: true });
      return RunLock.acquire(shardPaths(opts.runDir, id).lock, `shard 0/1 of ${opts.runDir}`);
    } catch (err) {
      lock.release();
      throw err;
    }
  })();
  let run: ReturnType<typeof openRun> | undefined;
  try {
    const identity = identityFor({ kind: 'filter', inputs: opts.inputs, reader: opts.reader, segment: opts.segment, ...docContextIdentity(opts.docContext ?? DEFAULT_DOC_CONTEXT), modelSha256: opts.modelSha256, of: 1, keep: opts.keep, keepBy: opts.keepBy, ...tokenizerIdentity(opts.tokenizer) });
    run = openRun(opts.runDir, identity, { resume: opts.resume, args: opts.args, requireResume: true });
    const { ledger } = run;
    const plan = planShard(kinds, run.fingerprints, opts.reader, 0, 1);
    const common = { runDir: opts.runDir, id, reader: opts.reader, ledger, resume: opts.resume, ...(opts.checkpointSeconds !== undefined ? { checkpointSeconds: opts.checkpointSeconds } : {}), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.progress ? { progress: opts.progress } : {}), ...(opts.crashAt ? { crashAt: opts.crashAt } : {}) };
    // Completed once per run directory (kept there), so --resume scores with the same model.
    const completion = opts.scorer ? { model: opts.model } : await completeInRunDir(opts.model, kinds, opts.reader, opts.runDir, ledger, { keep: opts.keep, workers: opts.workers ?? defaultWorkers(opts.inputs), ...(opts.embedder ? { embedder: opts.embedder } : {}), ...(opts.log ? { log: opts.log } : {}), ...(opts.detail ? { detail: opts.detail } : {}), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.progress ? { progress: opts.progress } : {}) });
    const tOpen = performance.now();
    const open = async () => (opts.scorer ? { scorer: opts.scorer as Scoring, own: false } : { scorer: await openScoring(completion.model, opts.embedder ?? {}, opts.workers ?? defaultWorkers(opts.inputs)), own: true });
    const score: ShardScoring = { inputs: kinds, plan, segment: opts.segment, open, ...(opts.docContext !== undefined ? { docContext: opts.docContext } : {}), ...(opts.tokenizer ? { tokenizer: opts.tokenizer } : {}), ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(opts.batchSentences ? { batchSentences: opts.batchSentences } : {}) };
    const target = opts.output ?? paths.output;
    // Pass 2 reads stdin from the spool pass 1 wrote: a new input, resolved once it is there.
    const emit: ShardEmitting = { inputs: () => kinds.map((k) => (k.input === STDIN ? resolveInput(paths.spool, opts.reader.format) : k)), recorded: opts.inputs, plan: () => plan, segment: opts.segment, partial: paths.partial, target, ...(opts.outFormat ? { outFormat: opts.outFormat } : {}) };
    const results: ShardResults = {};
    const { cut: found, seconds } = await drivePasses(runDirPlace({ ...common, whole: true, score, emit }, results), { keep: { share: opts.keep, by: opts.keepBy }, ...(opts.progress ? { progress: opts.progress } : {}) });
    const cut = found!;
    const emitted = results.emitted!;
    const { threads } = results;
    let closedEarly = false;
    if (opts.output === undefined) closedEarly = await copyToStream(target, opts.stdout);
    ledger.setMeta({ stage: 'done', status: 'done' });
    ledger.event(null, 'done', `${emitted.outputBytes} bytes written to ${opts.output ?? 'stdout'}`);
    return {
      method: opts.model.method,
      keep: opts.keep,
      keepBy: opts.keepBy,
      segmentSize: opts.segment,
      docContext: opts.docContext ?? DEFAULT_DOC_CONTEXT,
      mode: 'cut',
      threshold: cut.threshold,
      tieId: cut.tieId,
      documents: emitted.documents,
      sentences: emitted.sentences,
      segments: emitted.segments,
      bytes: emitted.bytes,
      ...(cut.tokens ? { tokens: cut.tokens } : {}),
      sentenceScores: { mean: cut.moments.mean, std: cut.moments.n > 0 ? Math.sqrt(cut.moments.m2 / cut.moments.n) : 0 },
      reader: cut.reader,
      seconds: { open: (tOpen - t0) / 1000, ...seconds, total: (performance.now() - t0) / 1000 },
      closedEarly,
      ...(threads !== undefined ? { threads } : {}),
      ...(completion.info ? { completion: completion.info } : {}),
      ...heldOutEntry(completion.model),
      ...taskShareEntry(completion.model),
    };
  } catch (err) {
    run?.ledger.recordRunStop(err);
    throw err;
  } finally {
    run?.ledger.close();
    shardLock.release();
    lock.release();
  }
}
