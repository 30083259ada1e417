import { DEFAULT_DOC_CONTEXT, documentSegmentScores } from '../segment/context.js';
import { segmentBounds, type SegmentRecord } from '../segment/segments.js';
import type { ScoredBatch } from './scored.js';
import { isAsciiText } from '../text/chars.js';
import type { TokenCounter } from '../cut/tokens.js';

/**
 * Segment records of one scored batch, ids continuing from `nextId`. `docContext` (default
 * DEFAULT_DOC_CONTEXT; 0 = the paper's plain mean) is how much each segment's score leans on
 * its document's (src/segment/context.ts).
 */
export function segmentsOf(b: ScoredBatch, size: number, nextId: number, docContext = DEFAULT_DOC_CONTEXT, countTokens?: TokenCounter): SegmentRecord[] {
  const out: SegmentRecord[] = [];
  for (let d = 0; d < b.docs.length; d++) {
    const doc = b.docs[d]!;
    const spans = b.spans[d]!;
    const bounds = segmentBounds(spans.length / 2, size);
    const scores = documentSegmentScores(b.scores, b.firstSentence[d]!, spans, bounds, docContext);
    // In an ASCII document a span's UTF-8 bytes are its length: no slice to measure.
    const ascii = isAsciiText(doc.text);
    for (let s = 0; s < bounds.length; s += 2) {
      const first = bounds[s]!;
      const count = bounds[s + 1]!;
      const start = spans[2 * first]!;
      const end = spans[2 * (first + count - 1) + 1]!;
      const rec: SegmentRecord = { id: nextId++, doc: doc.ordinal, firstSentence: first, sentences: count, bytes: ascii ? end - start : Buffer.byteLength(doc.text.slice(start, end)), score: scores[s / 2]! };
      if (countTokens) rec.tokens = countTokens(doc.text.slice(start, end));
      out.push(rec);
    }
  }
  return out;
}
