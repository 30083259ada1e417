import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { TadpoleError } from '../core/errors.js';
import { addressSpaceInUse, processLimits, ulimitV } from '../core/limits.js';

/**
 * Scoring threads per core at most. Scoring is CPU-bound: past one thread a core, threads
 * only take turns, and each costs about a CPU-second and a V8 heap to start, so more is never
 * faster; 4x leaves room to measure oversubscription. The bound turns a typo (--workers
 * 100000 once started 15.8 GB of threads for 11 minutes) into one line before any starts.
 */
const WORKERS_PER_CORE = 4;
const MB = 2 ** 20;

export function mostWorkers(): number {
  return WORKERS_PER_CORE * availableParallelism();
}

/**
 * Under an address-space limit (`ulimit -v`) a V8 isolate that cannot reserve its memory
 * aborts the whole process ("Fatal process OOM ... CodeRange", or "JavaScript heap out of
 * memory": exit 133/134, 30 lines of GC log, temp files left), which no handler can catch.
 * So the budget is checked before any thread starts: this thread keeps MAIN_RESERVE beyond
 * what the process already holds (a 16 MiB document, the --max-doc-bytes default, peaks at
 * 461 MB: test/hostile/README.md), and each worker WORKER_RESERVE, within which its heap
 * limits (WORKER_LIMITS) end it first, as ERR_WORKER_OUT_OF_MEMORY: caught, one line, exit 6.
 * Measured (Node 20, x64): a worker with these limits adds 90-360 MB of VmSize before it
 * scores; a 50 MB filter with one thread failed at ulimit -v 1050000 and passed at 1100000.
 */
const WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 384, maxYoungGenerationSizeMb: 32, codeRangeSizeMb: 32 };
const WORKER_RESERVE = 640 * MB;
const MAIN_RESERVE = 512 * MB;

/** Worker resource limits under `ulimit -v`; none without it (V8's own defaults, as always). */
export function workerResourceLimits(): ResourceLimits | undefined {
  return processLimits().addressSpace !== undefined ? WORKER_LIMITS : undefined;
}

/** Bytes of address space left under `ulimit -v`; undefined without a limit. */
function addressSpaceLeft(): { limit: number; left: number } | undefined {
  const limit = processLimits().addressSpace;
  return limit === undefined ? undefined : { limit, left: limit - (addressSpaceInUse() ?? 0) };
}

/** Scoring threads (this one included) that fit under `ulimit -v`; Infinity without one. */
export function threadsThatFit(): number {
  const space = addressSpaceLeft();
  if (!space) return Infinity;
  return 1 + Math.max(0, Math.floor((space.left - MAIN_RESERVE) / WORKER_RESERVE));
}

/** Refuses `n` threads (or even this one) that do not fit under `ulimit -v`, naming what does. */
export function checkThreadsFit(n: number): void {
  const space = addressSpaceLeft();
  if (!space) return;
  const needed = MAIN_RESERVE + (n - 1) * WORKER_RESERVE;
  if (space.left >= needed) return;
  const raise = `raise the limit (ulimit -v unlimited, or at least ${Math.ceil((space.limit + needed - space.left) / 1024)})`;
  const where = `this process's address-space limit (${ulimitV(space.limit)}) leaves ${Math.max(0, Math.floor(space.left / MB))} MB`;
  if (space.left < MAIN_RESERVE) throw new TadpoleError('TADPOLE_LIMIT', `${where}; scoring needs about ${MAIN_RESERVE / MB} MB: ${raise}`);
  const fit = threadsThatFit();
  throw new TadpoleError('TADPOLE_LIMIT', `--workers ${n} does not fit: ${where} and each thread beyond the first reserves about ${WORKER_RESERVE / MB} MB; give --workers ${fit}, or ${raise}`);
}
