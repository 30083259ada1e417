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
 * tell and there is no estimate, only the reason (a wrong figure given with confidence would be
 * worse than none) and the side of a range the scores support: a floor from the first fit's far
 * tail, a ceiling from the most task-like Gaussian part of the probe's scores, and a floor from
 * that part too where a fit hardly tells the task from it. Measured on the labelled suites:
 * docs/benchmarks/task-share.md.
 */
export interface TaskShare {
  /**
   * Estimated share of the corpus's sentences that belong to the task's domain; absent where the
   * scores cannot tell. Then the range keeps the side they support: `low` 0 is no floor, `high` 1
   * no ceiling.
   */
  estimate?: number;
  low: number;
  high: number;
}

/** What the probe read: an estimate with its range, only a range ("at most"), or neither; `none` says why there is no estimate. */
export interface TaskShareReading {
  share?: TaskShare;
  /** Why there is no point estimate. */
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

/**
 * The estimate from a sample's segments under the probe (each its mean score, lower = more
 * task-like, and its sentences); `first`: the same segments under the first fit, for the floor;
 * `partTold`: how well a fit tells the task from the most task-like Gaussian part of these
 * scores (the AUROC of its held-out task pieces against the part's held-out segments; share-probe.ts).
 */
export function estimateSampleShare(segments: readonly { mean: number; sentences: number }[], first: readonly { mean: number; sentences: number }[] = [], partTold?: number): TaskShareReading {
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
    const none = `the sample's scores show no part apart from the rest (${seen}): under ${100 * MIN_SHARE}% of the corpus, or not told by its words`;
    const part = mostTaskLikePart(points, mean, Math.sqrt(variance)).weight;
    // The part is the task's own kind of text where a fit hardly tells the task from it: its weight then bounds the share both ways.
    const own = partTold !== undefined && partTold < TOLD_APART;
    const bound = BOUND_FACTOR * part;
    const high = bound <= MAX_BOUND || (own && bound < 1) ? bound : 1;
    const tail = farTail(first) / FLOOR_FACTOR;
    const low = Math.max(tail >= MIN_FLOOR ? tail : 0, own ? part / BOUND_FACTOR : 0);
    return { ...(low > 0 || high < 1 ? { share: { low, high } } : {}), none, segments: n };
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

/** How far below the first fit's median, in its interquartile spread's standard deviations, a segment stands apart from the bulk. */
const FAR = 4;
/** The far tail read at most 1.11x the truth on the suites: the floor is it over this. */
const FLOOR_FACTOR = 1.25;
/** A floor under this (a few segments of a 20,000-sentence sample) says nothing: it is not given. */
const MIN_FLOOR = 0.0025;

/**
 * The share of the sentences in segments FAR robust standard deviations (the interquartile
 * range over 1.349) more task-like than the median, under the first fit (the task alone against
 * the whole sample). Where the domain is scarce, that fit learned nearly none of it as general,
 * and its text stands out past the bulk alone; where it is plentiful, the fit learned it as
 * general and the tail holds little of it. So this is a floor, never a reading.
 */
function farTail(first: readonly { mean: number; sentences: number }[]): number {
  const points = first.filter((s) => Number.isFinite(s.mean) && s.sentences > 0).sort((a, b) => a.mean - b.mean);
  const total = points.reduce((a, p) => a + p.sentences, 0);
  if (points.length < MIN_SAMPLE_SEGMENTS || total === 0) return 0;
  const quantile = (q: number) => {
    let acc = 0;
    for (const p of points) {
      acc += p.sentences;
      if (acc >= q * total) return p.mean;
    }
    return (points[points.length - 1] as (typeof points)[number]).mean;
  };
  const cut = quantile(0.5) - (FAR * (quantile(0.75) - quantile(0.25))) / 1.349;
  let below = 0;
  for (const p of points) if (p.mean < cut) below += p.sentences;
  return below / total;
}

/** Gaussian parts fitted to the segment scores, for the bound where there is no valley. */
const PARTS = 3;
const EM_ROUNDS = 300;
/**
 * Without a valley the range is "at most this many times the weight of the most task-like of
 * PARTS Gaussian parts fitted to the scores": on the 30% suites the truth was at most 1.4 times
 * that weight (docs/benchmarks/task-share.md). Where the domain is scarce the most task-like part
 * is the near-domain text, and the bound holds but is loose.
 */
const BOUND_FACTOR = 2;
/** A bound over half the corpus says next to nothing (on the scarce suite it was 25-100x the truth): it is not given. */
const MAX_BOUND = 0.5;
/**
 * Where the task's held-out pieces and the most task-like part's segments are told apart at an
 * AUROC under this, the part is the task's own kind of text, and its weight is also a floor (the
 * share at least the weight over BOUND_FACTOR; the ceiling then given up to the whole). On the
 * suites it was 0.64-0.84 on eight 30% mixes (the weight 0.90-1.60x the truth), 0.88-1.00 on
 * the other 30% mixes, and 0.94-1.00 on every scarce mix, where the part is the near-domain
 * text: a fit tells the task from its neighbour's text, and from its own domain's text in the
 * corpus only where the two collections' words differ (docs/benchmarks/task-share.md).
 */
const TOLD_APART = 0.85;

/** A task-like part: the sample's segments the EM gives to the most task-like part (a posterior of at least a half). */
const IN_PART = 0.5;

/**
 * For each segment, whether it belongs to the most task-like of the PARTS Gaussian parts fitted
 * to the segment means (the part whose weight bounds the share where there is no valley).
 */
export function taskLikePart(segments: readonly { mean: number; sentences: number }[]): boolean[] {
  const order = segments.map((s, i) => ({ mean: s.mean, sentences: s.sentences, i })).filter((p) => Number.isFinite(p.mean) && p.sentences > 0).sort((a, b) => a.mean - b.mean);
  const total = order.reduce((a, p) => a + p.sentences, 0);
  const out = segments.map(() => false);
  if (order.length < PARTS || total === 0) return out;
  let mean = 0;
  for (const p of order) mean += (p.mean * p.sentences) / total;
  let variance = 0;
  for (const p of order) variance += ((p.mean - mean) ** 2 * p.sentences) / total;
  if (!(variance > 0)) return out;
  const { posterior } = mostTaskLikePart(order, mean, Math.sqrt(variance));
  order.forEach((p, k) => (out[p.i] = (posterior[k] as number) >= IN_PART));
  return out;
}

/**
 * The sentence-weighted share of the most task-like (lowest mean) of PARTS Gaussian parts
 * fitted to the segment means (sorted) by EM, started at the weighted quantiles (deterministic),
 * and each segment's posterior of belonging to it.
 */
function mostTaskLikePart(points: readonly { mean: number; sentences: number }[], mean: number, sd: number): { weight: number; posterior: Float64Array } {
  const n = points.length;
  const total = points.reduce((a, p) => a + p.sentences, 0);
  const mu: number[] = [];
  let acc = 0;
  let k = 0;
  for (let j = 0; j < PARTS; j++) {
    const target = ((j + 0.5) / PARTS) * total;
    while (k < n - 1 && acc + (points[k] as (typeof points)[number]).sentences < target) acc += (points[k++] as (typeof points)[number]).sentences;
    mu.push((points[k] as (typeof points)[number]).mean);
  }
  const sds = mu.map(() => sd / PARTS);
  const pis = mu.map(() => 1 / PARTS);
  const floor = 0.05 * sd;
  const r = new Float64Array(n * PARTS);
  for (let round = 0; round < EM_ROUNDS; round++) {
    for (let i = 0; i < n; i++) {
      const x = (points[i] as (typeof points)[number]).mean;
      let sum = 0;
      for (let j = 0; j < PARTS; j++) {
        const z = (x - (mu[j] as number)) / (sds[j] as number);
        const v = ((pis[j] as number) / (sds[j] as number)) * Math.exp(-0.5 * z * z);
        r[i * PARTS + j] = v;
        sum += v;
      }
      // A point far from every part (all densities underflow) goes to the nearest mean's side by the data's mean.
      for (let j = 0; j < PARTS; j++) r[i * PARTS + j] = sum > 0 ? (r[i * PARTS + j] as number) / sum : (x < mean) === (j === 0) ? 1 : 0;
    }
    for (let j = 0; j < PARTS; j++) {
      let w = 0;
      let m = 0;
      for (let i = 0; i < n; i++) {
        const q = (r[i * PARTS + j] as number) * (points[i] as (typeof points)[number]).sentences;
        w += q;
        m += q * (points[i] as (typeof points)[number]).mean;
      }
      if (!(w > 0)) continue;
      m /= w;
      let v = 0;
      for (let i = 0; i < n; i++) v += (r[i * PARTS + j] as number) * (points[i] as (typeof points)[number]).sentences * ((points[i] as (typeof points)[number]).mean - m) ** 2;
      mu[j] = m;
      sds[j] = Math.max(Math.sqrt(v / w), floor);
      pis[j] = w / total;
    }
  }
  let first = 0;
  for (let j = 1; j < PARTS; j++) if ((mu[j] as number) < (mu[first] as number)) first = j;
  return { weight: pis[first] as number, posterior: Float64Array.from({ length: n }, (_, i) => r[i * PARTS + first] as number) };
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
  return { ...(r.share ? { taskShare: r.share } : {}), ...(r.none ? { taskShareNone: r.none } : {}) };
}

const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 2 : 1)}%`;

/**
 * One line: the estimate as a percentage, with its range; or, without one, the bound and why
 * there is no estimate. `of`: what the sample was drawn from (the corpus filtered, for a model
 * completed from it; else the general sample given to fit).
 */
export function describeTaskShare(r: { share?: TaskShare | undefined; none?: string | undefined; segments?: number | undefined }, of = 'the corpus'): string {
  const from = r.segments !== undefined ? `${r.segments} sample segments` : 'a sample of it';
  if (r.share?.estimate !== undefined) return `about ${pct(r.share.estimate)} of ${of}'s sentences look like the task (range ${pct(r.share.low)}-${pct(r.share.high)}), read from ${from}; it does not follow --keep`;
  if (r.share) return `${bounds(r.share)} of ${of}'s sentences look like the task, read from ${from}; no closer estimate: ${r.none ?? 'the scores cannot tell'}`;
  return `how much of ${of} looks like the task: no estimate, ${r.none ?? 'nothing read'}`;
}

/** A range without an estimate in words: a floor, a ceiling, or both. */
function bounds(s: TaskShare): string {
  if (s.low > 0 && s.high < 1) return `between ${pct(s.low)} and ${pct(s.high)}`;
  return s.low > 0 ? `at least ${pct(s.low)}` : `at most ${pct(s.high)}`;
}

/** The reading in a few words, for a table beside the truth (eval): "12.3% (range 8.20%-18.4%)", "at least 0.40% (...)", "no estimate (...)". */
export function shareInWords(r: { share?: TaskShare; none?: string }): string {
  if (r.share?.estimate !== undefined) return `${pct(r.share.estimate)} (range ${pct(r.share.low)}-${pct(r.share.high)})`;
  if (r.share) return `${bounds(r.share)} (no closer estimate: ${r.none ?? 'the scores cannot tell'})`;
  return `no estimate (${r.none ?? 'nothing read'})`;
}
