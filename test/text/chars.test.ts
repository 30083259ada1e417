import { describe, expect, it } from 'vitest';
import { isBullet, isCloser, isLower, isOpener, isSpace, isTerminator, isUpper } from '../../src/text/chars.js';
import {
  referenceIsBullet, referenceIsCloser, referenceIsLower, referenceIsOpener, referenceIsSpace,
  referenceIsTerminator, referenceIsUpper,
} from './reference-splitter.js';

// chars.ts now answers from tables (built from lists, case cached lazily); the answers must
// be those of the comparison chains they replaced, for every UTF-16 code unit and for the -1
// and NaN the splitter passes for positions outside the text.
describe('character classes: the same answers as the definitions they replaced', () => {
  const pairs: Array<[string, (c: number) => boolean, (c: number) => boolean]> = [
    ['isSpace', isSpace, referenceIsSpace],
    ['isTerminator', isTerminator, referenceIsTerminator],
    ['isCloser', isCloser, referenceIsCloser],
    ['isOpener', isOpener, referenceIsOpener],
    ['isBullet', isBullet, referenceIsBullet],
    ['isUpper', isUpper, referenceIsUpper],
    ['isLower', isLower, referenceIsLower],
  ];
  for (const [name, now, before] of pairs) {
    it(`${name} for every code unit, -1 and NaN`, () => {
      const differ: number[] = [];
      for (const c of [-1, Number.NaN]) if (now(c) !== before(c)) differ.push(c);
      // Twice over the range: the case of non-ASCII units is computed on first use, then cached.
      for (let pass = 0; pass < 2; pass++) {
        for (let c = 0; c < 65536; c++) if (now(c) !== before(c)) differ.push(c);
      }
      expect(differ).toEqual([]);
    });
  }
  it("JavaScript's own whitespace is exactly isSpace", () => {
    const differ: number[] = [];
    for (let c = 0; c < 65536; c++) if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });
});
