import { Rng } from '../core/rng.js';
import { splitSentences } from '../text/sentences.js';
import { readDocuments, type Doc, type ReadOptions, type ReaderOptions } from './documents.js';

export interface ReadSentencesOptions extends ReaderOptions {
  /** Keep at most this many sentences: a seeded reservoir sample, in input order. */
  limit?: number;
  seed?: number;
}

/** A batch of documents with each one's flat [start, end, ...] sentence spans. */
export interface SplitDocs {
  docs: Doc[];
  spans: ArrayLike<number>[];
}

/**
 * Splits document batches into sentence spans, handing them back in input order: on other
 * threads (pipeline/split-pool.ts), so a pass that reads a whole corpus to sample it is not
 * held to one core by the splitter.
 */
export type DocSplitter = (docBatches: AsyncIterable<Doc[]>) => AsyncIterable<SplitDocs>;

async function* splitHere(docBatches: AsyncIterable<Doc[]>): AsyncGenerator<SplitDocs> {
  for await (const docs of docBatches) yield { docs, spans: docs.map((d) => splitSentences(d.text)) };
}

/**
 * Every sentence of the inputs (for fitting on task data), or a seeded sample of them.
 * `split`: where the documents are split (default: this thread); the result is the same.
 */
export async function readSentences(inputs: string[], opts: ReadSentencesOptions, ro: ReadOptions = {}, split: DocSplitter = splitHere): Promise<string[]> {
  const limit = opts.limit ?? Infinity;
  const rng = new Rng(opts.seed ?? 0);
  const keep: Array<{ i: number; s: string }> = [];
  let seen = 0;
  for await (const { docs, spans: all } of split(readDocuments(inputs, opts, ro))) {
    for (let d = 0; d < docs.length; d++) {
      const text = docs[d]!.text;
      const spans = all[d]!;
      for (let j = 0; j < spans.length; j += 2) {
        // Only sentences that enter the reservoir are cut from the text.
        if (keep.length < limit) keep.push({ i: seen, s: text.slice(spans[j], spans[j + 1]) });
        else {
          // Reservoir sampling (algorithm R): bounded memory over any corpus size.
          const r = rng.int(seen + 1);
          if (r < limit) keep[r] = { i: seen, s: text.slice(spans[j], spans[j + 1]) };
        }
        seen++;
      }
    }
  }
  if (limit !== Infinity) keep.sort((a, b) => a.i - b.i);
  return keep.map((k) => k.s);
}
