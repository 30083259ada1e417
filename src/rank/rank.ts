/**
 * The paper's Table 1 protocol (Section 3.1): split the task rows 90/10 (seeded), draw a
 * general sample as large as the 10% part, fit each detector on the 90%, score the union
 * of the two held-out sets, and treat the score as a classifier of "general" (positive)
 * against "task". F1 is taken at the threshold that marks as many rows anomalous as there
 * are general rows; best F1, AUROC and average precision are threshold-free companions.
 */
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { createDetector } from '../detect/registry.js';
import { auroc, averagePrecision, bestF1, f1AtCount } from '../detect/metrics.js';
import type { RankMetrics, RankResult } from './result.js';

export { formatRankTable } from './table.js';
export type { RankResult } from './result.js';

export interface RankOptions {
  taskX: Float32Array;
  nTask: number;
  generalX: Float32Array;
  nGeneral: number;
  dims: number;
  detectors: string[];
  seed: number;
  /** Repeat over seeds seed, seed+1, ...; metrics are then means with a std. Default 1. */
  repeat?: number;
  detectorOptions?: Record<string, Record<string, unknown>>;
  /** Share of task rows held out; the paper uses 0.1. */
  testShare?: number;
}

const METRIC_KEYS: readonly (keyof RankMetrics)[] = ['f1', 'f1_best', 'auroc', 'ap', 'fit_s', 'score_per_s'];

interface Split {
  trainX: Float32Array;
  nTrain: number;
  testX: Float32Array;
  labels: Uint8Array;
  nTestTask: number;
  nTestGeneral: number;
}

function gatherRows(X: Float32Array, dims: number, rows: ArrayLike<number>, out: Float32Array, at: number): void {
  for (let r = 0; r < rows.length; r++) {
    const src = (rows[r] as number) * dims;
    out.set(X.subarray(src, src + dims), (at + r) * dims);
  }
}

export function splitForRank(o: RankOptions, seed: number): Split {
  const { dims } = o;
  const rng = new Rng(seed);
  const share = o.testShare ?? 0.1;
  const order = rng.shuffle(Array.from({ length: o.nTask }, (_, i) => i));
  const nTestTask = Math.max(1, Math.round(o.nTask * share));
  const nTrain = o.nTask - nTestTask;
  if (nTrain < 2) throw new TadpoleError('TADPOLE_INPUT', `rank: need at least 3 task sentences, got ${o.nTask}`);
  if (o.nGeneral < 1) throw new TadpoleError('TADPOLE_INPUT', 'rank: no general sentences');
  const general = rng.sample(o.nGeneral, Math.min(nTestTask, o.nGeneral));
  const trainRows = order.slice(nTestTask).sort((a, b) => a - b);
  const testRows = order.slice(0, nTestTask).sort((a, b) => a - b);
  const trainX = new Float32Array(nTrain * dims);
  gatherRows(o.taskX, dims, trainRows, trainX, 0);
  const testX = new Float32Array((nTestTask + general.length) * dims);
  gatherRows(o.taskX, dims, testRows, testX, 0);
  gatherRows(o.generalX, dims, general, testX, nTestTask);
  const labels = new Uint8Array(nTestTask + general.length);
  labels.fill(1, nTestTask);
  return { trainX, nTrain, testX, labels, nTestTask, nTestGeneral: general.length };
}

function evaluate(name: string, split: Split, o: RankOptions, seed: number): RankMetrics {
  const det = createDetector(name, { ...(o.detectorOptions?.[name] ?? {}), seed });
  let t = performance.now();
  det.fit(split.trainX, split.nTrain, o.dims);
  const fitS = (performance.now() - t) / 1000;
  const nTest = split.labels.length;
  t = performance.now();
  const scores = det.score(split.testX, nTest);
  const scoreS = (performance.now() - t) / 1000;
  return {
    f1: f1AtCount(scores, split.labels, split.nTestGeneral),
    f1_best: bestF1(scores, split.labels),
    auroc: auroc(scores, split.labels),
    ap: averagePrecision(scores, split.labels),
    fit_s: fitS,
    score_per_s: scoreS > 0 ? nTest / scoreS : Infinity,
  };
}

function meanStd(runs: RankMetrics[]): { mean: RankMetrics; std: RankMetrics } {
  const mean = {} as RankMetrics;
  const std = {} as RankMetrics;
  for (const k of METRIC_KEYS) {
    const xs = runs.map((r) => r[k]);
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.length > 1 ? xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1) : 0;
    mean[k] = m;
    std[k] = Math.sqrt(v);
  }
  return { mean, std };
}

export function rankDetectors(o: RankOptions): RankResult {
  const repeat = o.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new TadpoleError('TADPOLE_USAGE', `rank: repeat must be a positive integer, got ${repeat}`);
  if (o.detectors.length === 0) throw new TadpoleError('TADPOLE_USAGE', 'rank: no detectors to rank');
  // Validate every name and option before any slow fit.
  for (const name of o.detectors) createDetector(name, { ...(o.detectorOptions?.[name] ?? {}), seed: o.seed });
  const runs = new Map<string, RankMetrics[]>(o.detectors.map((d) => [d, []]));
  let first: Split | undefined;
  for (let r = 0; r < repeat; r++) {
    const seed = o.seed + r;
    const split = splitForRank(o, seed);
    first ??= split;
    for (const name of o.detectors) (runs.get(name) as RankMetrics[]).push(evaluate(name, split, o, seed));
  }
  const detectors = o.detectors.map((name) => {
    const { mean, std } = meanStd(runs.get(name) as RankMetrics[]);
    return repeat > 1 ? { name, ...mean, std } : { name, ...mean };
  });
  const f = first as Split;
  return { detectors, seed: o.seed, repeat, train: f.nTrain, test_task: f.nTestTask, test_general: f.nTestGeneral };
}
