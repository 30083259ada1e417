import { describe, expect, it } from 'vitest';
import { randomScore, randomSelector } from '../../src/select/random.js';
import { hashBytes, hashRange, hashString } from '../../src/text/ngrams.js';
import { splitSentences } from '../../src/text/sentences.js';

async function scorer(seed: number) {
  return randomSelector.load({ method: 'random', params: { seed }, state: {} }, { seed } as never);
}

/** Documents of every kind the in-place path must hash as the sliced path does. */
const DOCS = [
  'Plain ASCII text. It has two sentences.',
  'Accents here: café au lait. Déjà vu, naïve résumé.',
  'Beyond Latin-1: “curly quotes” and an em dash — here. 中文句子。Emoji 🙂 too.',
  'A lone surrogate \ud800 in the middle. Then more text.',
  `${'Long wrapped line of ASCII prose that goes on. '.repeat(3000)}The end.`,
  'x',
];

describe('random scores sentences read in place', () => {
  it('hashRange and hashBytes give hashString of the slice', () => {
    const s = 'Hello, world. Second sentence!';
    const bytes = Buffer.from(s, 'latin1');
    for (const [a, b] of [[0, s.length], [7, 13], [14, s.length], [3, 3]] as const) {
      expect(hashRange(s, a, b)).toBe(hashString(s.slice(a, b)));
      expect(hashBytes(bytes, a, b)).toBe(hashString(s.slice(a, b)));
      expect(hashRange(s, a, b, 17)).toBe(hashString(s.slice(a, b), 17));
      expect(hashBytes(bytes, a, b, 17)).toBe(hashString(s.slice(a, b), 17));
    }
    // hashBytes takes four bytes a turn: every length's remainder, from every start, and seeds with the top bit set.
    for (let a = 0; a < 5; a++) {
      for (let b = a; b <= s.length; b++) {
        for (const seed of [0, 17, 0x9e3779b9, 2 ** 32 - 1]) expect(hashBytes(bytes, a, b, seed)).toBe(hashString(s.slice(a, b), seed));
      }
    }
  });

  it('scoreSpans gives the scores of the sliced sentences, ASCII or not, over a scratch buffer that grows', async () => {
    for (const seed of [0, 7]) {
      const r = await scorer(seed);
      const spans = DOCS.map((d) => splitSentences(d));
      const sliced = DOCS.flatMap((d, i) => {
        const out: string[] = [];
        for (let j = 0; j < spans[i]!.length; j += 2) out.push(d.slice(spans[i]![j], spans[i]![j + 1]));
        return out;
      });
      const inPlace = await r.scoreSpans!(DOCS, spans);
      expect(Array.from(inPlace)).toEqual(Array.from(await r.score(sliced)));
      expect(Array.from(inPlace)).toEqual(sliced.map((s) => randomScore(seed, s)));
      // Short documents after a long one read the start of a scratch buffer that holds more.
      expect(Array.from(await r.scoreSpans!(DOCS.slice(5), spans.slice(5)))).toEqual(Array.from(inPlace.slice(-1)));
    }
  });
});
