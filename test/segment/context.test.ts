import { describe, expect, it } from 'vitest';
import { DEFAULT_DOC_CONTEXT, documentSegmentScores, SENTENCE_WEIGHT_CAP, sentenceWeight } from '../../src/segment/context.js';
import { segmentBounds } from '../../src/segment/segments.js';

/** Flat [start, end] spans of sentences with these lengths, one space apart. */
function spansOf(lengths: number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const n of lengths) {
    out.push(at, at + n);
    at += n + 1;
  }
  return out;
}

describe('documentSegmentScores', () => {
  it('context 0 is the paper plain mean of each segment, whatever the lengths', () => {
    const scores = [9, 9, 1, 2, 3, 4, 10];
    const spans = spansOf([5, 300, 20, 20, 20, 1, 80]);
    // The document's sentences start at index 2 of the batch's scores.
    const got = documentSegmentScores(scores, 2, spans.slice(4), segmentBounds(5, 2), 0);
    expect(Array.from(got)).toEqual([1.5, 3.5, 10]);
  });

  it('a one-segment document gets its length-weighted mean: a short sentence weighs little', () => {
    const got = documentSegmentScores([0, 10], 0, spansOf([10, 90]), segmentBounds(2, 15), DEFAULT_DOC_CONTEXT);
    expect(got[0]).toBeCloseTo((10 * 0 + 90 * 10) / 100, 12);
  });

  it('shrinks each segment toward the document mean by `context` sentences of average length', () => {
    // Two segments of 2 sentences, every sentence 50 characters: weights are equal, so the
    // means are plain ones and the prior is `context` sentences.
    const scores = [0, 0, 4, 4];
    const got = documentSegmentScores(scores, 0, spansOf([50, 50, 50, 50]), segmentBounds(4, 2), 2);
    const docMean = 2;
    expect(got[0]).toBeCloseTo((2 * 0 + 2 * docMean) / 4, 12);
    expect(got[1]).toBeCloseTo((2 * 4 + 2 * docMean) / 4, 12);
  });

  it("a document's short last segment leans on the document more than a full one", () => {
    // 15 sentences scoring 0, then one sentence scoring 10 alone in the last segment.
    const scores = [...Array.from({ length: 15 }, () => 0), 10];
    const got = documentSegmentScores(scores, 0, spansOf(Array.from({ length: 16 }, () => 60)), segmentBounds(16, 15), DEFAULT_DOC_CONTEXT);
    const docMean = 10 / 16;
    // Plain means would be 0 and 10; the lone sentence is pulled nearly all the way.
    expect(got[1]).toBeCloseTo((1 * 10 + 15 * docMean) / 16, 12);
    expect(got[0]).toBeCloseTo((15 * 0 + 15 * docMean) / 30, 12);
  });

  it('caps a sentence weight, and gives an empty sentence weight 1', () => {
    expect(sentenceWeight(5000)).toBe(SENTENCE_WEIGHT_CAP);
    expect(sentenceWeight(0)).toBe(1);
    const got = documentSegmentScores([1, 0], 0, spansOf([SENTENCE_WEIGHT_CAP, 10_000]), segmentBounds(2, 15), DEFAULT_DOC_CONTEXT);
    expect(got[0]).toBeCloseTo(0.5, 12);
  });

  it('keeps the order of segments of equal content and gives finite scores for any context', () => {
    const scores = [1, 2, 3, 4, 5, 6, 7];
    for (const k of [0, 0.5, 15, 1e9]) {
      const got = documentSegmentScores(scores, 0, spansOf([10, 20, 30, 40, 50, 60, 70]), segmentBounds(7, 3), k);
      expect(got.length).toBe(3);
      for (const x of got) expect(Number.isFinite(x)).toBe(true);
      expect(got[0]).toBeLessThanOrEqual(got[1]!);
      expect(got[1]).toBeLessThanOrEqual(got[2]!);
    }
  });
});
