import { describe, expect, it } from 'vitest';
import { CodeUnitCopy } from '../../src/text/code-units.js';

const unitsOf = (s: string) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

describe('CodeUnitCopy', () => {
  it("copies every UTF-16 code unit, lone surrogates included, as a view of exactly the text's length", () => {
    const copy = new CodeUnitCopy();
    for (const s of ['', 'plain ASCII.', 'Café naïve ÉCOLE', 'emoji 😀 and CJK 漢字', 'lone \ud800 high, lone \udc00 low', 'x'.repeat(10_000)]) {
      const u = copy.of(s);
      expect(u.length).toBe(s.length);
      expect(Array.from(u)).toEqual(unitsOf(s));
      // Past the end reads undefined, as charCodeAt reads NaN: never a stale unit of a longer text.
      expect(u[s.length]).toBeUndefined();
    }
  });

  it('reuses its buffer: a shorter text after a longer one is a view of the shorter only', () => {
    const copy = new CodeUnitCopy();
    const long = copy.of('a much longer text than the next one');
    const short = copy.of('short');
    expect(short.buffer).toBe(long.buffer);
    expect(Array.from(short)).toEqual(unitsOf('short'));
  });
});
