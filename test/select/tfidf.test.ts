import { describe, expect, it } from 'vitest';
import { fitL2Logistic, tfidfSelector, tfidfVocabulary } from '../../src/select/tfidf.js';
import { tfidfRows } from '../../src/select/sparse.js';
import { b64ToF32 } from '../../src/core/b64.js';
import { HAVE_SHARED, inDomainShareOfKept, smallMix } from './fixture.js';

describe('tfidf vocabulary and rows', () => {
  it('keeps the n-grams in minDf sentences, with sklearn\'s smooth idf', () => {
    const { buckets, idf } = tfidfVocabulary(['red fox', 'red dog', 'blue cat'], 2);
    expect(buckets.length).toBe(1); // "red" only
    expect(idf[0]).toBeCloseTo(Math.log(4 / 3) + 1, 12);
    expect(tfidfVocabulary(['red fox', 'red dog', 'blue cat'], 1).buckets.length).toBe(8); // 5 words + 3 pairs
  });
});

describe('fitL2Logistic', () => {
  it('reaches the optimum of 0.5|w|^2 + C sum log-loss (gradient ~ 0) and separates the classes', () => {
    const pos = Array.from({ length: 40 }, (_, i) => `protein kinase binds receptor ${i % 5} in cells`);
    const neg = Array.from({ length: 60 }, (_, i) => `the match ended ${i % 7} goals to nil in the rain`);
    const sentences = [...pos, ...neg];
    const { buckets, idf } = tfidfVocabulary(sentences, 2);
    const column = new Map<number, number>();
    buckets.forEach((b, c) => column.set(b, c));
    const X = tfidfRows(sentences, column, idf);
    const labels = Uint8Array.from(sentences, (_, i) => (i < pos.length ? 1 : 0));
    const C = 1;
    const fit = fitL2Logistic(X, buckets.length, labels, { C, maxIter: 200, tol: 1e-8 });
    // Gradient at the fit, computed here from scratch.
    const g = Float64Array.from(fit.weights);
    let gb = 0;
    for (let r = 0; r < X.rows; r++) {
      let z = fit.bias;
      for (let k = X.ptr[r]!; k < X.ptr[r + 1]!; k++) z += fit.weights[X.idx[k]!]! * X.val[k]!;
      const y = labels[r] === 1 ? 1 : -1;
      const d = (C * -y) / (1 + Math.exp(y * z));
      for (let k = X.ptr[r]!; k < X.ptr[r + 1]!; k++) g[X.idx[k]!] = g[X.idx[k]!]! + d * X.val[k]!;
      gb += d;
      expect(Math.sign(z)).toBe(y);
    }
    expect(Math.max(...Array.from(g, Math.abs), Math.abs(gb))).toBeLessThan(1e-6);
  });
});

describe.skipIf(!HAVE_SHARED)('tfidf on a small real mix (ChemProt task; bio vs news)', () => {
  it('ranks held-out task-domain sentences above general ones, deterministically, and round-trips through JSON', async () => {
    const mix = smallMix();
    const fit = (seed: number) => tfidfSelector.fit({ task: mix.task, general: mix.general, seed, options: {} });
    const json = await fit(3);
    expect(await fit(3)).toEqual(json);
    expect(await fit(4)).toEqual(json); // a full-batch convex fit: the seed changes nothing
    const scorer = await tfidfSelector.load(json, { seed: 3, options: {} });
    const scores = await scorer.score(mix.sentences);
    expect(inDomainShareOfKept(scores, mix.inDomain, 0.2)).toBeGreaterThan(0.85);
    expect(inDomainShareOfKept(scores, mix.inDomain, 0.4)).toBeGreaterThan(0.7);
    // State is plain JSON, compact (a column per n-gram kept, not the hash table).
    const text = JSON.stringify(json);
    expect(text.length).toBeLessThan(400_000);
    const again = await tfidfSelector.load(JSON.parse(text), { seed: 3, options: {} });
    expect(Array.from(await again.score(mix.sentences))).toEqual(Array.from(scores));
    // Batches score alike, and an empty or unseen sentence scores minus the intercept.
    expect(Array.from(await scorer.score(mix.sentences.slice(0, 7)))).toEqual(Array.from(scores.slice(0, 7)));
    const [empty, unseen] = await scorer.score(['', 'zzqx qqvw']);
    expect(empty).toBe(-(json.state.bias as number));
    expect(unseen).toBe(empty);
    await scorer.dispose();
  });

  it('scores a sentence by minus the logit of its tf-idf row', async () => {
    const mix = smallMix();
    const json = await tfidfSelector.fit({ task: mix.task, general: mix.general, seed: 1, options: { C: 0.5 } });
    expect(json.params).toMatchObject({ minDf: 2, C: 0.5 });
    const scorer = await tfidfSelector.load(json, { seed: 1, options: {} });
    const some = mix.sentences.slice(0, 20);
    const got = await scorer.score(some);
    const { buckets, idf } = tfidfVocabulary([...mix.task, ...mix.general], 2);
    const column = new Map<number, number>();
    buckets.forEach((b, c) => column.set(b, c));
    const X = tfidfRows(some, column, idf);
    const w = b64ToF32(json.state.weights);
    for (let r = 0; r < some.length; r++) {
      let z = json.state.bias as number;
      for (let k = X.ptr[r]!; k < X.ptr[r + 1]!; k++) z += w[X.idx[k]!]! * X.val[k]!;
      expect(got[r]).toBeCloseTo(-z, 4);
    }
  });
});
