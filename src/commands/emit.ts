import { mkdirSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import { STDIN } from '../io/input.js';
import { resolveInputs } from '../io/input-kind.js';
import { drivePasses } from '../passes/drive.js';
import type { OutFormat } from '../passes/out-format.js';
import { planShard } from '../passes/plan.js';
import { partPath, runPaths, type ShardId } from '../run/layout.js';
import { openExistingRun } from '../run/run-dir.js';
import { readCut } from '../run/run-cut.js';
import { DEFAULT_CHECKPOINT_SECONDS } from '../run/shard.js';
import type { EmitStats } from '../run/shard-emit.js';
import { copyToStream, ShardPlace, withShardLock } from '../run/shard-place.js';

/** What `tadpole emit` is given: one shard of a run directory, and where its kept text goes. */
export interface EmitOptions {
  runDir: string;
  id: ShardId;
  resume?: boolean;
  /** Output file; default parts/part-IIIII-of-NNNNN in the run directory. */
  output?: string;
  /** `-o -`: the part, once written, is also copied here. */
  stdout?: Writable;
  outFormat?: OutFormat;
  checkpointSeconds?: number;
  signal?: AbortSignal;
  progress?: (line: string) => void;
  crashAt?: string;
}

/** `emit --run-dir DIR --shard i/n`: shard i's kept text under the run's cut (inputs and settings from the ledger). */
export async function emitStage(o: EmitOptions): Promise<EmitStats & { target: string }> {
  const { ledger, identity } = openExistingRun(o.runDir);
  const target = o.output ?? partPath(o.runDir, o.id);
  try {
    if (identity.of !== o.id.of) throw new TadpoleError('TADPOLE_USAGE', `${o.runDir} was scored as ${identity.of} shards, not ${o.id.of}: use --shard I/${identity.of}`);
    const cut = readCut(o.runDir);
    if (!cut) throw new TadpoleError('TADPOLE_RUN', `${o.runDir} has no cut yet: run tadpole cut --run-dir ${o.runDir} --keep SHARE first`);
    const shard = { runDir: o.runDir, id: o.id, ledger, reader: identity.reader, resume: o.resume ?? false, checkpointSeconds: o.checkpointSeconds ?? DEFAULT_CHECKPOINT_SECONDS, signal: o.signal, progress: o.progress, crashAt: o.crashAt };
    const place = new ShardPlace(shard, {
      whole: false,
      score: undefined,
      emit: {
        inputs: () => resolveInputs(identity.inputs.map((i) => (i === STDIN ? runPaths(o.runDir).spool : i)), identity.reader.format),
        recorded: identity.inputs,
        plan: (inputs) => planShard(inputs, ledger.inputs(), identity.reader, o.id.shard, o.id.of),
        segment: identity.segment,
        partial: `${partPath(o.runDir, o.id)}.partial`,
        target,
        outFormat: o.outFormat ?? 'input',
        around: (fn) => {
          mkdirSync(runPaths(o.runDir).parts, { recursive: true });
          return withShardLock(o.runDir, o.id, fn);
        },
      },
    });
    await drivePasses(place, { stages: ['emit'], keep: { share: cut.keep, by: cut.keepBy }, writes: { kind: 'kept' }, recorded: cut, threshold: undefined, progress: o.progress });
    if (!place.emitted) throw new TadpoleError('TADPOLE_INTERNAL', 'an emit drive wrote nothing');
    if (o.stdout) await copyToStream(target, o.stdout);
    return { ...place.emitted, target };
  } finally {
    ledger.close();
  }
}
