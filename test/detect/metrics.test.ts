import { describe, expect, it } from 'vitest';
import { auroc, averagePrecision, bestF1, f1AtCount } from '../../src/detect/metrics.js';

describe('metrics', () => {
  // Hand-checked: positives score 0.9, 0.7, 0.4; negatives 0.8, 0.3, 0.2.
  const scores = [0.9, 0.8, 0.7, 0.4, 0.3, 0.2];
  const labels = [1, 0, 1, 1, 0, 0];

  it('auroc counts the share of positive/negative pairs ordered right', () => {
    // Pairs (p > n): 0.9 beats 3, 0.7 beats 2, 0.4 beats 2 -> 7 of 9.
    expect(auroc(scores, labels)).toBeCloseTo(7 / 9, 12);
    expect(auroc([1, 2], [0, 1])).toBe(1);
    expect(auroc([2, 1], [0, 1])).toBe(0);
  });

  it('auroc gives tied scores the average rank (a tie counts one half)', () => {
    expect(auroc([0.5, 0.5], [0, 1])).toBe(0.5);
    // Positive 0.5 ties one negative 0.5 and beats 0.1: (1 + 0.5) / 2.
    expect(auroc([0.5, 0.5, 0.1], [1, 0, 0])).toBeCloseTo(0.75, 12);
  });

  it('average precision sums precision at each recall step', () => {
    // Recall steps at ranks 1 (P=1), 3 (P=2/3), 4 (P=3/4).
    expect(averagePrecision(scores, labels)).toBeCloseTo((1 + 2 / 3 + 3 / 4) / 3, 12);
    // A tie of a positive and a negative enters together: P = 1/2 at recall 1.
    expect(averagePrecision([0.5, 0.5], [1, 0])).toBeCloseTo(0.5, 12);
  });

  it('f1 at a count marks the top rows, ties at the threshold included', () => {
    // Top 3: 0.9(1), 0.8(0), 0.7(1): tp 2, predicted 3, positives 3 -> 4/6.
    expect(f1AtCount(scores, labels, 3)).toBeCloseTo(4 / 6, 12);
    // Threshold 0.5 with count 1 marks both tied rows: tp 1, predicted 2, positives 1 -> 2/3.
    expect(f1AtCount([0.5, 0.5, 0.1], [1, 0, 0], 1)).toBeCloseTo(2 / 3, 12);
    expect(f1AtCount(scores, labels, 0)).toBe(0);
  });

  it('best f1 scans every threshold', () => {
    // Top 4: tp 3, predicted 4 -> 6/7, the best.
    expect(bestF1(scores, labels)).toBeCloseTo(6 / 7, 12);
  });

  it('rejects mismatched lengths', () => {
    expect(() => auroc([1, 2], [1])).toThrow(/2 scores but 1 labels/);
  });
});
