/**
 * How much of the corpus looks like the task, read off the segment scores pass 1 already holds
 * (the sketch: every segment's score, counted exactly per 0.1% bucket).
 *
 * Segment means separate the task's domain from the rest far better than sentence scores do (the
 * cut keeps 80-100% in-domain text on most suite mixes), so the corpus's segment scores have a
 * task-like mode at the low end, apart from the rest. The estimate is the share of the corpus's
 * sentences below the deepest valley of the segment-score density, among valleys with at least
 * MIN_SEGMENTS segments below them (a valley in the sparse extreme tail is noise). The density is a
 * Gaussian kernel estimate at three bandwidths; the middle one gives the estimate. The range spans,
 * at all three, the valley's reading and twice the share below the task-like mode's peak (its lower
 * half is its own; the valley cuts off the upper half's tail, so it reads low when the mode is
 * wide). No valley (one mode, as a random or near-random scorer gives): no estimate. Measured
 * against the truth on the suites: docs/research.md, "How much looks like the task".
 */
import { bucketValue, type ScoreSketch } from './sketch.js';

export interface TaskShare {
  /** Estimated share of the corpus's sentences that belong to the task's domain. */
  estimate: number;
  low: number;
  high: number;
}

/** Valleys with fewer segments below them are the sparse tail's noise. */
export const MIN_SEGMENTS = 50;
/** Kernel bandwidths, as shares of the scores' standard deviation: the range's ends and the estimate. */
const BANDWIDTHS = [0.05, 0.08, 0.12] as const;
/** The density is looked at from the lowest scores up to this share of the sentences: the task's part is the smaller one. */
const UPTO = 0.6;
const GRID = 200;

interface Point {
  x: number;
  segments: number;
  sentences: number;
}

/**
 * At bandwidth h x sd: the sentence share below the deepest valley, and twice the share below the
 * highest point of the density under it (the task-like mode's peak: its lower half is all its own,
 * where its upper half mixes with the rest's tail); undefined without a valley.
 */
function valleyShare(points: Point[], totalSentences: number, lo: number, hi: number, h: number): { valley: number; mirror: number } | undefined {
  const grid = Float64Array.from({ length: GRID }, (_, g) => lo + ((hi - lo) * g) / (GRID - 1));
  const density = new Float64Array(GRID);
  for (const p of points) {
    if (p.x < lo - 4 * h || p.x > hi + 4 * h) continue;
    const w = p.sentences / totalSentences;
    for (let g = 0; g < GRID; g++) {
      const z = ((grid[g] as number) - p.x) / h;
      if (z * z < 16) density[g] = (density[g] as number) + w * Math.exp(-0.5 * z * z);
    }
  }
  let best: { depth: number; at: number; peakAt: number } | undefined;
  let leftPeak = density[0] as number;
  let leftPeakAt = grid[0] as number;
  for (let g = 1; g < GRID - 1; g++) {
    const d = density[g] as number;
    if (d <= (density[g - 1] as number) && d <= (density[g + 1] as number) && d < leftPeak) {
      let rightPeak = 0;
      for (let j = g + 1; j < GRID; j++) rightPeak = Math.max(rightPeak, density[j] as number);
      const depth = Math.min(leftPeak, rightPeak) / Math.max(d, 1e-300);
      let below = 0;
      for (const p of points) if (p.x <= (grid[g] as number)) below += p.segments;
      if (below >= MIN_SEGMENTS && depth > 1 && (!best || depth > best.depth)) best = { depth, at: grid[g] as number, peakAt: leftPeakAt };
    }
    if (d > leftPeak) {
      leftPeak = d;
      leftPeakAt = grid[g] as number;
    }
  }
  if (!best) return undefined;
  let valley = 0;
  let mirror = 0;
  for (const p of points) {
    if (p.x <= best.at) valley += p.sentences;
    if (p.x <= best.peakAt) mirror += p.sentences;
  }
  return { valley: valley / totalSentences, mirror: Math.min(1, (2 * mirror) / totalSentences) };
}

/** The estimate from the segment-score sketch; undefined when the scores show no task-like part apart from the rest. */
export function estimateTaskShare(sketch: ScoreSketch): TaskShare | undefined {
  const points: Point[] = [];
  let total = 0;
  let mean = 0;
  for (const k of sketch.sortedKeys()) {
    const [segments, sentences] = sketch.buckets.get(k) as [number, number, number];
    const x = bucketValue(k);
    if (!Number.isFinite(x) || sentences === 0) continue;
    points.push({ x, segments, sentences });
    total += sentences;
    mean += x * sentences;
  }
  if (points.length < 2 || total === 0) return undefined;
  mean /= total;
  let variance = 0;
  for (const p of points) variance += ((p.x - mean) ** 2 * p.sentences) / total;
  const sd = Math.sqrt(variance);
  if (!(sd > 0)) return undefined;
  // From the first scores with MIN_SEGMENTS below them to the UPTO share of the sentences.
  let segs = 0;
  let acc = 0;
  let lo: number | undefined;
  let hi = (points[points.length - 1] as Point).x;
  for (const p of points) {
    segs += p.segments;
    acc += p.sentences;
    if (lo === undefined && segs >= MIN_SEGMENTS / 10) lo = p.x;
    if (acc >= UPTO * total) {
      hi = p.x;
      break;
    }
  }
  if (lo === undefined || !(hi > lo)) return undefined;
  const found = BANDWIDTHS.map((b) => valleyShare(points, total, lo, hi, b * sd));
  const mid = found[1];
  if (mid === undefined) return undefined;
  const all = found.flatMap((f) => (f ? [f.valley, f.mirror] : []));
  // The valley at the middle width is the estimate (it was the closer of the two on the suites);
  // the range spans both readings at all three widths.
  return { estimate: mid.valley, low: Math.min(...all), high: Math.max(...all) };
}

/** One line for stderr: the estimate as a percentage, with its range. */
export function describeTaskShare(s: TaskShare): string {
  const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 2 : 1)}%`;
  return `about ${pct(s.estimate)} of the corpus's sentences look like the task (range ${pct(s.low)}-${pct(s.high)}), from the segment scores' task-like mode`;
}
