import { Rng } from '../core/rng.js';
import { splitSentences } from '../text/sentences.js';
import { readDocuments, type ReadOptions, type ReaderOptions } from './documents.js';

export interface ReadSentencesOptions extends ReaderOptions {
  /** Keep at most this many sentences: a seeded reservoir sample, in input order. */
  limit?: number;
  seed?: number;
}

/** Every sentence of the inputs (for fitting on task data), or a seeded sample of them. */
export async function readSentences(inputs: string[], opts: ReadSentencesOptions, ro: ReadOptions = {}): Promise<string[]> {
  const limit = opts.limit ?? Infinity;
  const rng = new Rng(opts.seed ?? 0);
  const keep: Array<{ i: number; s: string }> = [];
  let seen = 0;
  for await (const docs of readDocuments(inputs, opts, ro)) {
    for (const doc of docs) {
      const spans = splitSentences(doc.text);
      for (let j = 0; j < spans.length; j += 2) {
        const s = doc.text.slice(spans[j], spans[j + 1]);
        if (keep.length < limit) keep.push({ i: seen, s });
        else {
          // Reservoir sampling (algorithm R): bounded memory over any corpus size.
          const r = rng.int(seen + 1);
          if (r < limit) keep[r] = { i: seen, s };
        }
        seen++;
      }
    }
  }
  if (limit !== Infinity) keep.sort((a, b) => a.i - b.i);
  return keep.map((k) => k.s);
}
