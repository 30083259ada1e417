import type { ReaderOptions, ReadOptions } from '../io/documents.js';
import { sampleSentences, type SampleOptions, type SentenceSample } from '../io/sample.js';
import type { DocSplitter } from '../io/sentences.js';
import { ScoringPool } from './pool.js';
import { DEFAULT_BATCH_SENTENCES } from '../passes/scored.js';

export interface ParallelSplitter {
  split: DocSplitter;
  dispose(): Promise<void>;
}

/**
 * A DocSplitter on `threads` threads (this one and threads - 1 workers that only split),
 * for `fit --general` on gzip or stdin, which reads the whole text to sample it (`filter`'s
 * completion samples in one thread: complete.ts). Its workers start on first
 * use: a sample taken by seeking never splits more than a few documents. Undefined for one
 * thread (the caller splits in this thread).
 */
export function parallelSplitter(threads: number): ParallelSplitter | undefined {
  if (threads <= 1) return undefined;
  let pool: ScoringPool | undefined;
  return {
    split: async function* (docBatches) {
      pool ??= await ScoringPool.open(null, {}, threads);
      yield* splitterOn(pool)(docBatches);
    },
    async dispose() {
      await pool?.dispose();
      pool = undefined;
    },
  };
}

/** A DocSplitter on the threads of `pool`. */
function splitterOn(pool: ScoringPool): DocSplitter {
  return async function* (docBatches) {
    for await (const b of pool.scored(docBatches, DEFAULT_BATCH_SENTENCES)) yield { docs: b.docs, spans: b.spans };
  };
}

/** sampleSentences, with a reservoir pass split on `threads` threads (the sample is the same). */
export async function sampleSentencesOn(threads: number, inputs: readonly string[], reader: ReaderOptions, opts: SampleOptions, ro: ReadOptions = {}): Promise<SentenceSample> {
  const splitter = parallelSplitter(threads);
  try {
    return await sampleSentences(inputs, reader, { ...opts, split: splitter?.split ?? opts.split }, ro);
  } finally {
    await splitter?.dispose();
  }
}
