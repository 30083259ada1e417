/**
 * Segments: runs of up to `size` consecutive sentences of ONE document (the paper's γ = 15).
 * A document's last, shorter segment is scored by its own mean.
 */
export interface SegmentRecord {
  /** Global ordinal in input order (the tie-breaker of the cut). */
  id: number;
  /** Document ordinal. */
  doc: number;
  /** Index of the segment's first sentence within its document. */
  firstSentence: number;
  sentences: number;
  /** UTF-8 bytes of the segment's span (first sentence start to last sentence end). */
  bytes: number;
  /** Tokens of the same span, when pass 1 counts them (--tokenizer). */
  tokens?: number;
  /** Mean of its sentence scores (lower = keep). */
  score: number;
}

/** Segment boundaries for a document of n sentences: [first, count] pairs, flat. */
export function segmentBounds(nSentences: number, size: number): number[] {
  const out: number[] = [];
  for (let f = 0; f < nSentences; f += size) out.push(f, Math.min(size, nSentences - f));
  return out;
}
