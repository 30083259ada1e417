/**
 * Segment scores in their document's context.
 *
 * The paper scores a segment by the plain mean of its sentence scores. Two things make that
 * noisy, and both are fixed here:
 * - A short sentence (a headline, a signature, "Thanks.") carries little evidence, yet counts
 *   as much as a long one. Each sentence is weighted by its length in characters (capped), an
 *   inverse-variance weight: a sentence's score sums the evidence of its n-grams.
 * - A document's last, short segment, and a 1-3 sentence document, are scored by very few
 *   sentences, though all of a document's sentences nearly always come from one source.
 *   Each segment's mean is shrunk toward its document's mean, which counts as `context`
 *   sentences of the document's average length:
 *   (w_seg * mean_seg + context * w_avg * mean_doc) / (w_seg + context * w_avg).
 *   A single-segment document keeps its own (length-weighted) mean.
 *
 * Both together raised the selection suite's worst mix, where either alone did not
 * (docs/research.md, "Document context").
 */

/**
 * The document's mean counts as 15 average sentences: one full segment (the paper's γ), on a
 * plateau where 5 to 50 all do about as well (docs/research.md, "Document context").
 */
export const DEFAULT_DOC_CONTEXT = 15;

/**
 * Characters past which a sentence weighs no more: a run-on "sentence" (a table, a list the
 * splitter could not cut) would otherwise outweigh the rest of its segment.
 */
export const SENTENCE_WEIGHT_CAP = 400;

/** A sentence's weight: its length in UTF-16 code units, at least 1, at most the cap. */
export function sentenceWeight(length: number): number {
  return Math.max(1, Math.min(SENTENCE_WEIGHT_CAP, length));
}

/**
 * Scores of one document's segments. `scores[from + i]` is the score of the document's
 * sentence i, `spans` its flat [start, end] sentence offsets, `bounds` its flat
 * [firstSentence, count] segments (segmentBounds). `context` 0 gives the paper's plain mean.
 */
export function documentSegmentScores(scores: ArrayLike<number>, from: number, spans: ArrayLike<number>, bounds: ArrayLike<number>, context: number): Float64Array {
  const n = bounds.length / 2;
  const out = new Float64Array(n);
  if (context <= 0) {
    for (let s = 0; s < n; s++) {
      const first = bounds[2 * s] as number;
      const count = bounds[2 * s + 1] as number;
      let sum = 0;
      for (let i = 0; i < count; i++) sum += scores[from + first + i] as number;
      out[s] = sum / count;
    }
    return out;
  }
  const segWeight = new Float64Array(n);
  let docSum = 0;
  let docWeight = 0;
  let sentences = 0;
  for (let s = 0; s < n; s++) {
    const first = bounds[2 * s] as number;
    const count = bounds[2 * s + 1] as number;
    let sum = 0;
    let weight = 0;
    for (let i = first; i < first + count; i++) {
      const w = sentenceWeight((spans[2 * i + 1] as number) - (spans[2 * i] as number));
      sum += w * (scores[from + i] as number);
      weight += w;
    }
    out[s] = sum / weight;
    segWeight[s] = weight;
    docSum += sum;
    docWeight += weight;
    sentences += count;
  }
  if (n === 1) return out;
  const docMean = docSum / docWeight;
  const prior = (context * docWeight) / sentences;
  for (let s = 0; s < n; s++) out[s] = ((segWeight[s] as number) * (out[s] as number) + prior * docMean) / ((segWeight[s] as number) + prior);
  return out;
}
