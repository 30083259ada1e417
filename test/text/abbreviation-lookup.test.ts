import { describe, expect, it } from 'vitest';
import { listedAs, LONGEST_LISTED } from '../../src/text/abbreviation-lookup.js';
import { AMBIGUOUS, BEFORE_NUMBER, CASED_AMBIGUOUS, CONTINUE } from '../../src/text/abbreviations.js';

/** The answer the four Sets give, as the splitter asked them before the packed lookup. */
function bySets(word: string): number {
  const lower = word.toLowerCase();
  return (BEFORE_NUMBER.has(lower) ? 1 : 0) | (CONTINUE.has(lower) ? 2 : 0) | (AMBIGUOUS.has(lower) ? 4 : 0)
    | ([...CASED_AMBIGUOUS].some((k) => k.toLowerCase() === lower) ? 8 : 0) | (lower === 'a.m' || lower === 'p.m' ? 16 : 0);
}

describe('listedAs: the abbreviation lists of a word without making a string', () => {
  it('answers as the Sets for every listed word, in every case, and for near misses', () => {
    const words = new Set<string>();
    for (const set of [BEFORE_NUMBER, CONTINUE, AMBIGUOUS, CASED_AMBIGUOUS, ['a.m', 'p.m']]) {
      for (const w of set) {
        words.add(w).add(w.toUpperCase()).add(w.charAt(0).toUpperCase() + w.slice(1));
        words.add(`${w}s`).add(w.slice(1)).add(`x${w}`);
      }
    }
    for (const w of ['', 'I', 'the', 'said', '1987', 'U.S', 'e.g', 'Ph.D', 'N\u00b0', 'n\u00b0', 'Zo\u00eb', '\u212ag', 'm\u00e9d', 'a-b', 'abcdefg', 'inc.', 'INC']) words.add(w);
    for (const w of words) {
      const text = ` (${w}. `;
      const from = 2;
      expect(listedAs(text, from, from + w.length), JSON.stringify(w)).toBe(bySets(w));
    }
  });

  it('covers every listed word length', () => {
    expect(LONGEST_LISTED).toBe(Math.max(...[...BEFORE_NUMBER, ...CONTINUE, ...AMBIGUOUS, ...CASED_AMBIGUOUS].map((w) => w.length)));
  });
});
