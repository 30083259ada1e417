#!/usr/bin/env node
// Fits every tadpole detector on DIR/train.f32, reports AUROC on DIR/test.f32 (labels.u8)
// and fit seconds / scoring rows per second on DIR/bulk.f32, as JSON on stdout.
//   SEEDS=5 node native-bench/ours.mjs [DIR] [detector...]
// Randomised detectors (iforest, eif, ocsvm) report the mean AUROC over SEEDS seeds
// (seed, seed+1, ...): one forest's AUROC varies by ~0.02-0.04 from seed to seed here.
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
const SEEDS = Number(process.env.SEEDS ?? 5);
const RANDOMISED = new Set(['iforest', 'eif', 'ocsvm']);
const out = {};
for (const name of names) {
  const det = createDetector(name, { seed: meta.seed });
  let t = performance.now();
  det.fit(train, meta.train, meta.dims);
  const fitS = (performance.now() - t) / 1000;
  const scores = det.score(test, meta.test);
  let a = auroc(scores, labels);
  if (RANDOMISED.has(name) && SEEDS > 1) {
    for (let s = 1; s < SEEDS; s++) {
      const other = createDetector(name, { seed: meta.seed + s });
      other.fit(train, meta.train, meta.dims);
      a += auroc(other.score(test, meta.test), labels);
    }
    a /= SEEDS;
  }
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
  out[name] = { auroc: a, seeds: RANDOMISED.has(name) ? SEEDS : 1, fit_s: fitS, score_per_s: done / scoreS };
  process.stderr.write(`${name}: auroc ${a.toFixed(4)} fit ${fitS.toFixed(2)} s score ${(done / scoreS).toFixed(0)}/s\n`);
}
console.log(JSON.stringify(out));
