import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, runMain, tempDir } from '../../helpers/cli.js';
import { RangeServer, s3Env, startS3 } from './servers.js';

// `tadpole eval` on a spec whose task and sources (and the spec itself) live in S3 or behind
// HTTP must report what the same files on disk give. The eval is built from the built-in
// corpus: its bio records against the rest, the built-in bio task, each cut to a third (the
// first 350 records, 60 KB of abstracts): every run reads them whole, more would only cost
// time. The runs on the files on disk, the references, run in this process (runMain).

let tmp: { dir: string; cleanup: () => void };
let s3: Awaited<ReturnType<typeof startS3>>;
const http = new RangeServer();
let base: string;
let env: NodeJS.ProcessEnv;
let localSpec: string;
let expected: unknown;

let MIX: string;
let TASK: string;

function spec(mix: string, task: string, more: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name: 'builtin-bio',
    sources: [
      { label: 'bio', files: [mix], format: 'jsonl-text', where: { field: 'source', in: ['bio'] } },
      { label: 'other', files: [mix], format: 'jsonl-text', where: { field: 'source', notIn: ['bio'] } },
    ],
    inDomain: 'bio',
    task: { files: [task], format: 'lines', docs: 'blank-line' },
    methods: [{ name: 'random' }, { name: 'dsir' }],
    keep: 0.2,
    seed: 1,
    generalSample: 2000,
    ...more,
  });
}

/** The --json report without its timings, the one thing that differs from run to run. */
function report(stdout: Buffer): unknown {
  const j = JSON.parse(stdout.toString()) as { methods: Array<Record<string, unknown>> };
  for (const m of j.methods) delete m.seconds;
  return j;
}

async function evalOf(specName: string, moreEnv: NodeJS.ProcessEnv = {}): Promise<Awaited<ReturnType<typeof runCli>>> {
  return runCli(['eval', specName, '--json'], { env: { ...env, ...moreEnv } });
}

