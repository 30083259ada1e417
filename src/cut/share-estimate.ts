/**
 * How much of the corpus looks like the task, read from the general sample by a fit that the
 * share kept does not shape (select/share-probe.ts: the sample's segments scored out of fold by
 * a fit of the task against the most general-like half of the other fold's segments).
 *
 * The corpus's own segment scores cannot say it: the default self-trains with moves sized by
 * --keep, so the valley of their density reads the share kept, not the corpus (on four of five
 * 20-37% mixes, about the 5% asked). The probe's scores have a task-like part apart from the
 * rest only where the task's kind of text is both plentiful and told by its words; then the
 * estimate is the share of the sample's sentences below the deepest valley of their segment
 * density. Where the valley is shallow, or holds too few segments below it, the scores cannot
 * tell and there is no estimate, only the reason: a wrong figure given with confidence would be
 * worse than none. Measured on the labelled suites: docs/benchmarks/task-share.md.
 */
export interface TaskShare {
  /** Estimated share of the corpus's sentences that belong to the task's domain. */
  estimate: number;
  low: number;
  high: number;
}

/** What the probe read: an estimate, or why there is none. */
export interface TaskShareReading {
  share?: TaskShare;
  /** Why there is no estimate. */
  none?: string;
  /** Sample segments read. */
  segments: number;
}

/** Kernel bandwidth, as a share of the scores' standard deviation. */
const BANDWIDTH = 0.08;
/** A valley with fewer segments below it is the sparse tail's noise. */
const MIN_SEGMENTS = 30;
/**
 * A sample of fewer segments is too small to read: on figure5-bio a 5,000-sentence sample read
 * a fifth of the truth at a valley past MIN_DEPTH, where filter's 20,000 read it within 5%.
 */
const MIN_SAMPLE_SEGMENTS = 600;
/**
 * Below this share the sample holds too few segments of the task's kind to see a part apart
 * (at 20,000 sentences, under 70 segments), and the valleys found there were tails of a
 * larger part (cs-titles, topic-sport-10: a quarter of the truth).
 */
const MIN_SHARE = 0.05;
/**
 * The valley's depth (the lower of the peaks beside it over its own density) at least this:
 * every valley this deep on the suites read the truth within 1.5x; shallower ones read as
 * little as 0.4x it.
 */
const MIN_DEPTH = 2;
/** The task's part is the smaller one. */
const MAX_SHARE = 0.6;
/** The estimate's measured accuracy: its range is at least this factor either side. */
const FACTOR = 1.5;
const GRID = 300;

