/**
 * Classification metrics for anomaly scores. Labels: 1 = anomalous (positive, e.g. general
 * text), 0 = normal (task text). Higher score = more anomalous.
 */

function checkInput(scores: ArrayLike<number>, labels: ArrayLike<number>): { pos: number; neg: number } {
  if (scores.length !== labels.length) throw new Error(`metrics: ${scores.length} scores but ${labels.length} labels`);
  let pos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) pos++;
  return { pos, neg: labels.length - pos };
}

/** Indices by descending score; ties in input order (the metrics below treat ties as groups). */
function descending(scores: ArrayLike<number>): Int32Array {
  const idx = Int32Array.from({ length: scores.length }, (_, i) => i);
  return idx.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
}

/** Area under the ROC curve via the Mann–Whitney U statistic; tied scores get their average rank. */
export function auroc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const { pos, neg } = checkInput(scores, labels);
  if (pos === 0 || neg === 0) return NaN;
  const idx = Int32Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => (scores[a] as number) - (scores[b] as number));
  let rankSumPos = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1] as number] === scores[idx[i] as number]) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) if (labels[idx[t] as number] === 1) rankSumPos += avgRank;
    i = j + 1;
  }
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

/**
 * Average precision, Σ (R_k - R_{k-1}) P_k over the distinct score thresholds (tied scores
 * enter together), as scikit-learn's average_precision_score.
 */
export function averagePrecision(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const { pos } = checkInput(scores, labels);
  if (pos === 0) return NaN;
  const idx = descending(scores);
  let tp = 0;
  let seen = 0;
  let ap = 0;
  let prevRecall = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1] as number] === scores[idx[i] as number]) j++;
    for (let t = i; t <= j; t++) if (labels[idx[t] as number] === 1) tp++;
    seen = j + 1;
    const recall = tp / pos;
    ap += (recall - prevRecall) * (tp / seen);
    prevRecall = recall;
    i = j + 1;
  }
  return ap;
}

function f1(tp: number, predicted: number, pos: number): number {
  return tp === 0 ? 0 : (2 * tp) / (predicted + pos);
}

/**
 * F1 when the `count` highest scores are marked anomalous: the threshold is the count-th
 * highest score and every row scoring at least that is marked (ties are never split).
 */
export function f1AtCount(scores: ArrayLike<number>, labels: ArrayLike<number>, count: number): number {
  const { pos } = checkInput(scores, labels);
  if (count <= 0 || scores.length === 0) return 0;
  const idx = descending(scores);
  const threshold = scores[idx[Math.min(count, idx.length) - 1] as number] as number;
  let tp = 0;
  let predicted = 0;
  for (let i = 0; i < scores.length; i++) {
    if ((scores[i] as number) >= threshold) {
      predicted++;
      if (labels[i] === 1) tp++;
    }
  }
  return f1(tp, predicted, pos);
}

/** The best F1 over all thresholds (each distinct score). */
export function bestF1(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const { pos } = checkInput(scores, labels);
  if (pos === 0) return 0;
  const idx = descending(scores);
  let tp = 0;
  let best = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1] as number] === scores[idx[i] as number]) j++;
    for (let t = i; t <= j; t++) if (labels[idx[t] as number] === 1) tp++;
    best = Math.max(best, f1(tp, j + 1, pos));
    i = j + 1;
  }
  return best;
}
