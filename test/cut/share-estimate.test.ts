import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { ScoreSketch } from '../../src/cut/sketch.js';
import { describeTaskShare, estimateTaskShare } from '../../src/cut/share-estimate.js';

/** Segment scores: `share` of the sentences from a task-like mode far below the rest, 15 sentences a segment. */
function mixture(share: number, segments: number, gap: number, seed = 1): ScoreSketch {
  const rng = new Rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const sketch = new ScoreSketch();
  for (let i = 0; i < segments; i++) {
    const task = rng.next() < share;
    sketch.add(task ? -gap + 0.5 * normal() : normal(), 15, 1000);
  }
  return sketch;
}

describe('estimateTaskShare', () => {
  it('finds the share of a task-like mode apart from the rest, from 30% down to half a percent', () => {
    for (const share of [0.3, 0.05, 0.01, 0.005]) {
      const est = estimateTaskShare(mixture(share, 60000, 6))!;
      expect(est, String(share)).toBeDefined();
      expect(est.estimate / share, String(share)).toBeGreaterThan(0.8);
      expect(est.estimate / share, String(share)).toBeLessThan(1.25);
      expect(est.low).toBeLessThanOrEqual(est.estimate);
      expect(est.high).toBeGreaterThanOrEqual(est.estimate);
    }
  });
  it('gives no estimate when the scores have one mode (a random scorer)', () => {
    expect(estimateTaskShare(mixture(0, 60000, 4))).toBeUndefined();
  });
  it('ignores a valley with fewer than MIN_SEGMENTS segments below it', () => {
    // 20 task-like segments of 60,000: too few to tell from the tail's noise.
    const est = estimateTaskShare(mixture(20 / 60000, 60000, 6, 3));
    expect(est === undefined || est.estimate > 0.01).toBe(true);
  });
  it('says it in one line', () => {
    expect(describeTaskShare({ estimate: 0.0123, low: 0.01, high: 0.015 })).toMatch(/^about 1\.23% of the corpus's sentences look like the task \(range 1\.00%-1\.50%\)/);
  });
});
