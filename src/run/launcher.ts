import { TadpoleError } from '../core/errors.js';
import type { ShardId } from './layout.js';

/**
 * `--shard auto`: the shard a job array's task is, from the variables its launcher sets. Every
 * launcher here numbers its tasks from 0 once Slurm's first index is taken off, as tadpole's
 * shards are numbered (0/N .. N-1/N).
 */
export interface LauncherShard {
  id: ShardId;
  /** The launcher, for people: "Slurm", "a Kubernetes Indexed Job", ... */
  launcher: string;
  /** What the shard was read from: "SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=0 ...". */
  from: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The variable that names a launcher's task index, tried in this order. */
const INDEX_VARS = [
  ['SLURM_ARRAY_TASK_ID', 'Slurm array'],
  ['JOB_COMPLETION_INDEX', 'Kubernetes Indexed Job'],
  ['AWS_BATCH_JOB_ARRAY_INDEX', 'AWS Batch array'],
  ['CLOUD_RUN_TASK_INDEX', 'Cloud Run job'],
] as const;

/** Kubernetes does not tell a pod the Job's completions: the count comes from here or --shards. */
export const SHARDS_ENV = 'TADPOLE_SHARDS';

interface Reading {
  launcher: string;
  index: number;
  /** Undefined where the launcher does not say how many tasks there are (Kubernetes). */
  count: number | undefined;
  from: string[];
}

const refuse = (message: string): never => {
  throw new TadpoleError('TADPOLE_USAGE', `--shard auto: ${message}`);
};

// An empty variable counts as unset: `export X=` is how shells clear one.
const get = (env: Env, name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

function int(env: Env, name: string): number | undefined {
  const raw = get(env, name);
  if (raw === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) refuse(`${name}="${raw}" is not a whole number >= 0`);
  return n;
}

const shown = (env: Env, names: string[]) => names.filter((n) => get(env, n) !== undefined).map((n) => `${n}=${get(env, n)!.trim()}`);

/**
 * Slurm sets MIN, MAX, STEP and COUNT with every array (`--array=0-9:2`: IDs 0,2,..,8, MIN 0,
 * MAX 8, STEP 2, COUNT 5), so the shard is the task's place in the array, (ID - MIN) / STEP,
 * whatever the array's first index. A list that is not evenly spaced (`--array=1,2,5`) has no
 * such place: COUNT then disagrees with MIN, MAX and STEP, and it is refused.
 */
function slurm(env: Env): Reading | undefined {
  const id = int(env, 'SLURM_ARRAY_TASK_ID');
  if (id === undefined) return undefined;
  const min = int(env, 'SLURM_ARRAY_TASK_MIN');
  const max = int(env, 'SLURM_ARRAY_TASK_MAX');
  const step = int(env, 'SLURM_ARRAY_TASK_STEP') ?? 1;
  const count = int(env, 'SLURM_ARRAY_TASK_COUNT');
  if (min === undefined) return refuse('SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN is not: give --shard I/N');
  if (max === undefined && count === undefined) return refuse('SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_MAX nor SLURM_ARRAY_TASK_COUNT: give --shard I/N');
  if (step < 1) return refuse('SLURM_ARRAY_TASK_STEP=0');
  const fromRange = max === undefined ? undefined : (max - min) / step + 1;
  const vars = shown(env, ['SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_MAX', 'SLURM_ARRAY_TASK_STEP', 'SLURM_ARRAY_TASK_COUNT']);
  if (fromRange !== undefined && (!Number.isInteger(fromRange) || fromRange < 1 || (count !== undefined && count !== fromRange))) {
    return refuse(`the Slurm array is not an evenly spaced range (${vars.join(' ')}): submit --array=0-(N-1), or give --shard I/N`);
  }
  if (id < min || (id - min) % step !== 0) return refuse(`SLURM_ARRAY_TASK_ID=${id} is not in the array (${vars.join(' ')})`);
  return { launcher: 'Slurm', index: (id - min) / step, count: count ?? fromRange, from: vars };
}

function indexAndCount(env: Env, launcher: string, indexVar: string, countVar: string | undefined): Reading | undefined {
  const index = int(env, indexVar);
  if (index === undefined) return undefined;
  const count = countVar ? int(env, countVar) : undefined;
  return { launcher, index, count, from: shown(env, countVar ? [indexVar, countVar] : [indexVar]) };
}

const readings = (env: Env): Reading[] =>
  [
    slurm(env),
    indexAndCount(env, 'a Kubernetes Indexed Job', 'JOB_COMPLETION_INDEX', undefined),
    indexAndCount(env, 'AWS Batch', 'AWS_BATCH_JOB_ARRAY_INDEX', 'AWS_BATCH_JOB_ARRAY_SIZE'),
    indexAndCount(env, 'Cloud Run', 'CLOUD_RUN_TASK_INDEX', 'CLOUD_RUN_TASK_COUNT'),
  ].filter((r): r is Reading => r !== undefined);

function noLauncher(env: Env): never {
  const looked = INDEX_VARS.map(([name, what]) => `${name} (${what})`).join(', ');
  // A job that is not an array sets its launcher's other variables: say why none was taken.
  const hint = get(env, 'SLURM_JOB_ID') !== undefined ? ' (SLURM_JOB_ID is set: a Slurm job, but not an array: submit with --array)' : get(env, 'AWS_BATCH_JOB_ID') !== undefined ? ' (AWS_BATCH_JOB_ID is set: an AWS Batch job, but not an array: submit with --array-properties size=N)' : '';
  return refuse(`no launcher's task index found${hint}: looked for ${looked}; give --shard I/N`);
}

/**
 * The shard this process is, from the launcher's variables in `env`; `shards` (--shards N) is
 * the count where the launcher does not say it, and must agree where it does. Refused (usage,
 * exit 2) when no launcher is found, when two disagree, or when a value is not a whole number
 * or out of range.
 */
export function shardFromLauncher(env: Env, shards?: number): LauncherShard {
  const own = shards ?? int(env, SHARDS_ENV);
  const ownFrom = shards !== undefined ? `--shards ${shards}` : `${SHARDS_ENV}=${own}`;
  const found = readings(env);
  if (found.length === 0) return noLauncher(env);
  const resolved = found.map((r) => {
    if (r.count === undefined && own === undefined) {
      return refuse(`${r.from.join(' ')} (${r.launcher}) does not say how many shards: give --shards N (the Job's completions) or set ${SHARDS_ENV}`);
    }
    if (r.count !== undefined && own !== undefined && r.count !== own) return refuse(`${r.launcher} runs ${r.count} tasks (${r.from.join(' ')}) but ${ownFrom}`);
    const of = r.count ?? own!;
    const from = r.count === undefined ? [...r.from, ownFrom] : r.from;
    if (of < 1 || r.index >= of) return refuse(`task index ${r.index} is out of range for ${of} shards (${from.join(' ')})`);
    return { id: { shard: r.index, of }, launcher: r.launcher, from: from.join(' ') };
  });
  const first = resolved[0]!;
  const other = resolved.find((r) => r.id.shard !== first.id.shard || r.id.of !== first.id.of);
  if (other) return refuse(`launchers disagree: ${first.launcher} says ${first.id.shard}/${first.id.of} (${first.from}), ${other.launcher} says ${other.id.shard}/${other.id.of} (${other.from}); give --shard I/N`);
  return first;
}
