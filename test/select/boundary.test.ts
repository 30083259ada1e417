import { describe, expect, it } from 'vitest';
import { fitModel } from '../../src/model/fit.js';
import { BOUNDARY_DEFAULTS, boundaryApplies, boundaryBand, describeBoundary, type BoundaryRecord } from '../../src/select/boundary.js';
import { join } from 'node:path';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { sampleSentences } from '../../src/io/sample.js';
import { describeModel } from '../../src/model/describe.js';
import { builtinTaskSentences } from '../helpers/builtin.js';
import { ROOT } from '../helpers/cli.js';
import type { SelfTrainingRecord } from '../../src/select/self-training.js';

describe('boundaryApplies', () => {
  it('applies at a keep of 2.5% or less, known, with the mode auto', () => {
    expect(boundaryApplies('auto', 0.01)).toBe(true);
    expect(boundaryApplies('auto', BOUNDARY_DEFAULTS.maxKeep)).toBe(true);
    expect(boundaryApplies('auto', 0.03)).toBe(false);
    expect(boundaryApplies('auto', 0.2)).toBe(false);
    expect(boundaryApplies('auto', undefined)).toBe(false);
    expect(boundaryApplies('off', 0.01)).toBe(false);
    // Where the gate closed, at any keep it closed at; never without a keep or with off.
    expect(boundaryApplies('auto', 0.05, true)).toBe(true);
    expect(boundaryApplies('auto', undefined, true)).toBe(false);
    expect(boundaryApplies('off', 0.05, true)).toBe(false);
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

describe('the default fits a second time on its boundary at small keeps (the built-in corpus)', () => {
  const fit = async (options: Record<string, string>, lines: string[] = []) => {
    const sample = await sampleSentences([join(ROOT, 'corpora', 'builtin', 'mix.jsonl.gz')], { ...DEFAULT_READER, format: 'jsonl' }, { size: 3000, seed: 1 });
    // Sized in sentences, and self-trained whatever the gate says: the band itself is under test.
    return fitModel({ method: 'contrast', task: builtinTaskSentences(600), general: sample.sentences, generalGroups: sample.groups, seed: 4, options: { keepBy: 'sentences', selfTrain: 'always', ...options }, log: (l) => lines.push(l) });
  };

  it('records the band, logs it and shows it at keep 2%; not at 20% nor with boundary=off; the reading of the share is the same', async () => {
    const lines: string[] = [];
    const small = await fit({ keep: '0.02' }, lines);
    expect(small.selector.params).toMatchObject({ boundary: 'auto', keep: 0.02 });
    const band = small.selector.state.boundary as BoundaryRecord;
    // 1.5x to 5x the keep: 3-10% of the sample's sentences, in whole segments.
    expect(band.sentences / 3000).toBeGreaterThan(0.06);
    expect(band.sentences / 3000).toBeLessThan(0.08);
    expect(band).toMatchObject({ from: 1.5, to: 5, share: 0.05, copies: 1 });
    expect(band.used).toBe(150);
    const logged = lines.findIndex((l) => l.startsWith(`boundary: ${band.segments} sample segments (${band.sentences} sentences)`));
    expect(logged).toBeGreaterThan(-1);
    // The second self-training's rounds follow the line.
    expect(lines.slice(logged).filter((l) => l.startsWith('self-training round')).length).toBe(4);
    expect(describeModel(small).some((l) => l.startsWith('boundary: '))).toBe(true);
    expect((await fit({ keep: '0.2' })).selector.state.boundary).toBeUndefined();
    const off = await fit({ keep: '0.02', boundary: 'off' });
    expect(off.selector.params).toMatchObject({ boundary: 'off' });
    expect(off.selector.state.boundary).toBeUndefined();
    // The probe reads the sample before the second fit.
    expect(off.selector.state.taskShare).toEqual(small.selector.state.taskShare);
    expect(off.selector.state.selector).not.toEqual(small.selector.state.selector);
    await expect(fit({ keep: '0.02', boundary: 'on' })).rejects.toThrow(/invalid boundary "on" for method contrast/);
  });
});

describe('where the gate stops self-training, the band weighs on refits of the pair instead', () => {
  it('refits twice, each with a band of the last ranking added, records and logs it; boundary=off fits once', async () => {
    const sample = await sampleSentences([join(ROOT, 'corpora', 'builtin', 'mix.jsonl.gz')], { ...DEFAULT_READER, format: 'jsonl' }, { size: 3000, seed: 1 });
    const fit = (options: Record<string, string>, lines: string[] = []) => fitModel({ method: 'contrast', task: builtinTaskSentences(600), general: sample.sentences, generalGroups: sample.groups, seed: 4, options: { keepBy: 'sentences', keep: '0.01', ...options }, log: (l) => lines.push(l) });
    const lines: string[] = [];
    const gated = await fit({}, lines);
    expect((gated.selector.state.selfTraining as SelfTrainingRecord).skipped).toMatch(/held-out median sentence ranks past/);
    const band = gated.selector.state.boundary as BoundaryRecord;
    expect(band).toMatchObject({ from: 1.5, to: 5, share: BOUNDARY_DEFAULTS.gatedShare, refits: BOUNDARY_DEFAULTS.gatedRounds });
    // 1.5x to 5x the keep: 1.5-5% of the sample's sentences, each counted again to half the sample.
    expect(band.sentences / 3000).toBeGreaterThan(0.03);
    expect(band.sentences / 3000).toBeLessThan(0.06);
    expect(band.used).toBe(band.sentences);
    expect(band.copies).toBe(Math.round(1500 / band.sentences));
    const refits = lines.filter((l) => l.startsWith('boundary: ') && /refit \d of the pair, no self-training \(the gate\)/.test(l));
    expect(refits.length).toBe(BOUNDARY_DEFAULTS.gatedRounds);
    expect(lines.some((l) => l.startsWith('self-training round'))).toBe(false);
    expect(describeModel(gated).some((l) => l.includes('refit 2 of the pair'))).toBe(true);
    const off = await fit({ boundary: 'off' });
    expect(off.selector.state.boundary).toBeUndefined();
    expect(off.selector.state.selector).not.toEqual(gated.selector.state.selector);
  });
});
