/**
 * Spherical k-means (cosine similarity on unit rows) with k-means++ seeding, seeded so the
 * same rows always give the same groups. Small and dense on purpose: it groups a few
 * thousand LSA rows of 64 dimensions, where a plain loop is milliseconds.
 */
import { Rng } from '../core/rng.js';

export interface KMeansResult {
  /** Cluster of each row. */
  assign: Int32Array;
  /** k x d unit centroids (row-major). */
  centroids: Float64Array;
  /** Cosine similarity of each row to its centroid. */
  similarity: Float64Array;
}

function dotRow(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number, d: number): number {
  let s = 0;
  for (let x = 0; x < d; x++) s += (a[i * d + x] as number) * (b[j * d + x] as number);
  return s;
}

/** Starts tried; the one whose rows sit closest to their centroids (summed cosine) is kept. */
const RESTARTS = 4;

/**
 * `rows`: n x d, each row unit length (or zero). k is capped at n. Rows that are all zero
 * join cluster 0. Each start converges or stops after `iterations` reassignments.
 */
export function sphericalKMeans(rows: ArrayLike<number>, n: number, d: number, k: number, seed: number, iterations = 25): KMeansResult {
  const rng = new Rng(seed);
  let best: KMeansResult | undefined;
  let bestFit = -Infinity;
  for (let r = 0; r < RESTARTS; r++) {
    const run = oneStart(rows, n, d, k, rng, iterations);
    let fit = 0;
    for (const s of run.similarity) fit += s;
    if (fit > bestFit + 1e-9) {
      bestFit = fit;
      best = run;
    }
    if (n === 0) break;
  }
  return best as KMeansResult;
}

function oneStart(rows: ArrayLike<number>, n: number, d: number, k: number, rng: Rng, iterations: number): KMeansResult {
  const K = Math.max(1, Math.min(k, n));
  const centroids = new Float64Array(K * d);
  const copyRow = (i: number, c: number): void => {
    for (let x = 0; x < d; x++) centroids[c * d + x] = rows[i * d + x] as number;
  };
  if (n === 0) return { assign: new Int32Array(0), centroids, similarity: new Float64Array(0) };
  // Greedy k-means++ (squared cosine distance, a few candidates per seed, the one that
  // leaves the rows closest kept): a small distinct group gets a seed of its own even
  // beside a large one, where plain sampling often seeded the large group twice.
  copyRow(rng.int(n), 0);
  const nearest = new Float64Array(n);
  const dist = (i: number, c: number): number => Math.max(0, 1 - dotRow(rows, i, centroids, c, d)) ** 2;
  for (let i = 0; i < n; i++) nearest[i] = dist(i, 0);
  const trials = 2 + Math.floor(Math.log(K));
  for (let c = 1; c < K; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += nearest[i] as number;
    let bestPick = rng.int(n);
    let bestPotential = Infinity;
    for (let t = 0; t < trials; t++) {
      let pick = rng.int(n);
      if (total > 0) {
        let r = rng.next() * total;
        for (let i = 0; i < n; i++) {
          r -= nearest[i] as number;
          if (r < 0) {
            pick = i;
            break;
          }
        }
      }
      copyRow(pick, c);
      let potential = 0;
      for (let i = 0; i < n; i++) potential += Math.min(nearest[i] as number, dist(i, c));
      if (potential < bestPotential) {
        bestPotential = potential;
        bestPick = pick;
      }
    }
    copyRow(bestPick, c);
    for (let i = 0; i < n; i++) nearest[i] = Math.min(nearest[i] as number, dist(i, c));
  }
  const assign = new Int32Array(n).fill(-1);
  const similarity = new Float64Array(n);
  for (let it = 0; it <= iterations; it++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let c = 0; c < K; c++) {
        const s = dotRow(rows, i, centroids, c, d);
        if (s > bestSim) {
          bestSim = s;
          best = c;
        }
      }
      if (assign[i] !== best) moved++;
      assign[i] = best;
      similarity[i] = bestSim;
    }
    if (moved === 0 || it === iterations) break;
    centroids.fill(0);
    for (let i = 0; i < n; i++) for (let x = 0; x < d; x++) centroids[(assign[i] as number) * d + x] += rows[i * d + x] as number;
    for (let c = 0; c < K; c++) {
      let norm = 0;
      for (let x = 0; x < d; x++) norm += (centroids[c * d + x] as number) ** 2;
      norm = Math.sqrt(norm);
      // An emptied cluster keeps a zero centroid and takes no rows: fewer groups, not a crash.
      if (norm > 0) for (let x = 0; x < d; x++) centroids[c * d + x] = (centroids[c * d + x] as number) / norm;
    }
  }
  return { assign, centroids, similarity };
}
