import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exactCut, isKept, selectKeptInMemory } from '../../src/cut/exact.js';
import { bucketKey, ScoreSketch } from '../../src/cut/sketch.js';
import { SpillReader, SpillWriter } from '../../src/cut/spill.js';
import { Rng } from '../../src/core/rng.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

function spillOf(name: string, scores: number[], weights: number[]): { path: string; sketch: ScoreSketch } {
  const path = join(tmp.dir, name);
  const w = new SpillWriter(path);
  const sketch = new ScoreSketch();
  scores.forEach((s, i) => {
    w.write(s, weights[i]!, weights[i]! * 100);
    sketch.add(s, weights[i]!, weights[i]! * 100);
  });
  w.close();
  return { path, sketch };
}

describe('bucketKey', () => {
  it('is monotone over negative, zero and positive scores', () => {
    const xs = [-1e6, -3, -1.0001, -1, -1e-9, 0, 1e-13, 1e-9, 0.5, 0.5000001, 1, 2, 1e9];
    for (let i = 1; i < xs.length; i++) expect(bucketKey(xs[i]!)).toBeGreaterThanOrEqual(bucketKey(xs[i - 1]!));
    expect(bucketKey(-2)).toBeLessThan(bucketKey(-1));
    expect(bucketKey(1)).toBeLessThan(bucketKey(1.01));
  });
});

describe('exactCut', () => {
  it('matches the in-memory selection for random scores and weights', () => {
    const rng = new Rng(7);
    for (const keep of [0.05, 0.2, 0.5, 0.93]) {
      const n = 5000;
      const scores = Array.from({ length: n }, () => rng.normal() * 0.1 + 0.4);
      const weights = Array.from({ length: n }, () => 1 + rng.int(15));
      const { path, sketch } = spillOf(`r${keep}.spill`, scores, weights);
      const cut = exactCut(sketch, [path], keep, 'sentences');
      const mask = selectKeptInMemory(Float64Array.from(scores), Float64Array.from(weights), keep);
      let kept = 0;
      for (let i = 0; i < n; i++) {
        expect(isKept(cut, scores[i]!, i)).toBe(mask[i] === 1);
        if (mask[i]) kept += weights[i]!;
      }
      expect(cut.keptWeight).toBe(kept);
      // Within half the largest segment of the target.
      expect(Math.abs(kept - keep * cut.totalWeight)).toBeLessThanOrEqual(7.5);
    }
  });

  it('ties are broken by segment id (lower id kept first)', () => {
    const scores = Array.from({ length: 100 }, () => 0.5);
    const { path, sketch } = spillOf('ties.spill', scores, scores.map(() => 1));
    const cut = exactCut(sketch, [path], 0.3, 'sentences');
    const kept = scores.map((s, i) => isKept(cut, s, i));
    expect(kept.filter(Boolean).length).toBe(30);
    expect(kept.slice(0, 30).every(Boolean)).toBe(true);
  });

  it('keep 0 keeps nothing, keep 1 keeps everything', () => {
    const { path, sketch } = spillOf('edge.spill', [0.3, -2, 5], [1, 1, 1]);
    const none = exactCut(sketch, [path], 0, 'sentences');
    const all = exactCut(sketch, [path], 1, 'sentences');
    expect([0.3, -2, 5].map((s, i) => isKept(none, s, i))).toEqual([false, false, false]);
    expect([0.3, -2, 5].map((s, i) => isKept(all, s, i))).toEqual([true, true, true]);
  });

  it('keep-by bytes uses byte weights', () => {
    const { path, sketch } = spillOf('bytes.spill', [0.1, 0.2, 0.3, 0.4], [10, 1, 1, 1]);
    const cut = exactCut(sketch, [path], 0.5, 'bytes');
    expect([0.1, 0.2, 0.3, 0.4].map((s, i) => isKept(cut, s, i))).toEqual([true, false, false, false]);
  });

  it('several spills (shards) with merged sketches give the single-spill cut', () => {
    const rng = new Rng(3);
    const scores = Array.from({ length: 3000 }, () => rng.next());
    const weights = scores.map(() => 15);
    const whole = spillOf('whole.spill', scores, weights);
    const a = spillOf('a.spill', scores.slice(0, 1000), weights.slice(0, 1000));
    const b = spillOf('b.spill', scores.slice(1000), weights.slice(1000));
    const merged = ScoreSketch.fromJSON(JSON.parse(JSON.stringify(a.sketch.toJSON()))).merge(b.sketch);
    const c1 = exactCut(whole.sketch, [whole.path], 0.2, 'sentences');
    const c2 = exactCut(merged, [a.path, b.path], 0.2, 'sentences');
    expect(c2.threshold).toBe(c1.threshold);
    expect(c2.tieId).toBe(c1.tieId);
  });

  it('refuses when the spill and sketch disagree', () => {
    const { path } = spillOf('bad.spill', [0.1, 0.2], [1, 1]);
    const other = new ScoreSketch();
    other.add(0.15, 1, 1);
    other.add(0.15, 1, 1);
    expect(() => exactCut(other, [path], 0.5, 'sentences')).toThrow(/disagree/);
  });
});

