import { Interrupted } from '../core/interrupt.js';
import { ReadCounters, type Doc } from '../io/documents.js';
import { tokenCounter } from '../cut/tokens.js';
import type { PassHooks, ScoreCheckpoints } from './hooks.js';
import type { ScoredBatch } from './scored.js';
import { openSpill, spillBatch, type SpilledScores } from './spill-pass.js';

/** The settings both passes read segments with (normalised once: commands/filter-options.ts). */
export interface SegmentSettings {
  readonly segment: number;
  /** How much a segment's score leans on its document's (src/segment/context.ts). */
  readonly docContext: number;
  /** A Hugging Face tokenizer.json: pass 1 counts each segment's tokens. */
  readonly tokenizer: string | undefined;
}

/** Pass 1 as a place runs it: what it reads, what scores, where it spills. */
export interface ScorePass {
  /** Document batches, counted into `counters` (a resumed pass reads on from its checkpoint). */
  read(counters: ReadCounters, trackCounts: boolean): AsyncIterable<Doc[]>;
  /** Document batches to scored batches: this thread's scorer, or the pool's threads. */
  score(docs: AsyncIterable<Doc[]>): AsyncIterable<ScoredBatch>;
  method: string;
  settings: SegmentSettings;
  paths: { spill: string; docIndex: string };
  hooks: PassHooks;
  checkpoints: ScoreCheckpoints;
}

export interface ScorePassResult extends SpilledScores {
  docs: number;
  sentences: number;
  bytes: number;
  reader: ReadCounters;
}

/**
 * Pass 1, the one body every place runs (one stream, a range on a thread, a shard): scores
 * every sentence, spills one record per segment, feeds the sketch and moments, and after
 * each batch (a document boundary) reports progress and hands its state to the checkpoints,
 * which save it in a run directory or nowhere. Resumed from a checkpoint, the spill is cut
 * back to it and reading goes on from its position: byte-identical to one attempt.
 */
export async function scorePass(p: ScorePass): Promise<ScorePassResult> {
  const { from, tracksCounts } = p.checkpoints;
  const { segment, docContext, tokenizer } = p.settings;
  const to = openSpill(p.paths, from, tokenizer ? tokenCounter(tokenizer) : undefined);
  const counters = new ReadCounters();
  if (from) counters.restore(from.reader);
  // The reader runs ahead of scoring: with checkpoints, its per-document snapshots
  // (Doc.counts) say what it had seen at each boundary, and `counters` follows them.
  const ahead = tracksCounts ? new ReadCounters() : counters;
  if (tracksCounts) ahead.restore(counters.toJSON());
  let docs = from?.docs ?? 0;
  let sentences = from?.sentences ?? 0;
  let bytes = from?.bytes ?? 0;
  try {
    for await (const b of p.score(p.read(ahead, tracksCounts))) {
      for (const seg of spillBatch(b, to, p.method, segment, docContext, to.spill.count)) {
        sentences += seg.sentences;
        bytes += seg.bytes;
      }
      const last = b.docs[b.docs.length - 1] as Doc;
      docs = last.ordinal + 1;
      if (last.counts) counters.restore(last.counts);
      p.hooks.progress(docs, counters.bytes);
      const state = { at: { input: last.input, offset: last.nextOffset, line: last.nextLine ?? 1 }, to, docs, sentences, bytes, counters };
      const by = p.hooks.abortedBy();
      await p.checkpoints.afterBatch(state, by !== undefined);
      if (by) throw new Interrupted(by);
    }
    if (p.checkpoints.durable) {
      to.spill.sync();
      to.index?.sync();
    }
  } finally {
    to.spill.close();
    to.index?.close();
  }
  return { sketch: to.sketch, moments: to.moments, segments: to.spill.count, docs, sentences, bytes, reader: counters };
}
