import { Rng } from '../../src/core/rng.js';

/**
 * Normal rows: three tight Gaussian clusters; anomalies: rows spread uniformly over a box
 * four times wider. Returns train (normal only) and a labelled test set (1 = anomaly).
 */
export function clustersAndOutliers(seed: number, dims = 16, nTrain = 600, nTestNormal = 150, nTestAnomalies = 150) {
  const rng = new Rng(seed);
  const centres = [0, 1, 2].map(() => Array.from({ length: dims }, () => (rng.next() - 0.5) * 4));
  const normal = (out: Float32Array, row: number) => {
    const c = centres[rng.int(3)] as number[];
    for (let d = 0; d < dims; d++) out[row * dims + d] = (c[d] as number) + rng.normal() * 0.3;
  };
  const train = new Float32Array(nTrain * dims);
  for (let i = 0; i < nTrain; i++) normal(train, i);
  const nTest = nTestNormal + nTestAnomalies;
  const test = new Float32Array(nTest * dims);
  const labels = new Uint8Array(nTest);
  for (let i = 0; i < nTestNormal; i++) normal(test, i);
  for (let i = nTestNormal; i < nTest; i++) {
    labels[i] = 1;
    for (let d = 0; d < dims; d++) test[i * dims + d] = (rng.next() - 0.5) * 8;
  }
  return { dims, train, nTrain, test, nTest, labels };
}
