#!/usr/bin/env node
// What pass 2 fetches from a remote object: the bytes and Range requests of the second pass
// of `filter` over the corpus served by HTTP on 127.0.0.1 (a Range server in this process that
// logs every GET), at each --keep and each gap under which kept documents' spans are joined
// (TADPOLE_REMOTE_GAP_BYTES; "whole" is a gap larger than the object, so one span from the
// first kept document to the last: what reading every byte costs). Outputs are compared with
// the local file's.
//   node scripts/bench/remote-pass2.js CORPUS MODEL [KEEPS] [GAPS] [-- more filter flags]
// KEEPS and GAPS comma-separated, defaults 0.2,0.02 and whole,8388608,1048576,65536.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const [corpus, model, keepsArg, gapsArg, ...rest] = process.argv.slice(2);
if (!corpus || !model) {
  console.error('usage: node scripts/bench/remote-pass2.js CORPUS MODEL [KEEPS] [GAPS] [-- filter flags]');
  process.exit(2);
}
const keeps = (keepsArg ?? '0.2,0.02').split(',');
const gaps = (gapsArg ?? 'whole,8388608,1048576,65536').split(',');
const extra = rest[0] === '--' ? rest.slice(1) : rest;
const bin = fileURLToPath(new URL('../../bin/tadpole.js', import.meta.url));
const body = readFileSync(corpus);
const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
const name = `/${basename(corpus)}`;
let log = [];
const server = createServer((req, res) => {
  if (req.headers['if-match'] && req.headers['if-match'] !== etag) return void res.writeHead(412).end();
  const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  const start = m ? Number(m[1]) : 0;
  const end = m && m[2] ? Math.min(body.length, Number(m[2]) + 1) : body.length;
  if (start >= body.length && body.length > 0) return void res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
  log.push([start, end]);
  res.writeHead(m ? 206 : 200, { 'content-length': end - start, etag, 'accept-ranges': 'bytes', ...(m ? { 'content-range': `bytes ${start}-${end - 1}/${body.length}` } : {}) });
  res.end(body.subarray(start, end));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}${name}`;

function run(input, keep, env) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, 'filter', '-m', model, '-q', '--keep', keep, ...extra, input], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ s: Number(process.hrtime.bigint() - t) / 1e9, out: Buffer.concat(out) }) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

const mb = (n) => (n / 1e6).toFixed(1);
console.log(`${basename(corpus)} (${mb(body.length)} MB), filter ${extra.join(' ')}`);
console.log('| --keep | gap | pass 2 MB | share of the object | requests | wall s | same output |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
try {
  for (const keep of keeps) {
    const local = await run(corpus, keep, {});
    for (const gap of gaps) {
      log = [];
      const r = await run(url, keep, { TADPOLE_REMOTE_GAP_BYTES: gap === 'whole' ? String(body.length + 1) : gap });
      // Pass 2 is every GET after pass 1's (the first that reads to the object's end); one thread.
      const p1 = log.findIndex(([s, e]) => s === 0 && e === body.length);
      const pass2 = log.slice(p1 + 1);
      const bytes = pass2.reduce((n, [s, e]) => n + e - s, 0);
      console.log(`| ${keep} | ${gap} | ${mb(bytes)} | ${((100 * bytes) / body.length).toFixed(1)}% | ${pass2.length} | ${r.s.toFixed(2)} | ${r.out.equals(local.out)} |`);
    }
  }
} finally {
  server.close();
}
