import { describe, expect, it } from 'vitest';
import { IsolationForest } from '../../src/detect/iforest.js';
import { averagePathLength, harmonic } from '../../src/detect/pathlen.js';
import { auroc } from '../../src/detect/metrics.js';
import { clustersAndOutliers } from './synthetic.js';

describe('c(n), the average path length of an unsuccessful BST search', () => {
  it('is 0 for one point and 1 for two', () => {
    expect(averagePathLength(0)).toBe(0);
    expect(averagePathLength(1)).toBe(0);
    expect(averagePathLength(2)).toBe(1);
  });
  it('matches 2H(n-1) - 2(n-1)/n by hand for n = 3 and 4', () => {
    expect(averagePathLength(3)).toBeCloseTo(2 * 1.5 - 4 / 3, 12);
    expect(averagePathLength(4)).toBeCloseTo(2 * (1 + 1 / 2 + 1 / 3) - 6 / 4, 12);
  });
  it('c(256) agrees with the exact harmonic sum, and the asymptotic branch joins the exact one', () => {
    let h = 0;
    for (let i = 1; i <= 255; i++) h += 1 / i;
    expect(averagePathLength(256)).toBeCloseTo(2 * h - (2 * 255) / 256, 12);
    let h257 = 0;
    for (let i = 1; i <= 257; i++) h257 += 1 / i;
    expect(harmonic(257)).toBeCloseTo(h257, 11);
  });
});

describe('IsolationForest', () => {
  const data = clustersAndOutliers(1);
  const fit = (seed: number, opts: Record<string, unknown> = {}) => {
    const f = new IsolationForest({ seed, ...opts });
    f.fit(data.train, data.nTrain, data.dims);
    return f;
  };

  it('scores scattered outliers higher than cluster members', () => {
    const s = fit(3).score(data.test, data.nTest);
    expect(auroc(s, data.labels)).toBeGreaterThan(0.95);
    // Scores are 2^(-E[h]/c(ψ)) in (0, 1); cluster members sit below 0.5.
    let normalMean = 0;
    for (let i = 0; i < 150; i++) normalMean += (s[i] as number) / 150;
    expect(normalMean).toBeLessThan(0.5);
    for (const v of s) expect(v > 0 && v < 1).toBe(true);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const a = fit(7).score(data.test, data.nTest);
    const b = fit(7).score(data.test, data.nTest);
    const c = fit(8).score(data.test, data.nTest);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(c.buffer))).toBe(false);
  });

  it('round-trips through JSON with identical scores and base64 state', () => {
    const f = fit(5);
    const json = JSON.parse(JSON.stringify(f.toJSON()));
    expect(typeof json.state.threshold).toBe('string');
    const g = IsolationForest.fromJSON(json);
    expect(Array.from(g.score(data.test, data.nTest))).toEqual(Array.from(f.score(data.test, data.nTest)));
  });

  it('keeps trees within the height limit ceil(log2 ψ) and at most 2ψ-1 nodes each', () => {
    const f = fit(2, { trees: 10, sampleSize: 64 });
    expect(f.nodeCount).toBeLessThanOrEqual(10 * 127);
    // A leaf's path length is at most 6 + c(ψ): all scores stay above 2^-((6 + c(64))/c(64)).
    const s = f.score(data.test, data.nTest);
    const floor = Math.pow(2, -(6 + averagePathLength(64)) / averagePathLength(64));
    for (const v of s) expect(v).toBeGreaterThanOrEqual(floor - 1e-6);
  });

  it('uses all rows when there are fewer than the sample size', () => {
    const f = new IsolationForest({ seed: 1 });
    f.fit(data.train, 40, data.dims);
    expect((f.toJSON().state as { psi: number }).psi).toBe(40);
  });

  it('grows only leaves on identical rows instead of looping', () => {
    const X = new Float32Array(50 * 4).fill(0.5);
    const f = new IsolationForest({ seed: 1, trees: 5 });
    f.fit(X, 50, 4);
    expect(f.nodeCount).toBe(5);
  });

  it('names a wrong option and a dims mismatch', () => {
    expect(() => new IsolationForest({ seed: 1, tress: 10 })).toThrow(/unknown option "tress"/);
    expect(() => new IsolationForest({ seed: 1, trees: 0 })).toThrow(/trees must be an integer >= 1/);
    const f = fit(1);
    expect(() => f.score(new Float32Array(10), 2)).toThrow(/expected 2 rows of 16 dims/);
  });
});
