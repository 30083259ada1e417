import { Interrupted } from '../core/interrupt.js';
import type { Cut } from '../cut/exact.js';
import type { Doc, ReadCounters } from '../io/documents.js';
import type { EmitCheckpoints, PassHooks } from './hooks.js';
import type { KeepTally } from './keep-tally.js';
import { writeKept, type DocSegments, type RunWriter } from './run-writer.js';
import type { SegmentSource } from './segment-sources.js';

/**
 * What pass 2 writes: the kept runs under a cut (also a --threshold known before the run),
 * or every segment with its weight (--weights). Plain data: it crosses to a range's thread.
 */
export type Pass2Writer<C extends Pick<Cut, 'threshold' | 'tieId'> = Pick<Cut, 'threshold' | 'tieId'>> =
  | { kind: 'kept'; cut: C }
  | { kind: 'weights'; C: number; alpha: number; moments: { mean: number; std: number } };

/** Pass 2 as a place runs it: where its documents come from and where they go. */
export interface EmitPass {
  source: SegmentSource;
  writer: Pass2Writer;
  out: RunWriter;
  /** Counted into by the source's reading: progress. */
  counters: ReadCounters;
  /** The tally so far: empty, or a resumed emit's. */
  tally: KeepTally;
  /** Documents and spill records already written (a resumed emit). */
  docs: number;
  consumed: number;
  /** True once nothing more can be written (stdout went away). */
  stop(): boolean;
  hooks: PassHooks;
  checkpoints: EmitCheckpoints;
}

/**
 * Pass 2, the one body every place runs: each document with its segments goes through the
 * writer; after each batch, progress, then the checkpoints (a run directory's, or none).
 * Returns the tally (the one given, added to).
 */
export async function emitPass(p: EmitPass): Promise<KeepTally> {
  const write = segmentWriter(p.writer, p.out, p.tally);
  let { docs, consumed } = p;
  let last: Doc | undefined;
  await p.source.each(
    // Not an async function: one promise a document (writeKept's), as in the loop it replaced.
    (doc, seg, firstId) => {
      consumed += seg.scores.length;
      docs++;
      last = doc;
      return write(doc, seg, firstId);
    },
    async () => {
      p.hooks.progress(docs, p.counters.bytes);
      const by = p.hooks.abortedBy();
      if (last) await p.checkpoints.afterBatch({ at: { input: last.input, offset: last.nextOffset, line: last.nextLine ?? 1 }, consumed, docs, counters: p.counters }, by !== undefined);
      if (by) throw new Interrupted(by);
    },
    p.stop,
  );
  return p.tally;
}

type WriteDoc = (doc: Doc, seg: DocSegments, firstId: number) => Promise<void>;

function segmentWriter(w: Pass2Writer, out: RunWriter, tally: KeepTally): WriteDoc {
  if (w.kind === 'kept') return (doc, seg, firstId) => writeKept(out, doc, seg, w.cut, firstId, tally);
  const { C, alpha, moments } = w;
  const sd = moments.std > 0 ? moments.std : 1;
  // λ = 1 / (1 + e^{-C(α - z)}), z the segment's normalised score: every segment written with its weight.
  return async (doc, seg) => {
    tally.documents.total++;
    if (seg.scores.length === 0) return;
    const { spans, bounds } = seg.spansAndBounds();
    const { scores, sentences, bytes } = seg;
    for (let s = 0; s < scores.length; s++) {
      const z = (scores[s]! - moments.mean) / sd;
      const weight = 1 / (1 + Math.exp(-C * (alpha - z)));
      const first = bounds[2 * s]!;
      const last = first + bounds[2 * s + 1]! - 1;
      tally.segments.total++;
      tally.sentences.total += sentences[s]!;
      tally.bytes.total += bytes[s]!;
      await out.write({ doc, start: spans[2 * first]!, end: spans[2 * last + 1]!, firstSegment: s, lastSegment: s }, { score: scores[s], weight });
    }
  };
}
