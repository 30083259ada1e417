import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, runMain, tempDir } from '../../helpers/cli.js';
import { RangeServer, s3Env, startS3 } from './servers.js';

// Remote inputs read by Range requests must give the same bytes as the same files on disk:
// one S3 object, a prefix of several, a gzip object, and the same corpus behind plain HTTP,
// in one thread, in two, and through a run folder. Both servers run here, on 127.0.0.1.
// A fifth of the built-in mix (about 350 KB, over the 100 KB the seeking test sets as its
// floor) is the corpus: every path below reads it whole, so more bytes would only cost time.
// The references on disk run in this process (runMain); what reads a remote object is the CLI.

let tmp: { dir: string; cleanup: () => void };
let s3: Awaited<ReturnType<typeof startS3>>;
const http = new RangeServer();
let base: string;
let env: NodeJS.ProcessEnv;
let model: string;
let corpus: string;
let parts: string;
let gz: string;
let task: string;
let full: string;
let plain: Buffer;
let expected: Buffer;

async function filter(input: string[], extra: string[] = [], moreEnv: NodeJS.ProcessEnv = {}): Promise<Awaited<ReturnType<typeof runCli>>> {
  return runCli(['filter', '-m', model, '-q', ...extra, ...input], { env: { ...env, ...moreEnv } });
}

/** The same filter of local files, in this process. */
async function filterHere(input: string[]): Promise<Awaited<ReturnType<typeof runMain>>> {
  return runMain(['filter', '-m', model, '-q', ...input]);
}

const threadsOf = (statsPath: string): unknown => (JSON.parse(readFileSync(statsPath, 'utf8')) as { threads?: number }).threads;

beforeAll(async () => {
  tmp = tempDir('tadpole-remote-');
  const whole = gunzipSync(readFileSync(join(ROOT, 'corpora/builtin/mix.jsonl.gz')));
  // The whole mix is kept for the one output that must pass 5 MiB (four copies of it).
  full = join(tmp.dir, 'full.jsonl');
  writeFileSync(full, whole);
  const lines = whole.toString('utf8').split('\n').filter((l) => l !== '').slice(0, 200);
  plain = Buffer.from(lines.join('\n') + '\n');
  corpus = join(tmp.dir, 'mix.jsonl');
  writeFileSync(corpus, plain);
  gz = join(tmp.dir, 'mix.jsonl.gz');
  writeFileSync(gz, gzipSync(plain));
  // The first 60 KB of the task's abstracts: enough for a model that keeps the bio records.
  const bio = gunzipSync(readFileSync(join(ROOT, 'corpora/builtin/task-bio.txt.gz'))).toString('utf8');
  task = join(tmp.dir, 'task.txt');
  writeFileSync(task, bio.slice(0, bio.indexOf('\n\n', 60_000)) + '\n');
  parts = join(tmp.dir, 'parts');
  mkdirSync(parts);
  const third = Math.ceil(lines.length / 3);
  for (let k = 0; k < 3; k++) writeFileSync(join(parts, `part-${k}.jsonl`), lines.slice(k * third, (k + 1) * third).join('\n') + '\n');
  writeFileSync(join(parts, 'notes.md'), 'not a corpus file\n');

  s3 = await startS3(join(tmp.dir, 's3'));
  env = s3Env(s3.endpoint);
  await s3.put('corpus', 'mix.jsonl', plain);
  await s3.put('corpus', 'mix.jsonl.gz', readFileSync(gz));
  for (const f of ['part-0.jsonl', 'part-1.jsonl', 'part-2.jsonl', 'notes.md']) await s3.put('corpus', `parts/${f}`, readFileSync(join(parts, f)));
  base = await http.start();
  http.objects.set('/mix.jsonl', plain);

  model = join(tmp.dir, 'model.json');
  const fit = await runMain(['fit', '--task', task, '--general', corpus, '-q', '-o', model]);
  expect(fit.code, fit.stderr).toBe(0);
  const local = await filterHere([corpus]);
  expect(local.code, local.stderr).toBe(0);
  expected = local.stdout;
  expect(expected.length).toBeGreaterThan(10_000);
}, 180_000);

afterAll(async () => {
  await http.stop();
  await s3?.stop();
  tmp.cleanup();
});

