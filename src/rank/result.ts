/** What a rank run measures, per detector: shared by rank.ts (which measures) and table.ts (which prints). */
export interface RankMetrics {
  f1: number;
  f1_best: number;
  auroc: number;
  ap: number;
  fit_s: number;
  score_per_s: number;
}

export interface RankRow extends RankMetrics {
  name: string;
  /** Sample standard deviation over the repeats (present when repeat > 1). */
  std?: RankMetrics;
}

export interface RankResult {
  detectors: RankRow[];
  seed: number;
  repeat: number;
  /** Rows per split (of the first repeat; the sizes are the same for every seed). */
  train: number;
  test_task: number;
  test_general: number;
}