/** The estimate from a sample's segments (each its mean score, lower = more task-like, and its sentences). */
export function estimateSampleShare(segments: readonly { mean: number; sentences: number }[]): TaskShareReading {
  const points = segments.filter((s) => Number.isFinite(s.mean) && s.sentences > 0).sort((a, b) => a.mean - b.mean);
  const n = points.length;
  const total = points.reduce((a, p) => a + p.sentences, 0);
  if (n < MIN_SAMPLE_SEGMENTS || total === 0) return { none: `the sample has ${n} scored segments, under ${MIN_SAMPLE_SEGMENTS}: too few to read`, segments: n };
  let mean = 0;
  for (const p of points) mean += (p.mean * p.sentences) / total;
  let variance = 0;
  for (const p of points) variance += ((p.mean - mean) ** 2 * p.sentences) / total;
  const h = BANDWIDTH * Math.sqrt(variance);
  const lo = (points[0] as (typeof points)[number]).mean;
  const hi = (points[n - 1] as (typeof points)[number]).mean;
  if (!(h > 0) || !(hi > lo)) return { none: 'the sample scores alike', segments: n };
  const xs = Float64Array.from({ length: GRID }, (_, g) => lo + ((hi - lo) * g) / (GRID - 1));
  const density = new Float64Array(GRID);
  for (const p of points) {
    for (let g = 0; g < GRID; g++) {
      const z = ((xs[g] as number) - p.mean) / h;
      if (z * z < 16) density[g] = (density[g] as number) + p.sentences * Math.exp(-0.5 * z * z);
    }
  }
  // Sentences and segments at or below each grid point.
  const below = new Float64Array(GRID);
  const segsBelow = new Int32Array(GRID);
  let k = 0;
  let acc = 0;
  for (let g = 0; g < GRID; g++) {
    while (k < n && (points[k] as (typeof points)[number]).mean <= (xs[g] as number)) acc += (points[k++] as (typeof points)[number]).sentences;
    below[g] = acc / total;
    segsBelow[g] = k;
  }
  const leftPeak = new Float64Array(GRID);
  const rightPeak = new Float64Array(GRID);
  for (let g = 1; g < GRID; g++) leftPeak[g] = Math.max(leftPeak[g - 1] as number, density[g - 1] as number);
  for (let g = GRID - 2; g >= 0; g--) rightPeak[g] = Math.max(rightPeak[g + 1] as number, density[g + 1] as number);
  let best: { g: number; depth: number } | undefined;
  for (let g = 1; g < GRID - 1; g++) {
    const d = density[g] as number;
    if (!(d <= (density[g - 1] as number) && d <= (density[g + 1] as number))) continue;
    if ((segsBelow[g] as number) < MIN_SEGMENTS || (below[g] as number) < MIN_SHARE || (below[g] as number) > MAX_SHARE) continue;
    const depth = Math.min(leftPeak[g] as number, rightPeak[g] as number) / Math.max(d, 1e-300);
    if (!best || depth > best.depth) best = { g, depth };
  }
  if (!best || best.depth < MIN_DEPTH) {
    const seen = best ? `its deepest valley is ${best.depth.toFixed(2)}x, under ${MIN_DEPTH}x` : 'no valley';
    return { none: `the sample's scores show no part apart from the rest (${seen}): under ${100 * MIN_SHARE}% of the corpus, or not told by its words`, segments: n };
  }
  // The range: where the density climbs back to half again the valley's on either side, and at least FACTOR either way.
  const floor = 1.5 * (density[best.g] as number);
  let a = best.g;
  let b = best.g;
  while (a > 0 && (density[a] as number) < floor) a--;
  while (b < GRID - 1 && (density[b] as number) < floor) b++;
  const estimate = below[best.g] as number;
  return { share: { estimate, low: Math.min(below[a] as number, estimate / FACTOR), high: Math.min(1, Math.max(below[b] as number, estimate * FACTOR)) }, segments: n };
}

/** The part of a model file (model/file.ts) the reading is stored in: typed here, so cut/ does not import the floor above it. */
type FittedState = { selector?: { state: Record<string, unknown> } };

/** The reading stored in a model fitted by the default (its selector's state), if any. */
export function taskShareOf(model: FittedState): TaskShareReading | undefined {
  const st = model.selector?.state as { taskShare?: TaskShareReading } | undefined;
  return st?.taskShare && typeof st.taskShare.segments === 'number' ? st.taskShare : undefined;
}

/** `{ taskShare }` or `{ taskShareNone }` for --stats from a model's reading, else nothing. */
export function taskShareEntry(model: FittedState): { taskShare?: TaskShare; taskShareNone?: string } {
  return readingEntry(taskShareOf(model));
}

/** `{ taskShare }` or `{ taskShareNone }` from a reading (--stats, the eval's results), else nothing. */
export function readingEntry(r: TaskShareReading | undefined): { taskShare?: TaskShare; taskShareNone?: string } {
  if (!r) return {};
  return r.share ? { taskShare: r.share } : r.none ? { taskShareNone: r.none } : {};
}

const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 2 : 1)}%`;

/**
 * One line: the estimate as a percentage, with its range, or why there is none. `of`: what the
 * sample was drawn from (the corpus filtered, for a model completed from it; else the general
 * sample given to fit).
 */
export function describeTaskShare(r: { share?: TaskShare; none?: string; segments?: number }, of = 'the corpus'): string {
  return r.share
    ? `about ${pct(r.share.estimate)} of ${of}'s sentences look like the task (range ${pct(r.share.low)}-${pct(r.share.high)}), read from ${r.segments !== undefined ? `${r.segments} sample segments` : 'a sample of it'}; it does not follow --keep`
    : `how much of ${of} looks like the task: no estimate, ${r.none ?? 'nothing read'}`;
}
