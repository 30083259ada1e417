#!/usr/bin/env node
// Reading from a local S3 server against reading the same file from disk: whole `filter`
// processes, the file and the object in turn, wall and CPU seconds, outputs compared.
//   node scripts/bench/remote.js CORPUS MODEL [RUNS] [-- more filter flags]
// s3rver (a devDependency) serves the object from a temporary folder on 127.0.0.1, in this
// process; the filter runs are child processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [corpus, model, runsArg, ...rest] = process.argv.slice(2);
if (!corpus || !model) {
  console.error('usage: node scripts/bench/remote.js CORPUS MODEL [RUNS] [-- filter flags]');
  process.exit(2);
}
const runs = Number(runsArg ?? 3);
const extra = rest[0] === '--' ? rest.slice(1) : rest;
const bin = fileURLToPath(new URL('../../bin/tadpole.js', import.meta.url));
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { default: S3rver } = await import('s3rver');
const { S3Client, CreateBucketCommand, PutObjectCommand } = await import('@aws-sdk/client-s3');
const dir = mkdtempSync(join(tmpdir(), 'tadpole-bench-s3-'));
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
const { port } = await server.run();
const endpoint = `http://127.0.0.1:${port}`;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials, requestChecksumCalculation: 'WHEN_REQUIRED' });
await client.send(new CreateBucketCommand({ Bucket: 'bench' }));
await client.send(new PutObjectCommand({ Bucket: 'bench', Key: basename(corpus), Body: readFileSync(corpus) }));
const env = { ...process.env, AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey, AWS_REGION: 'us-east-1' };

/** One filter process: wall and CPU seconds (the child's user + system), and its output. */
function timed(input) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, 'filter', '-m', model, '-q', ...extra, input], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${input}: exit ${code}: ${err}`));
      resolve({ s: Number(process.hrtime.bigint() - t) / 1e9, out: Buffer.concat(out) });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const local = [];
const remote = [];
let same = true;
try {
  for (let i = 0; i < runs; i++) {
    const a = await timed(corpus);
    const b = await timed(`s3://bench/${basename(corpus)}`);
    same &&= a.out.equals(b.out);
    local.push(a.s);
    remote.push(b.s);
  }
  const mb = readFileSync(corpus).length / 1e6;
  console.log(`${basename(corpus)} (${mb.toFixed(1)} MB), ${runs} runs each, filter ${extra.join(' ')}`);
  console.log(`file:      median ${median(local).toFixed(2)} s (${(mb / median(local)).toFixed(1)} MB/s)  [${local.map((s) => s.toFixed(2)).join(' ')}]`);
  console.log(`s3rver:    median ${median(remote).toFixed(2)} s (${(mb / median(remote)).toFixed(1)} MB/s)  [${remote.map((s) => s.toFixed(2)).join(' ')}]`);
  console.log(`ratio s3/file: ${(median(remote) / median(local)).toFixed(2)}; outputs identical: ${same}`);
} finally {
  client.destroy();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
