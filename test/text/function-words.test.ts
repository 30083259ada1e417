import { describe, expect, it } from 'vitest';
import { CharNgramHasher } from '../../src/text/char-ngrams.js';
import { NgramHasher } from '../../src/text/fast-ngrams.js';
import { FUNCTION_WORD_HASHES, FUNCTION_WORDS, functionWordShare, wordHash } from '../../src/text/function-words.js';

const B = 1 << 20;
function ids(s: string, skip?: ReadonlySet<number>): number[] {
  const h = new CharNgramHasher(B, { n: 5, foldDigits: true, ...(skip ? { skip } : {}) });
  return Array.from(h.ids.subarray(0, h.hash(s)));
}

describe('function words', () => {
  it("hash as the n-gram hashers hash a word, case-blind", () => {
    const h = new NgramHasher(2 ** 32);
    for (const w of ['the', 'The', 'THEIR', 'ourselves']) {
      h.hash(w);
      expect(h.ids[0]).toBe(wordHash(w));
    }
    expect(FUNCTION_WORD_HASHES.size).toBe(new Set(FUNCTION_WORDS).size);
    expect(FUNCTION_WORD_HASHES.has(wordHash('The'))).toBe(true);
    expect(FUNCTION_WORD_HASHES.has(wordHash('profit'))).toBe(false);
  });

  it('left out by the subword hasher: no unigram, no subwords, and the bigram joins the words around them', () => {
    const skip = FUNCTION_WORD_HASHES;
    expect(ids('the Cup final of the season', skip)).toEqual(ids('Cup final season'));
    expect(ids('Injured Heskey to miss England friendly', skip)).toEqual(ids('Injured Heskey miss England friendly'));
    expect(ids('of the', skip)).toEqual([]);
    // Without the set nothing changes.
    expect(ids('the Cup final')).not.toEqual(ids('Cup final'));
  });

  it('share of the word tokens that are function words', () => {
    expect(functionWordShare(['The cat sat on the mat.'])).toBeCloseTo(3 / 6);
    expect(functionWordShare(['Injured Heskey to miss England friendly', 'Dutch cyclist defends Olympic gold'])).toBeCloseTo(1 / 11);
    expect(functionWordShare([])).toBe(0);
    expect(functionWordShare(['...', '42'])).toBe(0);
  });
});
