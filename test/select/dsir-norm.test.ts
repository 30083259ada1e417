import { describe, expect, it } from 'vitest';
import { featureHasher } from '../../src/select/features.js';
import { selectorFactory } from '../../src/select/registry.js';
import { HAVE_SHARED, smallMix } from './fixture.js';

describe.skipIf(!HAVE_SHARED)('dsir norm=mean (per n-gram) on real text (ChemProt task, bio vs BBC news)', () => {
  it('scores each sentence by its summed log ratio over its n-gram count, and records norm in the model', async () => {
    const mix = smallMix();
    const f = selectorFactory('dsir');
    const options = { features: 'chars-folded' };
    const sumJson = await f.fit({ task: mix.task, general: mix.general, seed: 1, options });
    const meanJson = await f.fit({ task: mix.task, general: mix.general, seed: 1, options: { ...options, norm: 'mean' } });
    // The paper's sum writes no norm, so models from before the option read the same.
    expect(sumJson.params.norm).toBeUndefined();
    expect(meanJson.params.norm).toBe('mean');
    const sum = await (await f.load(sumJson, { seed: 1, options: {} })).score(mix.sentences);
    const mean = await (await f.load(JSON.parse(JSON.stringify(meanJson)) as typeof meanJson, { seed: 1, options: {} })).score(mix.sentences);
    const hasher = featureHasher(1 << 16, 'chars-folded');
    let compared = 0;
    mix.sentences.forEach((s, i) => {
      const n = hasher.hash(s);
      if (n === 0) return;
      expect(mean[i]).toBeCloseTo(sum[i]! / n, 9);
      compared++;
    });
    expect(compared).toBeGreaterThan(300);
  });

  it('a sentence repeated twice scores about as the sentence alone per n-gram, and twice as far summed', async () => {
    const mix = smallMix();
    const f = selectorFactory('dsir');
    const fit = async (norm: string) => f.load(await f.fit({ task: mix.task, general: mix.general, seed: 1, options: { features: 'chars-folded', norm } }), { seed: 1, options: {} });
    const s = mix.task[0]!;
    const [sumOne, sumTwo] = await (await fit('sum')).score([s, `${s} ${s}`]);
    const [meanOne, meanTwo] = await (await fit('mean')).score([s, `${s} ${s}`]);
    // Only the bigram across the join is new, so the summed score nearly doubles.
    expect(Math.abs(sumTwo! / sumOne! - 2)).toBeLessThan(0.1);
    expect(Math.abs(meanTwo! / meanOne! - 1)).toBeLessThan(0.05);
  });

  it('refuses a norm it does not know, naming the choices', async () => {
    const mix = smallMix();
    await expect(selectorFactory('dsir').fit({ task: mix.task, general: mix.general, seed: 1, options: { norm: 'max' } })).rejects.toThrow(/sum.*mean|mean.*sum/);
  });
});
