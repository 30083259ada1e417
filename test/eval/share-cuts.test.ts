import { describe, expect, it } from 'vitest';
import { selectKeptInMemory } from '../../src/cut/exact.js';
import { cutsAtShare, keptCharShare, type ScoredSegments } from '../../src/eval/share-cuts.js';

/**
 * Eight one-sentence segments, the two in-domain ones (label 1) scored lowest: the in-domain
 * share of the sentences is 2/8; in-domain bytes 100 + 300, out of domain 50 each.
 */
function toy(): ScoredSegments {
  return {
    scores: Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]),
    weights: new Float64Array(8).fill(1),
    labels: Uint8Array.from([1, 1, 0, 0, 0, 0, 0, 0]),
    bytes: Float64Array.from([100, 300, 50, 50, 50, 50, 50, 50]),
  };
}

describe('cutsAtShare', () => {
  it('cuts one scoring at 0.5x, 1x and 2x the share (of the sentences) and measures precision and recall in characters', () => {
    const keeps: number[] = [];
    const cuts = cutsAtShare(toy(), 1, 0.25, (s, w, keep) => (keeps.push(keep), selectKeptInMemory(s, w, keep)), undefined, 'sentences');
    expect(keeps).toEqual([0.125, 0.25, 0.5]);
    expect(cuts.map((c) => c.factor)).toEqual([0.5, 1, 2]);
    // 0.5x: the lowest segment only, in domain, 100 of the 400 in-domain bytes.
    expect(cuts[0]).toEqual({ factor: 0.5, keep: 0.125, keptText: 100 / 700, precisionChars: 1, recallChars: 0.25 });
    // 1x: both in-domain segments: a perfect cut.
    expect(cuts[1]).toEqual({ factor: 1, keep: 0.25, keptText: 400 / 700, precisionChars: 1, recallChars: 1 });
    // 2x: the two in-domain segments and two others: 400 of 500 bytes.
    expect(cuts[2]).toEqual({ factor: 2, keep: 0.5, keptText: 500 / 700, precisionChars: 0.8, recallChars: 1 });
  });
  it('the in-domain share is what is scored: a bad order scores low at every keep', () => {
    const reversed = { ...toy(), scores: Float64Array.from([0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]) };
    const cuts = cutsAtShare(reversed, 1, 0.25, selectKeptInMemory, undefined, 'sentences');
    expect(cuts.map((c) => [c.precisionChars, c.recallChars])).toEqual([[0, 0], [0, 0], [0, 0]]);
  });
  it('keeps at most everything: 2x a share over one half keeps all, precision the in-domain share of the characters, recall 1', () => {
    const cuts = cutsAtShare(toy(), 1, 0.6, selectKeptInMemory, undefined, 'sentences');
    expect(cuts[2]).toEqual({ factor: 2, keep: 1, keptText: 1, precisionChars: 400 / 700, recallChars: 1 });
  });
  it('by bytes (the default): the share is of the bytes, and each cut keeps that share of the text', () => {
    // In-domain bytes 400 of 700: 0.5x keeps 200 bytes (the 100-byte segment, then 300 would overshoot
    // by more than half of it), 1x both in-domain segments, 2x everything.
    const cuts = cutsAtShare(toy(), 1, 400 / 700, selectKeptInMemory);
    expect(cuts.map((c) => c.keptText)).toEqual([100 / 700, 400 / 700, 1]);
    expect(cuts.map((c) => c.precisionChars)).toEqual([1, 1, 400 / 700]);
    // By sentences the same 4/7 keeps five of the eight segments: 100 + 300 + 3 x 50 bytes.
    expect(cutsAtShare(toy(), 1, 400 / 700, selectKeptInMemory, undefined, 'sentences')[1]!.keptText).toBe(550 / 700);
  });
  it('keptCharShare: the in-domain share of the kept characters, 0 when nothing is kept', () => {
    expect(keptCharShare(toy(), Uint8Array.from([1, 0, 1, 0, 0, 0, 0, 0]), 1)).toBe(100 / 150);
    expect(keptCharShare(toy(), new Uint8Array(8), 1)).toBe(0);
  });
});