describe('remote inputs give the bytes the same files give on disk', () => {
  it('one S3 object, in one thread and in two', async () => {
    for (const workers of ['1', '2']) {
      const stats = join(tmp.dir, `s3-${workers}.json`);
      const r = await filter(['s3://corpus/mix.jsonl'], ['--workers', workers, '--stats', stats]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout.equals(expected)).toBe(true);
      expect(threadsOf(stats)).toBe(Number(workers));
    }
  }, 120_000);

  it('a model completed from the corpus draws the same sample by seeking into the object', async () => {
    const taskOnly = join(tmp.dir, 'task-only.json');
    // A sample of 1000 sentences: seeking finds that many in this corpus (a short seek sample is redone by a full pass, which would not seek).
    const fit = await runMain(['fit', '--task', task, '--method', 'dsir', '--general-sample', '1000', '--seed', '3', '-q', '-o', taskOnly]);
    expect(fit.code, fit.stderr).toBe(0);
    const seek = { TADPOLE_SAMPLE_SEEK_MIN_BYTES: '100000' };
    // The reader reads this variable from process.env: set here for the run in this process, then restored.
    const before = process.env.TADPOLE_SAMPLE_SEEK_MIN_BYTES;
    process.env.TADPOLE_SAMPLE_SEEK_MIN_BYTES = seek.TADPOLE_SAMPLE_SEEK_MIN_BYTES;
    const local = await runMain(['filter', '-m', taskOnly, corpus]).finally(() => {
      if (before === undefined) delete process.env.TADPOLE_SAMPLE_SEEK_MIN_BYTES;
      else process.env.TADPOLE_SAMPLE_SEEK_MIN_BYTES = before;
    });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toMatch(/seeking to \d+ random offsets/);
    const fingerprint = /sample fingerprint ([0-9a-f]{16})/.exec(local.stderr)?.[1];
    expect(fingerprint).toBeDefined();
    const remote = await runCli(['filter', '-m', taskOnly, 's3://corpus/mix.jsonl'], { env: { ...env, ...seek } });
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stderr).toContain(`sample fingerprint ${fingerprint}`);
    expect(remote.stdout.equals(local.stdout)).toBe(true);
  }, 120_000);

  it('an S3 prefix is the folder of its corpus objects, sorted', async () => {
    const local = await filterHere([parts]);
    expect(local.code, local.stderr).toBe(0);
    const remote = await filter(['s3://corpus/parts/']);
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout.equals(local.stdout)).toBe(true);
  }, 120_000);

  it('a gzip object reads as the gzip file does', async () => {
    const local = await filterHere([gz]);
    expect(local.code, local.stderr).toBe(0);
    const remote = await filter(['s3://corpus/mix.jsonl.gz']);
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout.equals(local.stdout)).toBe(true);
  }, 120_000);

  it('a Parquet object reads as the Parquet file does (footer and column chunks by Range)', async () => {
    const pq = join(ROOT, 'test/fixtures/formats/corpus.parquet');
    http.objects.set('/corpus.parquet', readFileSync(pq));
    const local = await filterHere([pq]);
    expect(local.code, local.stderr).toBe(0);
    const remote = await filter([`${base}/corpus.parquet`]);
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout.equals(local.stdout)).toBe(true);
  }, 120_000);

  it('shards: score --shard I/2 on S3, cut, emit: the parts join to the filter output', async () => {
    const runDir = join(tmp.dir, 'run-shards');
    for (const i of [0, 1]) {
      const r = await runCli(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', `${i}/2`, 's3://corpus/mix.jsonl'], { env });
      expect(r.code, r.stderr).toBe(0);
    }
    expect((await runCli(['cut', '-q', '--run-dir', runDir], { env })).code).toBe(0);
    for (const i of [0, 1]) expect((await runCli(['emit', '-q', '--run-dir', runDir, '--shard', `${i}/2`], { env })).code).toBe(0);
    const joined = Buffer.concat(['part-00000-of-00002', 'part-00001-of-00002'].map((p) => readFileSync(join(runDir, 'parts', p))));
    expect(joined.equals(expected)).toBe(true);
  }, 180_000);

  it('an S3 object through a run folder in two threads', async () => {
    const runDir = join(tmp.dir, 'run-s3');
    const out = join(tmp.dir, 'run-s3.jsonl');
    const stats = join(tmp.dir, 'run-s3-stats.json');
    const r = await filter(['s3://corpus/mix.jsonl'], ['--run-dir', runDir, '--workers', '2', '-o', out, '--stats', stats]);
    expect(r.code, r.stderr).toBe(0);
    expect(threadsOf(stats)).toBe(2);
    expect(readFileSync(out).equals(expected)).toBe(true);
  }, 120_000);

  it('an HTTP object, through a run folder', async () => {
    const runDir = join(tmp.dir, 'run-http');
    const out = join(tmp.dir, 'run-http.jsonl');
    const r = await filter([`${base}/mix.jsonl`], ['--run-dir', runDir, '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out).equals(expected)).toBe(true);
  }, 120_000);
});

describe('faults at the server', () => {
  it('a 503 is tried again, and a connection cut midway is read on from the byte reached', async () => {
    http.objects.set('/flaky.jsonl', plain);
    http.unavailable.set('/flaky.jsonl', 2);
    http.cutAfter.set('/flaky.jsonl', Math.floor(plain.length / 2));
    const r = await filter([`${base}/flaky.jsonl`], ['--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(http.unavailable.get('/flaky.jsonl')).toBe(0);
    expect(http.cutAfter.has('/flaky.jsonl')).toBe(false);
    expect(r.stdout.equals(expected)).toBe(true);
  }, 120_000);

  it('an object replaced between the passes is refused with exit 3 and one line', async () => {
    http.objects.set('/replaced.jsonl', plain);
    // The first GET is the kind (its first 64 KiB), the second pass 1: pass 2 finds new bytes.
    http.replaceAfter.set('/replaced.jsonl', [2, Buffer.concat([plain, Buffer.from('{"text":"one more line."}\n')])]);
    const r = await filter([`${base}/replaced.jsonl`], ['--workers', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/the input changed while tadpole read it/);
  }, 120_000);

  it('the hub: HF_TOKEN as Bearer, a folder by the tree API; credentials in a URL and HF_TOKEN never reach stderr', async () => {
    const token = 'hf_secrettokenvalue123';
    const hub = new RangeServer();
    const hubBase = await hub.start();
    try {
      hub.objects.set('/datasets/org/name/resolve/main/data/mix.jsonl', plain);
      hub.requireAuthorization = `Bearer ${token}`;
      const ok = await filter(['hf://datasets/org/name/data/mix.jsonl'], [], { HF_ENDPOINT: hubBase, HF_TOKEN: token });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout.equals(expected)).toBe(true);
      // A hub folder: its corpus files from the tree API, by the folder rule.
      hub.objects.set('/api/datasets/org/name/tree/main/data', Buffer.from(JSON.stringify([{ type: 'file', path: 'data/mix.jsonl' }, { type: 'file', path: 'data/README.md' }, { type: 'directory', path: 'data/sub' }])));
      const folder = await filter(['hf://datasets/org/name/data/'], [], { HF_ENDPOINT: hubBase, HF_TOKEN: token });
      expect(folder.code, folder.stderr).toBe(0);
      expect(folder.stdout.equals(expected)).toBe(true);
      const missing = await filter(['hf://datasets/org/name/data/none.jsonl'], [], { HF_ENDPOINT: hubBase, HF_TOKEN: token });
      expect(missing.code).toBe(3);
      expect(missing.stderr).not.toContain(token);
      expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await hub.stop();
    }
    const withUser = base.replace('http://', 'http://reader:pa55word-xyz@');
    const bad = await filter([`${withUser}/none.jsonl`]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/none\.jsonl: cannot read input \(HTTP 404/);
    expect(bad.stderr).not.toContain('pa55word-xyz');
    const good = await filter([`${withUser}/mix.jsonl`]);
    expect(good.code, good.stderr).toBe(0);
    expect(http.authorizations).toContain(`Basic ${Buffer.from('reader:pa55word-xyz').toString('base64')}`);
  }, 120_000);

  it('-o s3://BUCKET/KEY uploads the output (plain or gzip by its name); other remote outputs are refused', async () => {
    const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const get = async (key: string): Promise<Buffer> => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: 'corpus', Key: key }))).Body!.transformToByteArray());
    try {
      const r = await filter([corpus], ['--workers', '2', '-o', 's3://corpus/out/kept.jsonl']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect((await get('out/kept.jsonl')).equals(expected)).toBe(true);
      const z = await filter(['s3://corpus/mix.jsonl'], ['-o', 's3://corpus/out/kept.jsonl.gz']);
      expect(z.code, z.stderr).toBe(0);
      expect(gunzipSync(await get('out/kept.jsonl.gz')).equals(expected)).toBe(true);
      // Over one 5 MiB part: lib-storage uploads it in parts (s3rver stores a multipart object's ETag as a plain MD5, so only the bytes are compared).
      const local = await runMain(['split', full, full, full, full]);
      expect(local.stdout.length).toBeGreaterThan(6 * 1024 * 1024);
      const multi = await runCli(['split', full, full, full, full, '-o', 's3://corpus/out/split.txt'], { env: { ...env, TADPOLE_UPLOAD_PART_MB: '5' } });
      expect(multi.code, multi.stderr).toBe(0);
      expect((await get('out/split.txt')).equals(local.stdout)).toBe(true);
      // A run that fails leaves no object.
      http.objects.set('/gone-midway.jsonl', plain);
      http.replaceAfter.set('/gone-midway.jsonl', [2, Buffer.from('{"text":"other."}\n')]);
      const failed = await filter([`${base}/gone-midway.jsonl`], ['--workers', '1', '-o', 's3://corpus/out/failed.jsonl']);
      expect(failed.code).toBe(3);
      expect(await get('out/failed.jsonl').catch((e: { name?: string }) => e.name)).toBe('NoSuchKey');
    } finally {
      client.destroy();
    }
    // Refused before any input is read: in this process.
    const http1 = await runMain(['filter', '-m', model, '-q', corpus, '-o', `${base}/out.jsonl`]);
    expect(http1.code).toBe(2);
    expect(http1.stderr).toMatch(/outputs are local files or s3:\/\/ objects, not http:\/\/ addresses/);
    const runDir = await runMain(['filter', '-m', model, '-q', '--run-dir', join(tmp.dir, 'run-out'), '-o', 's3://corpus/out/x.jsonl', corpus]);
    expect(runDir.code).toBe(2);
    expect(runDir.stderr).toMatch(/without --run-dir/);
  }, 120_000);
});
