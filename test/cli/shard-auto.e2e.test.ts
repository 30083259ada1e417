import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runMain } from '../helpers/cli.js';
import { fitModel, newsJsonl, tempDir } from '../run/helpers.js';

/**
 * `--shard auto` in the CLI process itself: the launcher's variables in the child's
 * environment, as Slurm, Kubernetes, AWS Batch and Cloud Run set them, and none of the
 * machine's own (a test run inside a Slurm job must not leak its array into these).
 * The Slurm array runs the binary, so the variables reach it through a child's environment;
 * the other launchers and the refusals read the same variables through the environment main()
 * is given, in this process (the binary gives main() its process.env), without a process start each.
 */
const LAUNCHER_VARS = [
  'SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_MAX', 'SLURM_ARRAY_TASK_STEP', 'SLURM_ARRAY_TASK_COUNT', 'SLURM_JOB_ID',
  'JOB_COMPLETION_INDEX', 'TADPOLE_SHARDS', 'AWS_BATCH_JOB_ARRAY_INDEX', 'AWS_BATCH_JOB_ARRAY_SIZE', 'AWS_BATCH_JOB_ID', 'CLOUD_RUN_TASK_INDEX', 'CLOUD_RUN_TASK_COUNT',
];
const underLauncher = (vars: Record<string, string>) => ({ ...Object.fromEntries(LAUNCHER_VARS.map((v) => [v, undefined])), ...vars });

const N = 3;
let dir: string;
let model: string;
let corpus: string;
let explicitRun: string;

const partsOf = (runDir: string): Buffer => {
  const parts = readdirSync(join(runDir, 'parts')).filter((f) => f.startsWith('part-')).sort();
  expect(parts).toHaveLength(N);
  return Buffer.concat(parts.map((p) => readFileSync(join(runDir, 'parts', p))));
};

// What each shard's score leaves for the cut and emit: the same bytes whichever way the shard was named.
const shardFiles = (runDir: string) =>
  Array.from({ length: N }, (_, i) => ['segments.spill', 'sketch.json', 'docs.index'].map((f) => readFileSync(join(runDir, 'shards', `${i}-of-${N}`, f)))).flat();

beforeAll(async () => {
  dir = tempDir();
  model = fitModel(dir);
  corpus = join(dir, 'news.jsonl');
  writeFileSync(corpus, newsJsonl(300_000));
  explicitRun = join(dir, 'run-explicit');
  for (let i = 0; i < N; i++) expect((await runMain(['score', '-q', '-m', model, '--run-dir', explicitRun, '--shard', `${i}/${N}`, corpus])).code).toBe(0);
  expect((await runMain(['cut', '-q', '--run-dir', explicitRun, '--keep', '0.2'])).code).toBe(0);
  for (let i = 0; i < N; i++) expect((await runMain(['emit', '-q', '--run-dir', explicitRun, '--shard', `${i}/${N}`])).code).toBe(0);
});

