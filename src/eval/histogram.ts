export interface Histogram {
  /** Left edge of the first bin and right edge of the last. */
  lo: number;
  hi: number;
  /** Sentences per bin, one row per source label (labels in EvalResult.labels order). */
  counts: number[][];
  /** Highest kept segment score: the cut. */
  cut: number;
}

/** 48 bins: enough to show a bimodal shape, few enough to label in a 640 px chart. */
export const HISTOGRAM_BINS = 48;

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))] as number;
}

/**
 * Sentence-weighted histogram of segment scores, stacked by source. The range is the
 * 0.5%–99.5% quantiles (extended to include the cut) so one outlier does not squash the
 * chart; scores outside fall into the edge bins.
 */
export function scoreHistogram(scores: Float64Array, weights: Float64Array, labels: Uint8Array, nLabels: number, cut: number, bins = HISTOGRAM_BINS): Histogram {
  const finite = scores.filter((s) => Number.isFinite(s)).sort();
  let lo = quantile(finite, 0.005);
  let hi = quantile(finite, 0.995);
  if (Number.isFinite(cut)) {
    lo = Math.min(lo, cut);
    hi = Math.max(hi, cut);
  }
  if (!(hi > lo)) hi = lo + 1;
  const counts = Array.from({ length: nLabels }, () => new Array<number>(bins).fill(0));
  const width = (hi - lo) / bins;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    if (!Number.isFinite(s)) continue;
    const b = Math.min(bins - 1, Math.max(0, Math.floor((s - lo) / width)));
    const row = counts[labels[i] as number] as number[];
    row[b] = (row[b] as number) + (weights[i] as number);
  }
  return { lo, hi, counts, cut: Number.isFinite(cut) ? cut : lo };
}
