import { describe, expect, it } from 'vitest';
import { selectorFactory } from '../../src/select/registry.js';

/**
 * A fresh scorer's first very long sentence (more hashed features than its hasher's first
 * buffer holds) must score like any other: a scorer that read the hasher's ids array before
 * hashing got the outgrown array for that sentence, and a NaN score broke a whole eval's
 * calibration (the bio suite mix fell from 66% to 33% for DSIR).
 */
const task = ['The protein binds the receptor in mice.', 'Kinase inhibitors reduce tumour growth in vitro.', 'Cells were treated with the compound.'];
const general = ['The match ended in a draw.', 'Stocks fell sharply on Monday.', 'The receptor was cloned last year.', 'Fans cheered the team.'];
const long = Array.from({ length: 3000 }, (_, i) => `word${i % 500} receptor${i % 7}`).join(' ') + '.';

describe('n-gram scorers on a first sentence longer than their hash buffer', () => {
  for (const [method, options] of [['dsir', {}], ['dsir', { features: 'chars-folded' }], ['classifier', {}], ['classifier', { features: 'words' }]] as const) {
    it(`${method} ${JSON.stringify(options)}: finite, and the same as once the buffer has grown`, async () => {
      const f = selectorFactory(method);
      const json = await f.fit({ task, general, seed: 1, options: { ...options, rounds: 0 } });
      const scorer = await f.load(json, { seed: 1, options: {} });
      const first = (await scorer.score([long, 'A short one.']))[0]!;
      const again = (await scorer.score([long]))[0]!;
      expect(Number.isFinite(first)).toBe(true);
      expect(first).toBe(again);
    });
  }
});
