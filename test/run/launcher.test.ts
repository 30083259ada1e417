import { describe, expect, it } from 'vitest';
import { TadpoleError } from '../../src/core/errors.js';
import { shardFromLauncher } from '../../src/run/launcher.js';

const refusal = (env: Record<string, string>, shards?: number): string => {
  try {
    shardFromLauncher(env, shards);
  } catch (err) {
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).exitCode).toBe(2);
    expect((err as Error).message).not.toContain('\n');
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('shardFromLauncher: Slurm job arrays', () => {
  it('--array=0-7: the task ID is the shard', () => {
    const got = shardFromLauncher({ SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '7', SLURM_ARRAY_TASK_STEP: '1', SLURM_ARRAY_TASK_COUNT: '8' });
    expect(got.id).toEqual({ shard: 3, of: 8 });
    expect(got.launcher).toBe('Slurm');
    expect(got.from).toBe('SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=7 SLURM_ARRAY_TASK_STEP=1 SLURM_ARRAY_TASK_COUNT=8');
  });

  it('--array=1-8 (1-based): the first index is taken off, so tasks 1..8 are shards 0..7', () => {
    const env = (id: number) => ({ SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '8' });
    expect([1, 2, 8].map((i) => shardFromLauncher(env(i)).id)).toEqual([
      { shard: 0, of: 8 },
      { shard: 1, of: 8 },
      { shard: 7, of: 8 },
    ]);
  });

  it('--array=0-9:2 (a step): IDs 0,2,..,8 are shards 0..4 of 5', () => {
    const env = (id: number) => ({ SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '8', SLURM_ARRAY_TASK_STEP: '2', SLURM_ARRAY_TASK_COUNT: '5' });
    expect([0, 2, 4, 6, 8].map((i) => shardFromLauncher(env(i)).id.shard)).toEqual([0, 1, 2, 3, 4]);
    expect(shardFromLauncher(env(6)).id.of).toBe(5);
    expect(refusal(env(3))).toMatch(/SLURM_ARRAY_TASK_ID=3 is not in the array/);
  });

  it('the count from SLURM_ARRAY_TASK_COUNT alone, or from MIN and MAX alone', () => {
    expect(shardFromLauncher({ SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_MIN: '5', SLURM_ARRAY_TASK_COUNT: '3' }).id).toEqual({ shard: 0, of: 3 });
    expect(shardFromLauncher({ SLURM_ARRAY_TASK_ID: '6', SLURM_ARRAY_TASK_MIN: '4', SLURM_ARRAY_TASK_MAX: '6' }).id).toEqual({ shard: 2, of: 3 });
  });

  it('refuses a list that is not evenly spaced (--array=1,2,5), an ID past the end, and missing MIN/MAX/COUNT', () => {
    expect(refusal({ SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '5', SLURM_ARRAY_TASK_STEP: '1', SLURM_ARRAY_TASK_COUNT: '3' })).toMatch(/not an evenly spaced range/);
    expect(refusal({ SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '6', SLURM_ARRAY_TASK_STEP: '2' })).toMatch(/not an evenly spaced range/);
    expect(refusal({ SLURM_ARRAY_TASK_ID: '9', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '4' })).toMatch(/task index 9 is out of range for 4 shards/);
    expect(refusal({ SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '2', SLURM_ARRAY_TASK_MAX: '4' })).toMatch(/SLURM_ARRAY_TASK_ID=1 is not in the array/);
    expect(refusal({ SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '4' })).toMatch(/SLURM_ARRAY_TASK_MIN is not/);
    expect(refusal({ SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0' })).toMatch(/neither SLURM_ARRAY_TASK_MAX nor SLURM_ARRAY_TASK_COUNT/);
  });

  it('a Slurm job that is not an array is named in the refusal', () => {
    expect(refusal({ SLURM_JOB_ID: '41' })).toMatch(/SLURM_JOB_ID is set: a Slurm job, but not an array/);
  });
});

describe('shardFromLauncher: Kubernetes, AWS Batch, Cloud Run', () => {
  it('Kubernetes Indexed Job: JOB_COMPLETION_INDEX with the count from --shards or TADPOLE_SHARDS, which must agree', () => {
    expect(shardFromLauncher({ JOB_COMPLETION_INDEX: '2' }, 16)).toEqual({ id: { shard: 2, of: 16 }, launcher: 'a Kubernetes Indexed Job', from: 'JOB_COMPLETION_INDEX=2 --shards 16' });
    expect(shardFromLauncher({ JOB_COMPLETION_INDEX: '15', TADPOLE_SHARDS: '16' }).id).toEqual({ shard: 15, of: 16 });
    expect(shardFromLauncher({ JOB_COMPLETION_INDEX: '1', TADPOLE_SHARDS: '9' }, 4).id).toEqual({ shard: 1, of: 4 });
    expect(refusal({ JOB_COMPLETION_INDEX: '2' })).toMatch(/does not say how many shards: give --shards N/);
    expect(refusal({ JOB_COMPLETION_INDEX: '16' }, 16)).toMatch(/task index 16 is out of range for 16 shards/);
  });

  it('AWS Batch: AWS_BATCH_JOB_ARRAY_INDEX of AWS_BATCH_JOB_ARRAY_SIZE', () => {
    expect(shardFromLauncher({ AWS_BATCH_JOB_ARRAY_INDEX: '7', AWS_BATCH_JOB_ARRAY_SIZE: '10', AWS_BATCH_JOB_ID: 'x:7' })).toEqual({ id: { shard: 7, of: 10 }, launcher: 'AWS Batch', from: 'AWS_BATCH_JOB_ARRAY_INDEX=7 AWS_BATCH_JOB_ARRAY_SIZE=10' });
    expect(refusal({ AWS_BATCH_JOB_ARRAY_INDEX: '7', AWS_BATCH_JOB_ARRAY_SIZE: '10' }, 8)).toMatch(/AWS Batch runs 10 tasks .* but --shards 8/);
    expect(refusal({ AWS_BATCH_JOB_ID: 'abc' })).toMatch(/an AWS Batch job, but not an array/);
  });

  it('Cloud Run: CLOUD_RUN_TASK_INDEX of CLOUD_RUN_TASK_COUNT', () => {
    expect(shardFromLauncher({ CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '1' }).id).toEqual({ shard: 0, of: 1 });
    expect(shardFromLauncher({ CLOUD_RUN_TASK_INDEX: '4', CLOUD_RUN_TASK_COUNT: '5' }).launcher).toBe('Cloud Run');
    expect(refusal({ CLOUD_RUN_TASK_INDEX: '5', CLOUD_RUN_TASK_COUNT: '5' })).toMatch(/out of range for 5 shards/);
    expect(refusal({ CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '0' })).toMatch(/out of range for 0 shards/);
  });
});

describe('shardFromLauncher: refusals', () => {
  it('no launcher: one line naming every variable looked for', () => {
    const m = refusal({ PATH: '/usr/bin', TADPOLE_SHARDS: '4' });
    for (const v of ['SLURM_ARRAY_TASK_ID', 'JOB_COMPLETION_INDEX', 'AWS_BATCH_JOB_ARRAY_INDEX', 'CLOUD_RUN_TASK_INDEX']) expect(m).toContain(v);
    // An empty variable is unset, as `export X=` leaves it.
    expect(refusal({ SLURM_ARRAY_TASK_ID: '', CLOUD_RUN_TASK_INDEX: '' })).toMatch(/no launcher's task index found/);
  });

  it('values that are not whole numbers', () => {
    for (const bad of ['-1', '1.5', 'three', '0x3', '1e3', '99999999999999999999']) {
      expect(refusal({ CLOUD_RUN_TASK_INDEX: bad, CLOUD_RUN_TASK_COUNT: '4' })).toContain(`CLOUD_RUN_TASK_INDEX="${bad}" is not a whole number`);
    }
    expect(refusal({ JOB_COMPLETION_INDEX: '1', TADPOLE_SHARDS: 'many' })).toContain('TADPOLE_SHARDS="many"');
  });

  it('two launchers: the same shard is taken, different ones are refused', () => {
    const slurm = { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '3' };
    expect(shardFromLauncher({ ...slurm, CLOUD_RUN_TASK_INDEX: '2', CLOUD_RUN_TASK_COUNT: '4' }).launcher).toBe('Slurm');
    expect(refusal({ ...slurm, CLOUD_RUN_TASK_INDEX: '1', CLOUD_RUN_TASK_COUNT: '4' })).toMatch(/launchers disagree: Slurm says 2\/4 .* Cloud Run says 1\/4/);
    expect(refusal({ ...slurm, AWS_BATCH_JOB_ARRAY_INDEX: '2', AWS_BATCH_JOB_ARRAY_SIZE: '8' })).toMatch(/launchers disagree/);
  });
});
