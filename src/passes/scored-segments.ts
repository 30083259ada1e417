import type { Doc } from '../io/documents.js';
import type { ScoredBatch } from './scored.js';
import { segmentsOf } from './segment-records.js';
import type { OnDoc, SegmentSource } from './segment-sources.js';
import { Moments } from './spill-pass.js';

/**
 * Pass 2's documents when the cut is known before the run (--threshold): scored as they are
 * read, nothing spilled, so one pass reads and writes. The sentence scores' moments are
 * kept for the stats.
 */
export class ScoredSegments implements SegmentSource {
  readonly moments = new Moments();

  constructor(
    private readonly scored: AsyncIterable<ScoredBatch>,
    private readonly settings: { segment: number; docContext: number },
  ) {}

  async each(onDoc: OnDoc, afterBatch: () => Promise<void>, stop: () => boolean): Promise<void> {
    let nextId = 0;
    for await (const b of this.scored) {
      for (let i = 0; i < b.scores.length; i++) this.moments.add(b.scores[i]!);
      const segs = segmentsOf(b, this.settings.segment, nextId, this.settings.docContext);
      nextId += countSegments(b, this.settings.segment);
      let k = 0;
      for (let d = 0; d < b.docs.length; d++) {
        const doc = b.docs[d] as Doc;
        const first = k;
        while (k < segs.length && segs[k]!.doc === doc.ordinal) k++;
        const mine = segs.slice(first, k);
        const spans = b.spans[d]!;
        const seg = { scores: mine.map((g) => g.score), sentences: mine.map((g) => g.sentences), bytes: mine.map((g) => g.bytes), spansAndBounds: () => ({ spans, bounds: mine.flatMap((g) => [g.firstSentence, g.sentences]) }) };
        await onDoc(doc, seg, mine[0]?.id ?? 0);
        if (stop()) return;
      }
      await afterBatch();
    }
  }
}

function countSegments(b: ScoredBatch, size: number): number {
  let n = 0;
  for (const spans of b.spans) n += Math.ceil(spans.length / 2 / size);
  return n;
}
