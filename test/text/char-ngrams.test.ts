import { describe, expect, it } from 'vitest';
import { CharNgramHasher } from '../../src/text/char-ngrams.js';
import { NgramHasher } from '../../src/text/fast-ngrams.js';

const B = 1 << 20;

function ids(s: string, opts: { n?: number; foldDigits?: boolean } = {}): number[] {
  const h = new CharNgramHasher(B, opts);
  return Array.from(h.ids.subarray(0, h.hash(s)));
}

/** The ids of `s` that are not its word 1-2-grams (NgramHasher's ids): its subwords. */
function subwords(s: string, opts: { n?: number; foldDigits?: boolean } = {}): number[] {
  const w = new NgramHasher(B);
  const words = new Set(w.ids.subarray(0, w.hash(s)));
  return ids(s, opts).filter((id) => !words.has(id));
}

const shared = (a: number[], b: number[]) => a.filter((x) => b.includes(x)).length;

describe('CharNgramHasher', () => {
  it("holds NgramHasher's word 1-2-gram ids plus one id per n-unit window of each padded word", () => {
    for (const s of ['Operating profit rose', 'a b', 'Café naïve ÉCOLE 3.5%', 'x']) {
      const w = new NgramHasher(B);
      const words = Array.from(w.ids.subarray(0, w.hash(s)));
      const all = ids(s, { n: 5 });
      for (const id of words) expect(all).toContain(id);
      // "<word>" has len + 2 units: max(1, len + 2 - 5 + 1) windows of 5.
      const tokens = s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      expect(all.length).toBe(words.length + tokens.reduce((a, t) => a + Math.max(1, t.length - 2), 0));
    }
    expect(ids('', {})).toEqual([]);
    expect(ids(' , ; ', {})).toEqual([]);
  });
  it('gives the same subword ids at any offset in a word, whatever the case', () => {
    // "profit", "Profits", "unprofitable" share <prof/profi/rofit (5-grams) at different offsets.
    expect(shared(subwords('profit', { n: 5 }), subwords('Profits', { n: 5 }))).toBe(3);
    expect(shared(subwords('profit', { n: 5 }), subwords('unprofitable', { n: 5 }))).toBe(2);
    expect(shared(subwords('football', { n: 5 }), subwords('profit', { n: 5 }))).toBe(0);
    expect(ids('PROFIT Rose', { n: 4 })).toEqual(ids('profit rose', { n: 4 }));
  });
  it('folds digits only when asked: numbers of one shape share their subwords', () => {
    expect(subwords('EUR131m', { foldDigits: true })).toEqual(subwords('EUR762m', { foldDigits: true }));
    expect(shared(subwords('EUR131m'), subwords('EUR762m'))).toBe(1); // only "<eur"
  });
  it('keeps the word order of ids deterministic and grows for long words and sentences', () => {
    const h = new CharNgramHasher(1000, { n: 4 });
    const long = 'x'.repeat(300);
    expect(h.hash(long)).toBe(1 + (302 - 4 + 1));
    const many = Array.from({ length: 3000 }, (_, i) => `w${i % 10}`).join(' ');
    const n = h.hash(many);
    expect(n).toBe(3000 + 2999 + 3000);
    for (const id of h.ids.subarray(0, n)) expect(id).toBeLessThan(1000);
    expect(ids('one two three', { n: 4 })).toEqual(ids('one two three', { n: 4 }));
  });
});

describe('hashUnits: a sentence hashed in place in its document', () => {
  it('gives the ids of the sliced sentence, for both hashers, whatever the offsets', async () => {
    const { CodeUnitCopy } = await import('../../src/text/code-units.js');
    const doc = `Profit rose 3.5% to EUR131m. Café naïve ÉCOLE 😀 漢字 \ud800 end. ${'x'.repeat(200)} and ${'word '.repeat(600)}.`;
    const units = new CodeUnitCopy().of(doc);
    for (const make of [() => new CharNgramHasher(B, { n: 5, foldDigits: true }), () => new CharNgramHasher(2 ** 32, { n: 4 }), () => new NgramHasher(B)]) {
      const inPlace = make();
      const sliced = make();
      for (const [from, to] of [[0, 28], [29, 60], [3, 4], [10, 10], [60, doc.length], [0, doc.length]] as const) {
        const n = inPlace.hashUnits(units, from, to);
        const m = sliced.hash(doc.slice(from, to));
        expect(Array.from(inPlace.ids.subarray(0, n))).toEqual(Array.from(sliced.ids.subarray(0, m)));
      }
    }
  });
});
