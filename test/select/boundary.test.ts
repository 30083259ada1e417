import { describe, expect, it } from 'vitest';
import { fitModel } from '../../src/model/fit.js';
import { BOUNDARY_DEFAULTS, boundaryApplies, boundaryBand, describeBoundary, type BoundaryRecord } from '../../src/select/boundary.js';
import { HAVE_SHARED, smallMix } from './fixture.js';

describe('boundaryApplies', () => {
  it('applies at a keep of 2.5% or less, known, with the mode auto', () => {
    expect(boundaryApplies('auto', 0.01)).toBe(true);
    expect(boundaryApplies('auto', BOUNDARY_DEFAULTS.maxKeep)).toBe(true);
    expect(boundaryApplies('auto', 0.03)).toBe(false);
    expect(boundaryApplies('auto', 0.2)).toBe(false);
    expect(boundaryApplies('auto', undefined)).toBe(false);
    expect(boundaryApplies('off', 0.01)).toBe(false);
  });
});

describe('boundaryBand', () => {
  // 100 segments of 10 sentences; segment g scores g (lower = more task-like), so the order is by id.
  const general = Array.from({ length: 1000 }, (_, i) => `segment ${Math.floor(i / 10)} sentence ${i % 10}`);
  const groups = Uint32Array.from(general, (_, i) => Math.floor(i / 10));
  const scores = Float64Array.from(groups, (g) => g);

  it('takes the segments ranked from 1.5x to 5x the keep, and counts them again to 5% of the sample', () => {
    // keep 1%: from 15 to 50 sentences in; segments 0 and 1 end before 15 (the kept side), 2-4 start in the band.
    const { side, record } = boundaryBand(general, scores, groups, 0.01, 3);
    expect(record).toEqual({ segments: 3, sentences: 30, used: 30, copies: 2, from: 1.5, to: 5, share: 0.05 });
    expect(new Set(side)).toEqual(new Set(general.slice(20, 50)));
    expect(side).toHaveLength(60);
    expect(describeBoundary(record)).toBe("boundary: 3 sample segments (30 sentences) rank from 1.5x to 5x the share kept, just past it; their sentences count 2 more times on the general side of a second self-training (5% of the sample's weight)");
  });

  it('subsamples a band heavier than 5% of the sample, seeded, each sentence once', () => {
    const { side, record } = boundaryBand(general, scores, groups, 0.025, 3);
    expect(record).toMatchObject({ segments: 9, sentences: 90, used: 50, copies: 1 });
    expect(side).toHaveLength(50);
    expect(boundaryBand(general, scores, groups, 0.025, 3).side).toEqual(side);
    expect(describeBoundary(record)).toMatch(/a seeded 50 of their sentences count 1 more time/);
  });

  it('ranks segments with a non-finite score last, never in the band, and says when the band is empty', () => {
    const broken = Float64Array.from(scores, (s) => (s >= 2 && s < 5 ? NaN : s));
    const { side } = boundaryBand(general, broken, groups, 0.01, 3);
    expect(new Set(side)).toEqual(new Set(general.slice(50, 80)));
    // A keep so small that the band ends inside the first segment.
    const { side: none, record } = boundaryBand(general, scores, groups, 0.0001, 3);
    expect(none).toEqual([]);
    expect(record).toMatchObject({ segments: 0, sentences: 0, used: 0, copies: 0 });
    const empty: BoundaryRecord = { ...record };
    expect(describeBoundary(empty)).toMatch(/no sample segments past the share kept/);
  });
});

describe.skipIf(!HAVE_SHARED)('the default fits a second time on its boundary at small keeps', () => {
  const mix = smallMix();
  const generalGroups = Uint32Array.from(mix.general, (_, i) => Math.floor(i / 5));
  const fit = (options: Record<string, string>, lines: string[] = []) => fitModel({ method: 'contrast', task: mix.task, general: mix.general, generalGroups, seed: 4, options, log: (l) => lines.push(l) });

  it('records the band and logs it at keep 2%, and not at 20% nor with boundary=off', async () => {
    const lines: string[] = [];
    const small = await fit({ keep: '0.02' }, lines);
    expect(small.selector.params).toMatchObject({ boundary: 'auto', keep: 0.02 });
    expect(small.selector.state.boundary).toMatchObject({ segments: 1, sentences: 5, copies: 1 });
    expect(lines.some((l) => l.startsWith('boundary: 1 sample segments (5 sentences)'))).toBe(true);
    expect((await fit({ keep: '0.2' })).selector.state.boundary).toBeUndefined();
    const off = await fit({ keep: '0.02', boundary: 'off' });
    expect(off.selector.params).toMatchObject({ boundary: 'off' });
    expect(off.selector.state.boundary).toBeUndefined();
    // The probe reads the sample before the second fit: the reading is the same either way.
    expect(off.selector.state.taskShare).toEqual(small.selector.state.taskShare);
    await expect(fit({ keep: '0.02', boundary: 'on' })).rejects.toThrow(/invalid boundary "on" for method contrast/);
  });
});
