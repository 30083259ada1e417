import { describe, expect, it } from 'vitest';
import { DETECTOR_HELP, DETECTOR_NAMES, createDetector, detectorFromJSON } from '../../src/detect/registry.js';
import { auroc } from '../../src/detect/metrics.js';
import { TadpoleError } from '../../src/core/errors.js';
import type { DetectorJSON } from '../../src/detect/detector.js';
import { clustersAndOutliers } from './synthetic.js';

const data = clustersAndOutliers(11);
// Small settings keep the suite fast; defaults are exercised by the rank and CLI tests.
const small: Record<string, Record<string, unknown>> = {
  iforest: { trees: 50 },
  eif: { trees: 30 },
  ocsvm: { landmarks: 64, iterations: 100 },
};

function fitted(name: string, seed: number) {
  const det = createDetector(name, { seed, ...(small[name] ?? {}) });
  det.fit(data.train, data.nTrain, data.dims);
  return det;
}

describe('registry', () => {
  it('lists the seven detectors, each with a help line', () => {
    expect(DETECTOR_NAMES).toEqual(['iforest', 'eif', 'knn', 'lof', 'pca', 'mahalanobis', 'ocsvm']);
    for (const n of DETECTOR_NAMES) expect(DETECTOR_HELP[n]).toMatch(/\w/);
  });
  it('names the choices for an unknown detector', () => {
    let err: unknown;
    try {
      createDetector('forest', { seed: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).code).toBe('TADPOLE_USAGE');
    expect((err as TadpoleError).message).toBe('unknown detector "forest"; should be one of: iforest, eif, knn, lof, pca, mahalanobis, ocsvm');
  });
  it('refuses a model entry for an unknown detector with TADPOLE_MODEL', () => {
    expect(() => detectorFromJSON({ name: 'nope', params: {}, state: {} })).toThrow(/unknown detector "nope"/);
  });
  it('refuses a damaged state naming the field', () => {
    const json = JSON.parse(JSON.stringify(fitted('pca', 1).toJSON())) as DetectorJSON;
    delete json.state.mean;
    expect(() => detectorFromJSON(json)).toThrow(/"mean"/);
  });
});

describe.each(DETECTOR_NAMES.map((n) => [n]))('%s', (name) => {
  const det = fitted(name, 3);
  const scores = det.score(data.test, data.nTest);

  it('separates scattered outliers from cluster members (AUROC > 0.9)', () => {
    expect(auroc(scores, data.labels)).toBeGreaterThan(0.9);
  });

  it('is deterministic for a seed', () => {
    const again = fitted(name, 3).score(data.test, data.nTest);
    expect(Array.from(again)).toEqual(Array.from(scores));
  });

  it('round-trips through JSON text with identical scores', () => {
    const text = JSON.stringify(det.toJSON());
    const back = detectorFromJSON(JSON.parse(text) as DetectorJSON);
    expect(back.name).toBe(name);
    expect(Array.from(back.score(data.test, data.nTest))).toEqual(Array.from(scores));
  });

  it('scores in pieces exactly as in one call (streaming)', () => {
    const d = data.dims;
    const a = det.score(data.test.subarray(0, 100 * d), 100);
    const b = det.score(data.test.subarray(100 * d), data.nTest - 100);
    expect([...a, ...b]).toEqual(Array.from(scores));
  });
});

describe('detector-specific behaviour', () => {
  it('eif with extension level 0 splits on one axis and still separates', () => {
    const det = createDetector('eif', { seed: 1, trees: 30, extensionLevel: 0 });
    det.fit(data.train, data.nTrain, data.dims);
    expect(auroc(det.score(data.test, data.nTest), data.labels)).toBeGreaterThan(0.9);
    expect(() => createDetector('eif', { seed: 1, extensionLevel: 16 }).fit(data.train, data.nTrain, data.dims)).toThrow(/extensionLevel must be < dims/);
  });
  it('knn score is the distance to the k-th nearest training row', () => {
    const X = Float32Array.from([0, 0, 1, 0, 3, 0]);
    const det = createDetector('knn', { seed: 1, k: 2 });
    det.fit(X, 3, 2);
    expect(det.score(Float32Array.from([0, 0]), 1)[0]).toBeCloseTo(1, 5);
    expect(det.score(Float32Array.from([10, 0]), 1)[0]).toBeCloseTo(9, 5);
  });
  it('lof is about 1 inside a uniform grid and large far away', () => {
    const pts: number[] = [];
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) pts.push(i, j);
    const det = createDetector('lof', { seed: 1, k: 4 });
    det.fit(Float32Array.from(pts), 100, 2);
    const s = det.score(Float32Array.from([4.5, 4.5, 40, 40]), 2);
    expect(s[0]).toBeGreaterThan(0.8);
    expect(s[0]).toBeLessThan(1.25);
    expect(s[1]).toBeGreaterThan(10);
  });
  it('pca scores points on the fitted line as 0 and off it by squared distance', () => {
    const X = new Float32Array(40);
    for (let i = 0; i < 20; i++) {
      X[2 * i] = i;
      X[2 * i + 1] = 2 * i;
    }
    const det = createDetector('pca', { seed: 1, components: 1 });
    det.fit(X, 20, 2);
    const s = det.score(Float32Array.from([5, 10, 2, -1]), 2);
    expect(s[0]).toBeCloseTo(0, 3);
    // (2,-1) is orthogonal to the direction (1,2): distance² = 5.
    expect(s[1]).toBeCloseTo(5, 3);
  });
  it('mahalanobis scales distance by the spread of each axis', () => {
    const X = new Float32Array(2 * 400);
    let s = 7;
    const u = () => ((s = (s * 16807) % 2147483647) / 2147483647) - 0.5;
    for (let i = 0; i < 400; i++) {
      X[2 * i] = u() * 10;
      X[2 * i + 1] = u();
    }
    const det = createDetector('mahalanobis', { seed: 1 });
    det.fit(X, 400, 2);
    const sc = det.score(Float32Array.from([3, 0, 0, 3]), 2);
    // Three units along the wide axis is normal; along the narrow one, far out.
    expect(sc[1] as number).toBeGreaterThan(5 * (sc[0] as number));
  });
  it('ocsvm flags about nu of its own training rows', () => {
    const det = createDetector('ocsvm', { seed: 1, landmarks: 64, iterations: 100, nu: 0.2 });
    det.fit(data.train, data.nTrain, data.dims);
    const s = det.score(data.train, data.nTrain);
    const flagged = s.filter((v) => v > 0).length / data.nTrain;
    expect(flagged).toBeGreaterThan(0.12);
    expect(flagged).toBeLessThan(0.28);
  });
});
