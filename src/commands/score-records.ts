import type { Readable } from 'node:stream';
import type { EmbedderSpec } from '../embed/factory.js';
import { ReadCounters, readKinds, type ReaderOptions } from '../io/documents.js';
import type { InputKind } from '../io/input-kind.js';
import type { Sink } from '../io/sink.js';
import type { ModelFile } from '../model/file.js';
import { completeFromKinds } from '../threads/corpus-completion.js';
import { prepareOnFiles } from '../passes/scored.js';
import { openScoring, scoreDocuments } from '../threads/scoring.js';
import { segmentsOf } from '../passes/segment-records.js';

export interface ScoreRecordsOptions {
  /** Resolved once by the entry (scoreCorpus). */
  inputs: readonly InputKind[];
  reader: ReaderOptions;
  model: ModelFile;
  embedder: Partial<EmbedderSpec>;
  workers: number;
  /** A record per segment of `size` sentences (its score leaning on its document's by `docContext`) instead of per sentence. */
  segments?: { size: number; docContext: number } | undefined;
  /** Each record carries its text. */
  withText: boolean;
  stdin?: Readable | undefined;
  log?: ((line: string) => void) | undefined;
  /** Where the records go: opened once the model is complete and the scorer open, so a refusal leaves no output file. */
  sink: () => Sink;
}

/**
 * `tadpole score` without a run directory: every sentence's score (or every segment's) as one
 * JSON record a line, in input order, read once. A model fitted without --general is completed
 * from the inputs first. Returns the reader's counts and whether the output was closed early.
 */
export async function writeScoreRecords(o: ScoreRecordsOptions): Promise<{ reader: Record<string, number>; closedEarly: boolean }> {
  const { model: ready } = await completeFromKinds(o.model, o.inputs, o.reader, { embedder: o.embedder, workers: o.workers, log: o.log });
  const scorer = await openScoring(ready, o.embedder, o.workers);
  const sink = o.sink();
  const counters = new ReadCounters();
  try {
    await prepareOnFiles(scorer, o.inputs, o.reader);
    const docs = readKinds(o.inputs, o.reader, { stdin: o.stdin, counters });
    let nextId = 0;
    for await (const b of scoreDocuments(docs, scorer)) {
      if (o.segments) {
        const segs = segmentsOf(b, o.segments.size, nextId, o.segments.docContext);
        nextId += segs.length;
        let d = 0;
        for (const seg of segs) {
          while (b.docs[d]!.ordinal !== seg.doc) d++;
          const spans = b.spans[d]!;
          const rec: Record<string, unknown> = { doc: seg.doc, segment: seg.id, first: seg.firstSentence, sentences: seg.sentences, score: seg.score };
          if (o.withText) rec.text = b.docs[d]!.text.slice(spans[2 * seg.firstSentence], spans[2 * (seg.firstSentence + seg.sentences - 1) + 1]);
          await sink.write(JSON.stringify(rec) + '\n');
        }
      } else {
        for (let d = 0; d < b.docs.length; d++) {
          const first = b.firstSentence[d]!;
          const spans = b.spans[d]!;
          const n = spans.length / 2;
          for (let i = 0; i < n; i++) {
            const rec: Record<string, unknown> = { doc: b.docs[d]!.ordinal, i, score: b.scores[first + i] };
            // From the document: a scorer that reads sentences in place leaves b.sentences empty.
            if (o.withText) rec.text = b.docs[d]!.text.slice(spans[2 * i], spans[2 * i + 1]);
            await sink.write(JSON.stringify(rec) + '\n');
          }
        }
      }
      if (sink.closedEarly) break;
    }
    await sink.close();
  } catch (err) {
    await sink.abort();
    throw err;
  } finally {
    await scorer.dispose();
  }
  return { reader: counters.toJSON(), closedEarly: sink.closedEarly };
}
