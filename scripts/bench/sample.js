// Corpus sampler benchmark: what drawing a general sample costs on a multi-GB plain file
// (seeking) against one pass over it (the reservoir used for gzip and stdin).
// Build first: npx tsc -p tsconfig.json ; then: node scripts/bench/sample.js
// env: BENCH_SAMPLE_GB (default 4) size of the generated JSONL file (kept in $TMPDIR between
// runs), BENCH_SAMPLE_N (default 20000) sentences to draw, BENCH_SAMPLE_PASS_MB (default 256)
// the prefix timed for the one-pass reservoir (a full pass over GBs takes minutes).
import { closeSync, existsSync, openSync, statSync, writeSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sampleSentences } from '../../dist/io/sample.js';
import { sharedPath } from '../../dist/core/shared.js';

const GB = Number(process.env.BENCH_SAMPLE_GB ?? 4);
const N = Number(process.env.BENCH_SAMPLE_N ?? 20000);
const PASS_MB = Number(process.env.BENCH_SAMPLE_PASS_MB ?? 256);
const READER = { format: 'jsonl', textField: 'text', docPerLine: false, strict: false };

// Real documents (BBC, OHSUMED) repeated with a running number, so every line differs.
function generate(path, bytes) {
  const docs = ['news-bbc', 'bio-ohsumed'].flatMap((c) => gunzipSync(readFileSync(sharedPath('corpora', c, 'docs.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).text));
  const fd = openSync(path, 'w');
  let written = 0;
  let k = 0;
  try {
    while (written < bytes) {
      const lines = [];
      let chunk = 0;
      while (chunk < 8 << 20) {
        const line = JSON.stringify({ id: k, text: `${docs[k % docs.length]} (copy ${k})` }) + '\n';
        lines.push(line);
        chunk += Buffer.byteLength(line);
        k++;
      }
      written += writeSync(fd, lines.join(''));
    }
  } finally {
    closeSync(fd);
  }
}

const big = join(tmpdir(), `tadpole-bench-sample-${GB}g.jsonl`);
if (!existsSync(big) || statSync(big).size < GB * 1e9) {
  const t = performance.now();
  generate(big, GB * 1e9);
  console.log(`sample.generated: ${big} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const size = statSync(big).size;

const t0 = performance.now();
const s = await sampleSentences([big], READER, { size: N, seed: 1 });
const seekSeconds = (performance.now() - t0) / 1000;
if (s.sampler !== 'seek' || s.sentences.length !== N) throw new Error(`expected ${N} sentences by seeking, got ${s.sentences.length} (${s.sampler})`);
const ids = s.sentences.map((x) => Number(/\(copy (\d+)\)/.exec(x)?.[1] ?? NaN)).filter(Number.isFinite);
console.log(`sample.seek (${(size / 1e9).toFixed(2)} GB JSONL, ${N} sentences): ${seekSeconds.toFixed(2)} s, ${(s.bytesRead / 1e6).toFixed(1)} MB read (${((100 * s.bytesRead) / size).toFixed(2)}% of the file), ${s.draws} draws, ${s.documents} documents`);
console.log(`sample.seek_spread: documents drawn from copy ${Math.min(...ids)} to copy ${Math.max(...ids)}`);

// One pass (the reservoir path) over a prefix, to price reading it all.
const prefix = join(tmpdir(), 'tadpole-bench-sample-prefix.jsonl');
const fd = openSync(big, 'r');
const buf = Buffer.alloc(PASS_MB * 1e6);
const n = (await import('node:fs')).readSync(fd, buf, 0, buf.length, 0);
closeSync(fd);
writeFileSync(prefix, buf.subarray(0, buf.lastIndexOf(0x0a, n - 1) + 1));
const t1 = performance.now();
const r = await sampleSentences([prefix], READER, { size: N, seed: 1, seekMinBytes: Infinity });
const passSeconds = (performance.now() - t1) / 1000;
rmSync(prefix);
const rate = r.bytesRead / 1e6 / passSeconds;
console.log(`sample.reservoir (first ${PASS_MB} MB, one pass): ${passSeconds.toFixed(2)} s (${rate.toFixed(1)} MB/s); the whole file at that rate: ${(size / 1e6 / rate).toFixed(0)} s`);
console.log(`sample.seek_vs_one_pass: ${((size / 1e6 / rate) / seekSeconds).toFixed(0)}x faster, ${(size / s.bytesRead).toFixed(0)}x fewer bytes`);
