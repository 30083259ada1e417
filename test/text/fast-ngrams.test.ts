import { describe, expect, it } from 'vitest';
import { FEATURE_SETS, featureHasher, RAW_BUCKETS } from '../../src/select/features.js';
import { NgramHasher } from '../../src/text/fast-ngrams.js';
import { bucketByInverse, bucketMask, bucketOf, hashedNgrams, tokenize } from '../../src/text/ngrams.js';
import { Rng } from '../../src/core/rng.js';
import { sharedDir } from '../../src/core/shared.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';

const sorted = (a: ArrayLike<number>) => Array.from(a).sort((x, y) => x - y);

function fast(s: string, buckets: number): number[] {
  const h = new NgramHasher(buckets);
  const n = h.hash(s);
  return sorted(h.ids.subarray(0, n));
}

describe('bucketOf', () => {
  it('is u32 % buckets exactly: random u32s, the edges of the range and values beside every multiple', () => {
    const rng = new Rng(11);
    const buckets = [1, 2, 7, 10000, 1 << 18, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32];
    for (const b of buckets) {
      const xs = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, b - 1, b, b + 1];
      for (let i = 0; i < 2000; i++) xs.push(rng.int(2 ** 32));
      for (let q = 1; q < 2 ** 32 / b && q < 1e9; q = q * 3 + 1) xs.push(q * b - 1, q * b, q * b + 1);
      for (const x of xs.filter((v) => v >= 0 && v < 2 ** 32)) {
        const want = Number(BigInt(x) % BigInt(b));
        expect(bucketOf(x, b)).toBe(want);
        expect(bucketByInverse(x, b, 1 / b)).toBe(want);
        const mask = bucketMask(b);
        if (mask >= 0) expect(x & mask).toBe(want);
      }
    }
  });
  it('bucketMask: a mask for powers of two up to 2^31, -1 for other counts (2^32 included: its mask is not an int32)', () => {
    expect([1, 2, 1 << 18, 2 ** 31].map(bucketMask)).toEqual([0, 1, (1 << 18) - 1, 2 ** 31 - 1]);
    expect([3, 10000, 2 ** 31 - 1, 2 ** 32, 0, 0.5].map(bucketMask)).toEqual([-1, -1, -1, -1, -1, -1]);
  });
});

describe('NgramHasher', () => {
  it('gives the same bucket multiset as tokenize + hashedNgrams on punctuation, digits, accents and case', () => {
    for (const s of ['Hello, World!', '( Collins , 1997 ) showed IL-2 in T-cells.', 'Café naïve ÉCOLE 3.5%', '', '   ', 'one', 'Ünïcödé — mixed: a1b2 c3!']) {
      expect(fast(s, 10000)).toEqual(sorted(hashedNgrams(tokenize(s), 10000, 2)));
    }
  });
  it('a hasher with RAW_BUCKETS gives unreduced hashes: raw % buckets is the id of a hasher with buckets, for every feature set', () => {
    const s = '( Collins , 1997 ) showed IL-2 in T-cells, and Café naïve ÉCOLE 3.5% too, EUR131m.';
    for (const features of FEATURE_SETS) {
      const raw = featureHasher(RAW_BUCKETS, features);
      const n = raw.hash(s);
      expect(n).toBeGreaterThan(10);
      for (const buckets of [7, 10000, 1 << 18]) {
        const h = featureHasher(buckets, features);
        const m = h.hash(s);
        expect(Array.from(raw.ids.subarray(0, n), (r) => r % buckets)).toEqual(Array.from(h.ids.subarray(0, m)));
      }
    }
  });
  it('reuses its buffer and grows it for a sentence with more than 1,024 n-grams', () => {
    const h = new NgramHasher(1 << 20);
    const long = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    const n = h.hash(long);
    expect(n).toBe(3000 + 2999);
    expect(sorted(h.ids.subarray(0, n))).toEqual(sorted(hashedNgrams(tokenize(long), 1 << 20, 2)));
    expect(h.hash('a b')).toBe(3);
  });
  it.skipIf(!sharedDir())('matches the reference on real text (ChemProt, BBC news)', () => {
    const texts = [...chemprotSentences(300), ...corpusRecords('news-bbc/docs.jsonl.gz', 30).map((r) => String(r.text))];
    for (const s of texts) expect(fast(s, 65536)).toEqual(sorted(hashedNgrams(tokenize(s), 65536, 2)));
  });
});
