#!/usr/bin/env node
// Isolation-forest scoring throughput at dims 256 and 384 (100 trees, 256 samples per tree),
// on Gaussian rows (the cost depends on tree depth, not on where the vectors come from).
// Checks the output first (finite scores in (0, 1), anomalies above normals), then times.
// Prints `forest.score_vectors_per_s: N` (dims 256) for `npm run bench`.
import { IsolationForest } from '../../dist/detect/iforest.js';
import { Rng } from '../../dist/core/rng.js';

function gaussianRows(rng, n, dims, scale, shift) {
  const X = new Float32Array(n * dims);
  for (let i = 0; i < X.length; i++) X[i] = rng.normal() * scale + shift;
  return X;
}

function measure(dims) {
  const rng = new Rng(42);
  const nTrain = 4000;
  const train = gaussianRows(rng, nTrain, dims, 1, 0);
  const forest = new IsolationForest({ seed: 1, trees: 100, sampleSize: 256 });
  let t = performance.now();
  forest.fit(train, nTrain, dims);
  const fitMs = performance.now() - t;

  // Check: far rows must score higher than rows from the training distribution.
  const normal = forest.score(gaussianRows(rng, 200, dims, 1, 0), 200);
  const far = forest.score(gaussianRows(rng, 200, dims, 1, 3), 200);
  const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
  for (const v of [...normal, ...far]) if (!(v > 0 && v < 1)) throw new Error(`score out of (0,1): ${v}`);
  if (!(mean(far) > mean(normal) + 0.05)) throw new Error(`check failed: anomalies ${mean(far)} vs normal ${mean(normal)}`);

  const n = 20000;
  const Q = gaussianRows(rng, n, dims, 1.1, 0);
  forest.score(Q, 2000); // warm-up
  let done = 0;
  t = performance.now();
  while (performance.now() - t < 1500) {
    forest.score(Q, n);
    done += n;
  }
  const perS = done / ((performance.now() - t) / 1000);
  return { fitMs, perS };
}

const r256 = measure(256);
const r384 = measure(384);
console.log(`forest.fit_ms_4000x256: ${r256.fitMs.toFixed(1)}`);
console.log(`forest.score_vectors_per_s_384: ${Math.round(r384.perS)}`);
console.log(`forest.score_vector_trees_per_s: ${Math.round(r256.perS * 100)}`);
console.log(`forest.score_vectors_per_s: ${Math.round(r256.perS)}`);