describe('--shard auto', () => {
  it("under a Slurm array's variables equals --shard I/N: the same shard files, the same parts, the filter's bytes (score --array=1-3, emit --array=0-4:2)", async () => {
    const run = join(dir, 'run-slurm');
    for (let id = 1; id <= N; id++) {
      const env = underLauncher({ SLURM_JOB_ID: String(100 + id), SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: String(N), SLURM_ARRAY_TASK_STEP: '1', SLURM_ARRAY_TASK_COUNT: String(N) });
      const r = await runCli(['score', '-q', '-m', model, '--run-dir', run, '--shard', 'auto', '--resume', corpus], { env });
      expect(r.code, r.stderr).toBe(0);
      // The one line a job's log shows, also with -q.
      expect(r.stderr).toBe(`tadpole score: shard ${id - 1}/${N} from Slurm (SLURM_ARRAY_TASK_ID=${id} SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=${N} SLURM_ARRAY_TASK_STEP=1 SLURM_ARRAY_TASK_COUNT=${N})\n`);
    }
    expect(shardFiles(run)).toEqual(shardFiles(explicitRun));
    expect((await runMain(['cut', '-q', '--run-dir', run, '--keep', '0.2'])).code).toBe(0);
    for (let id = 0; id <= 2 * (N - 1); id += 2) {
      const env = underLauncher({ SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: String(2 * (N - 1)), SLURM_ARRAY_TASK_STEP: '2', SLURM_ARRAY_TASK_COUNT: String(N) });
      const r = await runCli(['emit', '-q', '--run-dir', run, '--shard', 'auto', '--resume'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`^tadpole emit: shard ${id / 2}/${N} from Slurm \\(SLURM_ARRAY_TASK_ID=${id} `));
    }
    const filtered = await runMain(['filter', '-q', '-m', model, corpus]);
    expect(filtered.stdout.length).toBeGreaterThan(10_000);
    expect(partsOf(run).equals(partsOf(explicitRun))).toBe(true);
    expect(partsOf(run).equals(filtered.stdout)).toBe(true);
  });

  it('Kubernetes (--shards or TADPOLE_SHARDS), AWS Batch and Cloud Run each take their own I/N: emit -o - gives that shard\'s part', async () => {
    const part = (i: number) => readFileSync(join(explicitRun, 'parts', `part-0000${i}-of-0000${N}`));
    const cases: { env: Record<string, string>; flags?: string[]; shard: number; says: string }[] = [
      { env: { JOB_COMPLETION_INDEX: '2' }, flags: ['--shards', String(N)], shard: 2, says: `a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=2 --shards ${N})` },
      { env: { JOB_COMPLETION_INDEX: '1', TADPOLE_SHARDS: String(N) }, shard: 1, says: `a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=1 TADPOLE_SHARDS=${N})` },
      { env: { AWS_BATCH_JOB_ARRAY_INDEX: '0', AWS_BATCH_JOB_ARRAY_SIZE: String(N), AWS_BATCH_JOB_ID: 'abc:0' }, shard: 0, says: `AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX=0 AWS_BATCH_JOB_ARRAY_SIZE=${N})` },
      { env: { CLOUD_RUN_TASK_INDEX: '2', CLOUD_RUN_TASK_COUNT: String(N) }, shard: 2, says: `Cloud Run (CLOUD_RUN_TASK_INDEX=2 CLOUD_RUN_TASK_COUNT=${N})` },
    ];
    for (const c of cases) {
      const r = await runMain(['emit', '-q', '--run-dir', explicitRun, '--shard', 'auto', ...(c.flags ?? []), '-o', '-'], { env: underLauncher(c.env) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(`tadpole emit: shard ${c.shard}/${N} from ${c.says}\n`);
      expect(r.stdout.equals(part(c.shard))).toBe(true);
    }
  });

  it('refuses with exit 2 and one line, before touching the run directory: no launcher, a count that disagrees, launchers that disagree, a bad value', async () => {
    const run = join(dir, 'run-refused');
    const refusals: { env: Record<string, string>; flags?: string[]; says: RegExp }[] = [
      { env: {}, says: /no launcher's task index found: looked for SLURM_ARRAY_TASK_ID \(Slurm array\), JOB_COMPLETION_INDEX .*; give --shard I\/N$/ },
      { env: { SLURM_JOB_ID: '7' }, says: /a Slurm job, but not an array/ },
      { env: { JOB_COMPLETION_INDEX: '1' }, says: /does not say how many shards: give --shards N/ },
      { env: { CLOUD_RUN_TASK_INDEX: '1', CLOUD_RUN_TASK_COUNT: '4' }, flags: ['--shards', '3'], says: /Cloud Run runs 4 tasks .* but --shards 3/ },
      { env: { CLOUD_RUN_TASK_INDEX: '1', CLOUD_RUN_TASK_COUNT: '4', AWS_BATCH_JOB_ARRAY_INDEX: '2', AWS_BATCH_JOB_ARRAY_SIZE: '4' }, says: /launchers disagree: AWS Batch says 2\/4 .* Cloud Run says 1\/4/ },
      { env: { AWS_BATCH_JOB_ARRAY_INDEX: 'one', AWS_BATCH_JOB_ARRAY_SIZE: '4' }, says: /AWS_BATCH_JOB_ARRAY_INDEX="one" is not a whole number/ },
      { env: { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '3' }, says: /task index 4 is out of range for 4 shards/ },
    ];
    for (const c of refusals) {
      const r = await runMain(['score', '-q', '-m', model, '--run-dir', run, '--shard', 'auto', ...(c.flags ?? []), corpus], { env: underLauncher(c.env) });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toMatch(/^tadpole score: error: --shard auto: /);
      expect(r.stderr.trimEnd()).toMatch(c.says);
    }
    expect(existsSync(run)).toBe(false);
    const e = await runMain(['emit', '--run-dir', explicitRun, '--shard', '1/3', '--shards', '3'], { env: underLauncher({}) });
    expect(e.code).toBe(2);
    expect(e.stderr).toBe('tadpole emit: error: --shards N goes with --shard auto (--shard I/N says N itself)\n');
  });
});
