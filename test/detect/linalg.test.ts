import { describe, expect, it } from 'vitest';
import { cholesky, columnMeans, covariance, symmetricEigen } from '../../src/detect/linalg.js';
import { ledoitWolfShrinkage } from '../../src/detect/mahalanobis.js';

describe('linalg', () => {
  it('eigen-decomposes a 3x3 symmetric matrix (known values 4, 2, 1)', () => {
    // A = Q diag(4,2,1) Q^T with Q a rotation; eigenvalues come back sorted descending.
    const A = Float64Array.from([3, 1, 0, 1, 3, 0, 0, 0, 1]);
    const { values, vectors } = symmetricEigen(A, 3);
    expect(Array.from(values).map((v) => +v.toFixed(10))).toEqual([4, 2, 1]);
    const v0 = Array.from(vectors.subarray(0, 3)).map(Math.abs);
    expect(v0[0]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(v0[1]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(v0[2]).toBeCloseTo(0, 12);
  });

  it('covariance of two rows and a Cholesky factor that multiplies back', () => {
    const X = Float32Array.from([1, 2, 3, 6]);
    const mean = columnMeans(X, 2, 2);
    expect(Array.from(mean)).toEqual([2, 4]);
    expect(Array.from(covariance(X, 2, 2, mean, 1))).toEqual([2, 4, 4, 8]);
    const A = Float64Array.from([4, 2, 2, 3]);
    const L = cholesky(A, 2);
    expect(L[0]).toBeCloseTo(2, 12);
    expect(L[2]).toBeCloseTo(1, 12);
    expect(L[3]).toBeCloseTo(Math.sqrt(2), 12);
    expect(L[1]).toBe(0);
  });

  it('Ledoit-Wolf shrinkage is in [0, 1], small for many rows of an anisotropic cloud, larger for few', () => {
    const make = (n: number, dims: number) => {
      const X = new Float32Array(n * dims);
      let s = 1;
      // Column d has spread d+1, so the identity target is wrong and shrinkage pays only for few rows.
      for (let i = 0; i < X.length; i++) X[i] = (((s = (s * 16807) % 2147483647) / 2147483647) - 0.5) * ((i % dims) + 1);
      const mean = columnMeans(X, n, dims);
      return ledoitWolfShrinkage(X, n, dims, mean, covariance(X, n, dims, mean, n));
    };
    const many = make(2000, 8);
    const few = make(20, 8);
    expect(many).toBeGreaterThanOrEqual(0);
    expect(many).toBeLessThan(0.1);
    expect(few).toBeLessThanOrEqual(1);
    expect(few).toBeGreaterThan(many);
  });
});
