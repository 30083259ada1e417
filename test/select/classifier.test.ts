import { describe, expect, it } from 'vitest';
import { defaultEngine } from '../../src/eval/engine-default.js';
import { runEval } from '../../src/eval/run.js';
import { classifierSelector, fitLogistic, floorWeights } from '../../src/select/classifier.js';
import { HAVE_SHARED, inDomainShareOfKept, smallMix, smallSuiteSpec } from './fixture.js';

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

describe('the weight floor', () => {
  it('raises only the weights below -floor x RMS, to that bound, and counts them', () => {
    const w = new Float32Array(100).fill(0.1);
    w[0] = -50;
    w[1] = 30;
    const rms = Math.sqrt((98 * 0.01 + 2500 + 900) / 100);
    expect(floorWeights(w, 2)).toBe(1);
    expect(w[0]).toBeCloseTo(-2 * rms, 4);
    expect(w[1]).toBe(30); // positive evidence is never capped
    expect(w[2]).toBeCloseTo(0.1);
    expect(floorWeights(Float32Array.from([-9, 1]), 0)).toBe(0); // 0: no floor
  });

  // A token that every in-domain corpus sentence carries and no task sentence does: without a
  // floor, SGD drives its weight down on every pass until it alone outweighs the topic.
  const topic = ['protein kinase binding assay cells', 'kinase inhibitor binding protein assay', 'cells protein expression kinase assay'];
  const task = Array.from({ length: 60 }, (_, i) => `${topic[i % 3]} sample ${i % 11}`);
  const inDomain = Array.from({ length: 100 }, (_, i) => `${topic[i % 3]} unkmark sample ${i % 13}`);
  const offTopic = Array.from({ length: 300 }, (_, i) => `football match goal referee crowd ${i % 17}`);
  const scoresWith = async (options: Record<string, unknown>) => {
    const json = await classifierSelector.fit({ task, general: [...inDomain, ...offTopic], seed: 1, options: { rounds: 0, ...options } });
    const scorer = await classifierSelector.load(json, { seed: 1, options: {} });
    const [withToken, offTopicOne] = await scorer.score([`${topic[0]} unkmark sample 3`, 'football match goal referee crowd 3']);
    return { withToken: withToken!, offTopic: offTopicOne!, params: json.params };
  };
  it('keeps one corpus-only token from outweighing a task-like sentence (score = minus the logit)', async () => {
    const without = await scoresWith({ weightFloor: 0 });
    const floored = await scoresWith({});
    expect(floored.params.weightFloor).toBe(48);
    // Measured: 1.91 without the floor (judged corpus text), -1.30 with it; off-topic 5.59.
    expect(without.withToken).toBeGreaterThan(0);
    expect(floored.withToken).toBeLessThan(0);
    expect(floored.offTopic).toBeGreaterThan(0);
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

describe.skipIf(!HAVE_SHARED)('the weight floor on real text (the suite\'s format trap, a smaller mix)', () => {
  it('the default and the classifier keep far more of the raw wiki text with the floor', async () => {
    const spec = await smallSuiteSpec('wiki-raw', [
      { name: 'contrast', title: 'floored' },
      { name: 'contrast', title: 'no floor', options: { candidates: 'classifier:rounds=1:expand=0.05:weightFloor=0+dsir:features=chars-folded:norm=mean' } },
      { name: 'classifier', title: 'classifier floored', options: { rounds: 0 } },
      { name: 'classifier', title: 'classifier, no floor', options: { rounds: 0, weightFloor: 0 } },
    ]);
    const [floored, plain, clsFloored, clsPlain] = (await runEval(spec, { engine: defaultEngine })).methods.map((m) => m.precisionChars);
    // Measured: 0.753 against 0.558; the classifier alone 0.348 against 0.067 (seed 42).
    expect(floored!).toBeGreaterThan(plain! + 0.1);
    expect(clsFloored!).toBeGreaterThan(clsPlain! + 0.15);
  }, 120_000);
});
