import { describe, expect, it } from 'vitest';
import { selectorFactory } from '../../src/select/registry.js';
import type { SentenceScorer } from '../../src/select/selector.js';
import { splitSentences } from '../../src/text/sentences.js';

/**
 * The n-gram scorers read a batch's sentences in place (scoreSpans: each document's code
 * units copied once, every sentence hashed from the copy) and must give the scores of the
 * sliced sentences bit for bit, or a run's kept text would depend on the path.
 */
const task = ['The protein binds the receptor in mice.', 'Kinase inhibitors reduce tumour growth in vitro.', 'Cells were treated with 25 mg of the compound.', 'IL-6 levels rose in 12 of 40 patients.'];
const general = ['The match ended in a draw.', 'Stocks fell sharply on Monday.', 'The receptor was cloned last year.', 'Fans cheered the team.', 'Profits rose 3.5% to EUR131m.', 'The café reopened.'];
const longWord = 'pneumono' + 'ultramicroscopic'.repeat(8) + 'silicovolcanoconiosis';
const docs = [
  'Mice were dosed daily. The receptor bound 3.5 mg/kg of it! Did it work?',
  'Café naïve ÉCOLE résumé. Emoji 😀 and CJK 漢字 too. A lone \ud800 surrogate here.',
  `A word of ${longWord.length} letters: ${longWord}. Then a short one.`,
  Array.from({ length: 3000 }, (_, i) => `word${i % 500} receptor${i % 7}`).join(' ') + '. After the long one.',
  '',
  'One sentence without a stop',
];

async function fitted(method: string, options: Record<string, unknown>): Promise<SentenceScorer> {
  const f = selectorFactory(method);
  const json = await f.fit({ task, general, seed: 3, options });
  return f.load(json, { seed: 3, options: {} });
}

describe('scoreSpans: sentences read in place score as the sliced sentences', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['contrast', {}],
    ['classifier', { rounds: 0 }],
    ['classifier', { rounds: 0, features: 'words' }],
    ['dsir', { features: 'chars-folded', norm: 'mean' }],
    ['dsir', {}],
    // The style hasher reads no code units in place: its scoreSpans slices.
    ['classifier', { rounds: 0, features: 'style' }],
  ];
  for (const [method, options] of cases) {
    it(`${method} ${JSON.stringify(options)}`, async () => {
      const scorer = await fitted(method, options);
      expect(scorer.scoreSpans).toBeDefined();
      const spans = docs.map((d) => splitSentences(d));
      const sliced = docs.flatMap((d, i) => {
        const s = spans[i]!;
        return Array.from({ length: s.length / 2 }, (_, j) => d.slice(s[2 * j], s[2 * j + 1]));
      });
      // Twice in place: the second run hashes with buffers grown by the long sentence and word.
      const inPlace = await scorer.scoreSpans!(docs, spans);
      const again = await scorer.scoreSpans!(docs, spans);
      const expected = await scorer.score(sliced);
      expect(sliced.length).toBeGreaterThan(8);
      expect(Array.from(inPlace)).toEqual(Array.from(expected));
      expect(Array.from(again)).toEqual(Array.from(expected));
      expect(inPlace.every((v) => Number.isFinite(v))).toBe(true);
      await scorer.dispose();
    });
  }
});
