import { describe, expect, it } from 'vitest';
import { classifierSelector, fitLogistic } from '../../src/select/classifier.js';
import { HAVE_SHARED, inDomainShareOfKept, smallMix } from './fixture.js';

async function scores(options: Record<string, unknown>, seed = 3): Promise<Float64Array> {
  const mix = smallMix();
  const json = await classifierSelector.fit({ task: mix.task, general: mix.general, seed, options });
  const scorer = await classifierSelector.load(json, { seed, options: {} });
  return scorer.score(mix.sentences);
}

describe('fitLogistic', () => {
  it('separates two vocabularies and puts the bias between them', () => {
    const pos = Array.from({ length: 50 }, (_, i) => `protein kinase binding assay ${i % 7}`);
    const neg = Array.from({ length: 80 }, (_, i) => `football match goal referee ${i % 5}`);
    const fit = fitLogistic(pos, neg, { buckets: 4096, epochs: 5, rate: 0.5, l2: 1e-5, seed: 1 });
    expect(fit.weights.some((w) => w > 0.5)).toBe(true);
    expect(fit.weights.some((w) => w < -0.5)).toBe(true);
  });
  it('is deterministic for a seed and differs for another seed', () => {
    const pos = ['a b c', 'a b d', 'a c d', 'b c d'];
    const neg = ['x y z', 'x y w', 'x z w', 'y z w', 'a x y'];
    const o = { buckets: 1024, epochs: 3, rate: 0.5, l2: 0, seed: 5 };
    expect(Array.from(fitLogistic(pos, neg, o).weights)).toEqual(Array.from(fitLogistic(pos, neg, o).weights));
    expect(Array.from(fitLogistic(pos, neg, o).weights)).not.toEqual(Array.from(fitLogistic(pos, neg, { ...o, seed: 6 }).weights));
  });
});

describe.skipIf(!HAVE_SHARED)('classifier selector on real text (ChemProt task, bio vs BBC news)', () => {
  it('keeps mostly in-domain sentences, with and without self-training', async () => {
    // Sentence level, 400 sentences, random keeps ~0.5.
    for (const rounds of [0, 1]) expect(inDomainShareOfKept(await scores({ rounds }), smallMix().inDomain)).toBeGreaterThan(0.85);
  });
  it('gives the same scores for the same seed (fit is seeded)', async () => {
    expect(Array.from(await scores({}, 9))).toEqual(Array.from(await scores({}, 9)));
  });
  it('refuses to fit without a general sample and names --general', async () => {
    await expect(classifierSelector.fit({ task: smallMix().task, general: [], seed: 1, options: {} })).rejects.toThrow(/--general/);
  });
});
