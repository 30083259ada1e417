import { describe, expect, it } from 'vitest';
import type { Doc } from '../../src/io/documents.js';
import { scoreDocBatches, sentenceAt, splitBatches, type ScoredBatch, type SplitBatch } from '../../src/passes/scored.js';
import { segmentsOf } from '../../src/passes/segment-records.js';
import { randomSelector } from '../../src/select/random.js';
import type { SentenceScorer } from '../../src/select/selector.js';

const TEXTS = [
  'First document. It has three sentences. Here is the third.',
  'Café crème. Über alles — “quoted” text here. 🙂 Done.',
  'One more. And another one. Then a third. And a fourth.',
  'Short.',
];

function docs(): Doc[] {
  return TEXTS.map((text, i) => ({ ordinal: i, input: 0, file: 'mem', line: i + 1, text, byteStart: 0, byteEnd: 0, nextOffset: 0 }));
}

async function* batchesOf(d: Doc[]): AsyncGenerator<Doc[]> {
  yield d.slice(0, 2);
  yield d.slice(2);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function randomScorer(): Promise<SentenceScorer> {
  return randomSelector.load({ method: 'random', params: { seed: 3 }, state: {} }, { seed: 3 } as never);
}

describe('split batches with and without sliced sentences', () => {
  it('cut at the same documents, with the same spans; sentenceAt slices what was not sliced', async () => {
    const sliced = await collect(splitBatches(batchesOf(docs()), 5));
    const spansOnly = await collect(splitBatches(batchesOf(docs()), 5, false));
    expect(sliced.length).toBeGreaterThan(1);
    expect(spansOnly.map((b) => b.docs.map((d) => d.ordinal))).toEqual(sliced.map((b) => b.docs.map((d) => d.ordinal)));
    expect(spansOnly.map((b) => b.spans)).toEqual(sliced.map((b) => b.spans));
    expect(spansOnly.map((b) => b.firstSentence)).toEqual(sliced.map((b) => b.firstSentence));
    for (const b of spansOnly) expect(b.sentences).toEqual([]);
    sliced.forEach((b: SplitBatch, k) => b.sentences.forEach((s, i) => expect(sentenceAt(spansOnly[k]!, i)).toBe(s)));
  });

  it('score and segment alike whether the scorer reads spans in place or is given sliced sentences', async () => {
    const inPlace = await randomScorer();
    expect(inPlace.scoreSpans).toBeDefined();
    const slicedOnly: SentenceScorer = { method: 'random', score: (s) => inPlace.score(s), dispose: async () => {} };
    const a: ScoredBatch[] = await collect(scoreDocBatches(batchesOf(docs()), inPlace, 5));
    const b: ScoredBatch[] = await collect(scoreDocBatches(batchesOf(docs()), slicedOnly, 5));
    expect(a[0]!.sentences).toEqual([]);
    expect(b[0]!.sentences.length).toBeGreaterThan(0);
    expect(a.map((x) => Array.from(x.scores))).toEqual(b.map((x) => Array.from(x.scores)));
    let id = 0;
    for (let k = 0; k < a.length; k++) {
      const segs = segmentsOf(a[k]!, 2, id);
      expect(segs).toEqual(segmentsOf(b[k]!, 2, id));
      id += segs.length;
      // UTF-8 bytes of each segment's span, ASCII document or not.
      for (const g of segs) {
        const d = a[k]!.docs.findIndex((x) => x.ordinal === g.doc);
        const spans = a[k]!.spans[d]!;
        const text = a[k]!.docs[d]!.text.slice(spans[2 * g.firstSentence], spans[2 * (g.firstSentence + g.sentences - 1) + 1]);
        expect(g.bytes).toBe(Buffer.byteLength(text));
      }
    }
  });
});
