#!/usr/bin/env node
// Fits every tadpole detector on DIR/train.f32, reports AUROC on DIR/test.f32 (labels.u8)
// and fit seconds / scoring rows per second on DIR/bulk.f32, as JSON on stdout.
//   node native-bench/ours.mjs [DIR] [detector...]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDetector, DETECTOR_NAMES } from '../dist/detect/registry.js';
import { auroc } from '../dist/detect/metrics.js';

const dir = process.argv[2] ?? '/tmp/tadpole-native-bench';
const names = process.argv.length > 3 ? process.argv.slice(3) : DETECTOR_NAMES;
const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
const f32 = (f) => {
  const b = readFileSync(join(dir, f));
  return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
};
const train = f32('train.f32');
const test = f32('test.f32');
const bulk = f32('bulk.f32');
const labels = readFileSync(join(dir, 'labels.u8'));
const out = {};
for (const name of names) {
  const det = createDetector(name, { seed: meta.seed });
  let t = performance.now();
  det.fit(train, meta.train, meta.dims);
  const fitS = (performance.now() - t) / 1000;
  const scores = det.score(test, meta.test);
  const a = auroc(scores, labels);
  // Check before timing: scores must be finite.
  if (!scores.every(Number.isFinite)) throw new Error(`${name}: non-finite scores`);
  // Score the bulk rows (at least ~1 s of work) for a stable rate.
  const n = meta.bulk;
  t = performance.now();
  let done = 0;
  do {
    det.score(bulk, n);
    done += n;
  } while (performance.now() - t < 1000);
  const scoreS = (performance.now() - t) / 1000;
  out[name] = { auroc: a, fit_s: fitS, score_per_s: done / scoreS };
  process.stderr.write(`${name}: auroc ${a.toFixed(4)} fit ${fitS.toFixed(2)} s score ${(done / scoreS).toFixed(0)}/s\n`);
}
console.log(JSON.stringify(out));
