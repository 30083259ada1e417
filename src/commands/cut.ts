import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import type { KeepBy } from '../cut/exact.js';
import { drivePasses } from '../passes/drive.js';
import { partPath, runPaths, shardPaths } from '../run/layout.js';
import type { Ledger } from '../run/ledger.js';
import { RunLock } from '../run/lock.js';
import { openExistingRun } from '../run/run-dir.js';
import { readCut, type RunCut } from '../run/run-cut.js';
import { DEFAULT_CHECKPOINT_SECONDS } from '../run/shard.js';
import { ShardPlace } from '../run/shard-place.js';

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
    const shard = { runDir, id: { shard: 0, of: identity.of }, ledger, reader: identity.reader, resume: false, checkpointSeconds: DEFAULT_CHECKPOINT_SECONDS, signal: undefined, progress: undefined, crashAt };
    const place = new ShardPlace(shard, { whole: false, score: undefined, emit: undefined });
    const { cut } = await drivePasses(place, { stages: ['cut'], keep: { share: keep, by: keepBy }, writes: { kind: 'kept' }, recorded: undefined, threshold: undefined, progress: undefined });
    if (!cut) throw new TadpoleError('TADPOLE_INTERNAL', 'a cut drive made no cut');
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

