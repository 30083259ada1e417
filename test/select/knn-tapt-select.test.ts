import { describe, expect, it } from 'vitest';
import { knnTaptSelect, type CorpusChunk } from '../../src/select/knn-tapt.js';
import { Rng } from '../../src/core/rng.js';

async function* chunksOf(X: Float32Array, n: number, dims: number, size: number): AsyncIterable<CorpusChunk> {
  for (let i = 0; i < n; i += size) {
    const m = Math.min(size, n - i);
    yield { X: X.subarray(i * dims, (i + m) * dims), n: m, firstId: i };
  }
}

function bruteForce(T: Float32Array, t: number, X: Float32Array, n: number, dims: number, k: number): Set<number> {
  const unit = (A: Float32Array, i: number) => {
    const v = A.subarray(i * dims, (i + 1) * dims);
    const norm = Math.hypot(...v);
    return Array.from(v, (x) => x / norm);
  };
  const out = new Set<number>();
  for (let q = 0; q < t; q++) {
    const a = unit(T, q);
    const sims = Array.from({ length: n }, (_, i) => [unit(X, i).reduce((s, x, j) => s + x * (a[j] as number), 0), i] as [number, number]);
    sims.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
    for (const [, i] of sims.slice(0, k)) out.add(i);
  }
  return out;
}

describe('knnTaptSelect (the paper\'s form: k nearest corpus rows per task row, streamed)', () => {
  const dims = 8;
  const rng = new Rng(5);
  const T = Float32Array.from({ length: 6 * dims }, () => rng.normal());
  const X = Float32Array.from({ length: 500 * dims }, () => rng.normal());

  it('matches a brute-force search whatever the chunk size', async () => {
    const expected = bruteForce(T, 6, X, 500, dims, 4);
    for (const size of [1, 37, 500]) {
      const got = await knnTaptSelect(T, dims, chunksOf(X, 500, dims, size), 4);
      expect([...got].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    }
  });

  it('selects at most k * |task| ids, fewer when neighbours are shared', async () => {
    const got = await knnTaptSelect(T, dims, chunksOf(X, 500, dims, 100), 10);
    expect(got.size).toBeLessThanOrEqual(60);
    expect(got.size).toBeGreaterThan(10);
  });
});
