import { describe, expect, it } from 'vitest';
import { sphericalKMeans } from '../../src/inspect/kmeans.js';
import { Rng } from '../../src/core/rng.js';

/** n unit rows around each of the given directions (d = 4), with a little noise. */
function rowsAround(centres: number[][], perCentre: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  const d = 4;
  const out = new Float64Array(centres.length * perCentre * d);
  let r = 0;
  for (const c of centres) {
    for (let i = 0; i < perCentre; i++, r++) {
      let norm = 0;
      for (let x = 0; x < d; x++) {
        out[r * d + x] = (c[x] as number) + 0.05 * rng.normal();
        norm += (out[r * d + x] as number) ** 2;
      }
      for (let x = 0; x < d; x++) out[r * d + x] = (out[r * d + x] as number) / Math.sqrt(norm);
    }
  }
  return out;
}

describe('sphericalKMeans', () => {
  const centres = [
    [1, 0, 0, 0],
    [0, 1, 0, 0],
    [0, 0, 0, 1],
  ];

  it('puts rows around one direction together and rows around different ones apart', () => {
    const rows = rowsAround(centres, 20, 1);
    const { assign, similarity } = sphericalKMeans(rows, 60, 4, 3, 7);
    for (let c = 0; c < 3; c++) {
      const own = new Set(Array.from(assign.slice(c * 20, c * 20 + 20)));
      expect(own.size).toBe(1);
    }
    expect(new Set(Array.from(assign)).size).toBe(3);
    for (const s of similarity) expect(s).toBeGreaterThan(0.9);
  });

  it('gives the same groups for the same rows and seed', () => {
    const rows = rowsAround(centres, 15, 2);
    expect(Array.from(sphericalKMeans(rows, 45, 4, 3, 5).assign)).toEqual(Array.from(sphericalKMeans(rows, 45, 4, 3, 5).assign));
  });

  it('caps k at the number of rows, and takes no rows at all', () => {
    const rows = rowsAround(centres, 1, 3);
    const r = sphericalKMeans(rows, 3, 4, 10, 1);
    expect(r.centroids).toHaveLength(3 * 4);
    expect(new Set(Array.from(r.assign)).size).toBe(3);
    expect(sphericalKMeans(new Float64Array(0), 0, 4, 3, 1).assign).toHaveLength(0);
  });

  it('does not fail on all-zero rows (they join one group)', () => {
    const rows = new Float64Array(5 * 4);
    const r = sphericalKMeans(rows, 5, 4, 2, 1);
    expect(new Set(Array.from(r.assign)).size).toBe(1);
  });
});