function oneLine(stderr: Buffer): string {
  const lines = stderr.toString().trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

beforeAll(async () => {
  tmp = tempDir('tadpole-eval-remote-');
  const mix = gunzipSync(readFileSync(join(ROOT, 'corpora/builtin/mix.jsonl.gz'))).toString('utf8').split('\n').filter((l) => l !== '').slice(0, 350);
  MIX = join(tmp.dir, 'mix.jsonl.gz');
  writeFileSync(MIX, gzipSync(mix.join('\n') + '\n'));
  const bio = gunzipSync(readFileSync(join(ROOT, 'corpora/builtin/task-bio.txt.gz'))).toString('utf8');
  TASK = join(tmp.dir, 'task-bio.txt.gz');
  writeFileSync(TASK, gzipSync(bio.slice(0, bio.indexOf('\n\n', 60_000)) + '\n'));
  localSpec = join(tmp.dir, 'spec.json');
  writeFileSync(localSpec, spec(MIX, TASK));

  s3 = await startS3(join(tmp.dir, 's3'));
  env = s3Env(s3.endpoint);
  await s3.put('evals', 'data/mix.jsonl.gz', readFileSync(MIX));
  await s3.put('evals', 'data/task-bio.txt.gz', readFileSync(TASK));
  await s3.put('evals', 'spec.json', Buffer.from(spec('s3://evals/data/mix.jsonl.gz', 's3://evals/data/task-bio.txt.gz')));
  await s3.put('evals', 'prefix-spec.json', Buffer.from(spec('s3://evals/data/', 's3://evals/data/task-bio.txt.gz')));
  await s3.put('evals', 'missing-spec.json', Buffer.from(spec('s3://evals/data/nothing.jsonl', 's3://evals/data/task-bio.txt.gz')));
  await s3.put('evals', 'onnx-spec.json', Buffer.from(spec('s3://evals/data/mix.jsonl.gz', 's3://evals/data/task-bio.txt.gz', { methods: [{ name: 'tadpole', embedder: { kind: 'onnx', modelDir: 's3://evals/models/tiny/' } }] })));

  // Behind HTTP: the mix uncompressed (the same documents), everything read with the URL's credentials.
  base = await http.start();
  const withUser = base.replace('http://', 'http://reader:s3cret@');
  http.requireAuthorization = `Basic ${Buffer.from('reader:s3cret').toString('base64')}`;
  http.objects.set('/mix.jsonl', gunzipSync(readFileSync(MIX)));
  http.objects.set('/task-bio.txt.gz', readFileSync(TASK));
  http.objects.set('/spec.json', Buffer.from(spec(`${withUser}/mix.jsonl`, `${withUser}/task-bio.txt.gz`)));

  const local = await runMain(['eval', localSpec, '--json']);
  expect(local.code, local.stderr.toString()).toBe(0);
  expected = report(local.stdout);
  expect((expected as { methods: unknown[] }).methods).toHaveLength(2);
}, 120_000);

afterAll(async () => {
  await http.stop();
  await s3?.stop();
  tmp.cleanup();
});

describe('tadpole eval on remote files reports what the files on disk give', () => {
  it('a spec in S3 naming its task and sources in S3 (gzip objects)', async () => {
    const r = await evalOf('s3://evals/spec.json');
    expect(r.code, r.stderr.toString()).toBe(0);
    expect(r.stderr.toString()).toBe('');
    expect(report(r.stdout)).toEqual(expected);
  }, 60_000);

  it('a local spec is the same run whether its files are paths or S3 objects, and the text table says so too', async () => {
    const mixed = join(tmp.dir, 'mixed.json');
    writeFileSync(mixed, spec('s3://evals/data/mix.jsonl.gz', TASK));
    const r = await runCli(['eval', '--spec', mixed], { env });
    const local = await runMain(['eval', '--spec', localSpec]);
    expect(r.code, r.stderr.toString()).toBe(0);
    // Every column but the timings.
    const table = (out: Buffer) => out.toString().replace(/\s+\d+\.\d$/gm, '');
    expect(table(r.stdout)).toBe(table(local.stdout));
    expect(table(r.stdout)).toMatch(/dsir\s+\d+\.\d%/);
  }, 60_000);

  it('a spec behind HTTP with a user and password in its addresses; the password is never printed', async () => {
    const r = await evalOf(`${base.replace('http://', 'http://reader:s3cret@')}/spec.json`);
    expect(r.code, r.stderr.toString()).toBe(0);
    expect(report(r.stdout)).toEqual(expected);
    expect(http.gets.get('/mix.jsonl')).toBeGreaterThan(0);
    const refused = await evalOf(`${base.replace('http://', 'http://reader:wrong@')}/spec.json`);
    expect(refused.code).toBe(3);
    expect(oneLine(refused.stderr)).toMatch(/^tadpole eval: error: cannot read eval spec http:\/\/127\.0\.0\.1:\d+\/spec\.json: .*401/);
    expect(refused.stderr.toString()).not.toContain('wrong');
  }, 60_000);

  it('refuses with one line what cannot work: a prefix, a missing object, an ONNX model at an address', async () => {
    const prefix = await evalOf('s3://evals/prefix-spec.json');
    expect(prefix.code).toBe(2);
    expect(oneLine(prefix.stderr)).toBe('tadpole eval: error: invalid eval spec (sources[0] "bio"): s3://evals/data/ is a prefix (it ends in "/"): "files" names objects, each one');
    // Refused by its shape, before anything is read: in this process.
    const specPrefix = await runMain(['eval', 's3://evals/', '--json']);
    expect(specPrefix.code).toBe(2);
    expect(oneLine(specPrefix.stderr)).toMatch(/s3:\/\/evals\/ is a prefix .*name each eval spec object/);
    const noSpec = await evalOf('s3://evals/nothing.json');
    expect(noSpec.code).toBe(3);
    expect(oneLine(noSpec.stderr)).toMatch(/^tadpole eval: error: cannot read eval spec s3:\/\/evals\/nothing\.json: cannot read input \(NoSuchKey/);
    const noSource = await evalOf('s3://evals/missing-spec.json');
    expect(noSource.code).toBe(3);
    expect(oneLine(noSource.stderr)).toMatch(/^tadpole eval: error: s3:\/\/evals\/data\/nothing\.jsonl: cannot read input \(NoSuchKey/);
    const onnx = await evalOf('s3://evals/onnx-spec.json');
    expect(onnx.code).toBe(2);
    expect(oneLine(onnx.stderr)).toMatch(/embedder\.modelDir must be a local folder/);
  }, 60_000);
});