describe('spill', () => {
  it('round-trips records in order', () => {
    const { path } = spillOf('rt.spill', [0.25, -1.5, 3], [15, 7, 1]);
    const r = new SpillReader(path);
    const got: number[][] = [];
    for (let rec = r.next(); rec; rec = r.next()) got.push([rec.score, rec.sentences, rec.bytes]);
    r.close();
    expect(got).toEqual([[0.25, 15, 1500], [-1.5, 7, 700], [3, 1, 100]]);
  });
});

describe('exactCut by an amount and by tokens', () => {
  it('an amount above 1 is a target in the unit: the kept weight ends within half a segment of it, or everything when the corpus holds less', () => {
    const rng = new Rng(11);
    const n = 3000;
    const scores = Array.from({ length: n }, () => rng.normal());
    const weights = Array.from({ length: n }, () => 1 + rng.int(15));
    const { path, sketch } = spillOf('amount.spill', scores, weights);
    const total = sketch.totals().bytes;
    for (const amount of [500, 12_345, Math.floor(total / 2)]) {
      const cut = exactCut(sketch, [path], amount, 'bytes');
      expect(Math.abs(cut.keptWeight - amount)).toBeLessThanOrEqual(15 * 100 / 2);
      expect(cut.tokens).toBeUndefined();
    }
    const all = exactCut(sketch, [path], total * 10, 'bytes');
    expect(all.keptSegments).toBe(n);
    expect(all.targetWeight).toBe(total);
  });

  it('a spill with token counts (version 2) cuts by tokens and reports the kept tokens under any unit; one without refuses tokens', () => {
    const rng = new Rng(5);
    const path = join(tmp.dir, 'tokens.spill');
    const w = new SpillWriter(path, false, true);
    const sketch = new ScoreSketch();
    const tokens: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < 2000; i++) {
      scores.push(rng.normal());
      tokens.push(10 + rng.int(40));
      w.write(scores[i]!, 3, 100, tokens[i]!);
      sketch.add(scores[i]!, 3, 100, tokens[i]!);
    }
    w.close();
    expect(new SpillReader(path).tokens).toBe(true);
    const back = ScoreSketch.fromJSON(JSON.parse(JSON.stringify(sketch.toJSON())));
    expect(back.tokens).toBe(true);
    expect(back.totals().tokens).toBe(tokens.reduce((a, b) => a + b, 0));
    const cut = exactCut(back, [path], 10_000, 'tokens');
    const kept = scores.reduce((a, s, i) => a + (isKept(cut, s, i) ? tokens[i]! : 0), 0);
    expect(cut.keptWeight).toBe(kept);
    expect(cut.tokens?.kept).toBe(kept);
    expect(Math.abs(kept - 10_000)).toBeLessThanOrEqual(25);
    const byBytes = exactCut(back, [path], 0.3, 'bytes');
    expect(byBytes.tokens?.kept).toBe(scores.reduce((a, s, i) => a + (isKept(byBytes, s, i) ? tokens[i]! : 0), 0));
    const plain = spillOf('plain.spill', [0.1, 0.2], [1, 1]);
    expect(plain.sketch.toJSON().buckets[0]).toHaveLength(4);
    expect(() => exactCut(plain.sketch, [plain.path], 10, 'tokens')).toThrow(/this run counted no tokens/);
  });
});
