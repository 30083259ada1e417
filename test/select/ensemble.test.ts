import { describe, expect, it } from 'vitest';
import { parseComponents } from '../../src/select/ensemble.js';
import { selectorFactory } from '../../src/select/registry.js';
import { TADPOLE_DEFAULTS, tadpoleSelector } from '../../src/select/tadpole.js';
import { HAVE_SHARED, inDomainShareOfKept, smallMix } from './fixture.js';

const SEED = 7;

async function scoresOf(method: string, options: Record<string, unknown>, general: string[], sentences: string[][]): Promise<Float64Array[]> {
  const f = selectorFactory(method);
  const json = await f.fit({ task: smallMix().task, general, seed: SEED, options });
  const scorer = await f.load(json, { seed: SEED, options: {} });
  const out = [];
  for (const s of sentences) out.push(await scorer.score(s));
  await scorer.dispose();
  return out;
}

function meanStd(xs: Float64Array): [number, number] {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return [m, Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length)];
}

describe.skipIf(!HAVE_SHARED)('tadpole --detector ensemble (z-normalised selectors)', () => {
  it("tadpole is the paper's method: its detector is iforest unless named, with or without a general sample", async () => {
    const mix = smallMix();
    const json = await tadpoleSelector.fit({ task: mix.task, general: mix.general, seed: SEED, options: {} });
    expect(json.params.detector).toBe('iforest');
    expect(TADPOLE_DEFAULTS.detector).toBe('iforest');
    expect((await tadpoleSelector.fit({ task: mix.task, general: [], seed: SEED, options: {} })).params.detector).toBe('iforest');
  });

  it('scores = sum of each component z-normalised by its mean/std on the general sample', async () => {
    const mix = smallMix();
    const [ens] = await scoresOf('tadpole', { detector: 'ensemble' }, mix.general, [mix.sentences]);
    const expected = new Float64Array(mix.sentences.length);
    for (const name of TADPOLE_DEFAULTS.components.split(',')) {
      // The general sample here (100) is under the calibration size, so all of it calibrates.
      const [onGeneral, onMix] = await scoresOf(name, {}, mix.general, [mix.general, mix.sentences]);
      const [m, sd] = meanStd(onGeneral as Float64Array);
      (onMix as Float64Array).forEach((v, i) => (expected[i] = (expected[i] as number) + (v - m) / sd));
    }
    (ens as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(expected[i] as number, 9));
    expect(inDomainShareOfKept(ens as Float64Array, mix.inDomain)).toBeGreaterThan(0.9);
  });

  it('classifier+dsir on the same features hash each sentence once and give exactly the part-by-part z-sum', async () => {
    const mix = smallMix();
    const options = { detector: 'ensemble', components: 'classifier+dsir:features=chars-folded' };
    const [ens] = await scoresOf('tadpole', options, mix.general, [mix.sentences]);
    const expected = new Float64Array(mix.sentences.length);
    for (const [name, opts] of [['classifier', {}], ['dsir', { features: 'chars-folded' }]] as const) {
      const [onGeneral, onMix] = await scoresOf(name, opts, mix.general, [mix.general, mix.sentences]);
      const [m, sd] = meanStd(onGeneral as Float64Array);
      (onMix as Float64Array).forEach((v, i) => (expected[i] = (expected[i] as number) + (v - m) / sd));
    }
    // Bit for bit: the one-hash path sums the same terms in the same order.
    expect(Array.from(ens as Float64Array)).toEqual(Array.from(expected));
  });

  it('other components can be named (components=dsir+moore-lewis), each fitted as its own method', async () => {
    const mix = smallMix();
    const json = await tadpoleSelector.fit({ task: mix.task, general: mix.general, seed: SEED, options: { detector: 'ensemble', components: 'dsir+moore-lewis' } });
    expect((json.state.parts as { name: string; selector: { method: string } }[]).map((p) => [p.name, p.selector.method])).toEqual([
      ['dsir', 'dsir'],
      ['moore-lewis', 'moore-lewis'],
    ]);
  });

  it('without a general sample task-knn still prefers the task domain', async () => {
    const mix = smallMix();
    const json = await tadpoleSelector.fit({ task: mix.task, general: [], seed: SEED, options: { detector: 'task-knn' } });
    expect(json.params.detector).toBe('task-knn');
    const [scores] = await scoresOf('tadpole', { detector: 'task-knn' }, [], [mix.sentences]);
    expect(inDomainShareOfKept(scores as Float64Array, mix.inDomain)).toBeGreaterThan(0.65); // random keeps ~0.5 here
  });

  it('an explicit ensemble without a general sample is a usage error that names --general', async () => {
    await expect(tadpoleSelector.fit({ task: smallMix().task, general: [], seed: SEED, options: { detector: 'ensemble' } })).rejects.toThrow(/general/);
  });
});

describe('parseComponents', () => {
  it('splits on commas and pluses, trims, and refuses an empty list or a nested ensemble', () => {
    expect(parseComponents(' moore-lewis, distance+knn-ratio ')).toEqual(['moore-lewis', 'distance', 'knn-ratio']);
    expect(() => parseComponents(',')).toThrow(/no components/);
    expect(() => parseComponents('ensemble,dsir')).toThrow(/cannot be an ensemble/);
  });
});
