import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { classifierSelector } from '../../src/select/classifier.js';
import { dsirSelector } from '../../src/select/dsir.js';
import { FeatureCache, fitHasher } from '../../src/select/feature-cache.js';
import { FEATURE_SETS, featureHasher, RAW_BUCKETS } from '../../src/select/features.js';
import { scoreFrom } from '../../src/select/raw-ngrams.js';
import { selectorFactory } from '../../src/select/registry.js';
import type { SelectorFactory } from '../../src/select/selector.js';

const TOPIC_A = 'protein kinase binds receptor inhibitor enzyme cell assay dose 12 mg'.split(' ');
const TOPIC_B = 'market shares rose bank profit quarter growth investors 2019 percent'.split(' ');
const COMMON = 'the of and in a to was with for that'.split(' ');

function sentences(words: string[], n: number, seed: number): string[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => Array.from({ length: 6 + rng.int(14) }, () => (rng.int(3) === 0 ? COMMON : words)[rng.int(10)]).join(' ') + '.');
}

/** Longer than the hashers' first ids arrays hold (1,024 ids; 256 in a cached fit hasher): hashing it grows them. */
const LONG = sentences([...TOPIC_A, ...TOPIC_B], 60, 9).join(' ');

const task = sentences(TOPIC_A, 150, 1);
const general = [LONG, ...sentences(TOPIC_B, 150, 2), ...sentences(TOPIC_A, 30, 3)];

describe('FeatureCache', () => {
  it('a fit hasher that takes hashes from the cache gives the ids of a hasher with those buckets, long sentences first', () => {
    for (const features of FEATURE_SETS) {
      for (const buckets of [10_000, 1 << 18, 999, RAW_BUCKETS]) {
        const cache = new FeatureCache();
        const cached = fitHasher(buckets, features, 5, cache);
        const plain = featureHasher(buckets, features, 5);
        // Twice: the second pass reads every sentence from the cache.
        for (const s of [...general, ...general]) {
          const n = cached.hash(s);
          const m = plain.hash(s);
          expect(n).toBe(m);
          expect(Array.from(cached.ids.subarray(0, n))).toEqual(Array.from(plain.ids.subarray(0, m)));
        }
      }
    }
  });

  it('keeps each sentence once per feature set, the same hashes every time', () => {
    const cache = new FeatureCache();
    const view = cache.of('chars-folded', 5);
    const first = view.raw(LONG);
    expect(view.raw(LONG)).toBe(first);
    const fresh = featureHasher(RAW_BUCKETS, 'chars-folded', 5);
    const n = fresh.hash(LONG);
    expect(Array.from(first)).toEqual(Array.from(fresh.ids.subarray(0, n)));
    expect(cache.of('chars-folded', 5)).toBe(view);
    expect(cache.of('words', 5)).not.toBe(view);
  });

  it('classifier and dsir fit the same model with the cache as without, and score the same through it', async () => {
    const cases: [SelectorFactory, Record<string, unknown>][] = [
      [classifierSelector, { rounds: 1, expand: 0.05, features: 'chars-folded' }],
      [classifierSelector, {}],
      [dsirSelector, { features: 'chars-folded', norm: 'mean' }],
      [dsirSelector, {}],
    ];
    for (const [factory, options] of cases) {
      const features = new FeatureCache();
      const plain = await factory.fit({ task, general, seed: 5, options });
      const cached = await factory.fit({ task, general, seed: 5, options, features });
      expect(JSON.stringify(cached)).toBe(JSON.stringify(plain));
      const scorer = await factory.load(plain, { seed: 5, options: {} });
      expect(Array.from(await scoreFrom(scorer, general, features))).toEqual(Array.from(await scorer.score(general)));
    }
  });
});

describe('an ensemble of parts on the same features', () => {
  it('scores a long sentence, first, as the sum of its parts z-scores (hashing grows the ids before they are read)', async () => {
    const ensemble = selectorFactory('tadpole');
    const options = { detector: 'ensemble', components: 'classifier:features=chars-folded+dsir:features=chars-folded' };
    const json = await ensemble.fit({ task, general, seed: 3, options });
    const parts = json.state.parts as { name: string; mean: number; std: number; selector: never }[];
    const probe = [LONG, ...task.slice(0, 5), LONG];
    const expected = new Float64Array(probe.length);
    for (const p of parts) {
      const part = await selectorFactory(p.name.split(':')[0] as string).load(p.selector, { seed: 3, options: {} });
      const s = await part.score(probe);
      s.forEach((v, i) => (expected[i] = (expected[i] as number) + (v - p.mean) / p.std));
    }
    const scorer = await ensemble.load(json, { seed: 3, options: {} });
    expect(Array.from(await scorer.score(probe))).toEqual(Array.from(expected));
    const fresh = await ensemble.load(json, { seed: 3, options: {} });
    expect(Array.from(await scoreFrom(fresh, probe, new FeatureCache()))).toEqual(Array.from(expected));
  });
});
