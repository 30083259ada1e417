import { describe, expect, it } from 'vitest';
import { packBatch, planBatches } from '../../../src/embed/onnx/batching.js';
import { l2NormalizeRows, poolTokens } from '../../../src/embed/onnx/pooling.js';

describe('planBatches', () => {
  it('sorts by length, respects batch size and token budget, and covers every row once', () => {
    const lengths = [5, 30, 7, 12, 30, 2, 9, 100];
    const plans = planBatches(lengths, 3, 64);
    const seen = plans.flatMap((p) => Array.from(p.rows)).sort((a, b) => a - b);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const p of plans) {
      expect(p.rows.length).toBeLessThanOrEqual(3);
      expect(p.seq).toBe(Math.max(...Array.from(p.rows).map((r) => lengths[r] as number)));
      if (p.rows.length > 1) expect(p.seq * p.rows.length).toBeLessThanOrEqual(64);
    }
    // A sentence longer than the budget still gets a batch of its own.
    expect(plans[0]?.rows.length).toBe(1);
    expect(plans[0]?.seq).toBe(100);
  });

  it('unsorted plans keep input order', () => {
    const plans = planBatches([5, 30, 7, 12], 2, 1e9, false);
    expect(plans.map((p) => Array.from(p.rows))).toEqual([[0, 1], [2, 3]]);
  });
});

describe('packBatch', () => {
  it('right-pads ids with the pad id and marks real tokens in the mask', () => {
    const tokens = [Int32Array.from([101, 7, 102]), Int32Array.from([101, 102])];
    const b = packBatch({ rows: Int32Array.from([0, 1]), seq: 3 }, tokens, 0);
    expect(Array.from(b.inputIds)).toEqual([101n, 7n, 102n, 101n, 102n, 0n]);
    expect(Array.from(b.attentionMask)).toEqual([1n, 1n, 1n, 1n, 1n, 0n]);
    expect(Array.from(b.tokenTypeIds)).toEqual([0n, 0n, 0n, 0n, 0n, 0n]);
    expect(Array.from(b.lengths)).toEqual([3, 2]);
  });
});

describe('pooling', () => {
  // batch 2, seq 3, dims 2
  const hidden = Float32Array.from([1, 2, 3, 4, 100, 100, 5, 6, 7, 8, 9, 9]);
  it('mean pooling ignores padded positions', () => {
    const out = new Float32Array(4);
    poolTokens(hidden, 3, 2, [2, 3], [1, 0], 'mean', out);
    expect(Array.from(out)).toEqual([7, Math.fround(23 / 3), 2, 3]);
  });
  it('cls pooling takes the first token', () => {
    const out = new Float32Array(4);
    poolTokens(hidden, 3, 2, [2, 3], [0, 1], 'cls', out);
    expect(Array.from(out)).toEqual([1, 2, 5, 6]);
  });
  it('l2 normalisation leaves zero rows alone', () => {
    const out = Float32Array.from([3, 4, 0, 0]);
    l2NormalizeRows(out, 2, [0, 1]);
    expect(Array.from(out)).toEqual([0.6, 0.8, 0, 0].map((x) => Math.fround(x)));
  });
});
