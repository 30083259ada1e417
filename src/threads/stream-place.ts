import { join } from 'node:path';
import { exactCut } from '../cut/exact.js';
import type { ScoreSketch } from '../cut/sketch.js';
import { ReadCounters, readKinds, type SpanPlan, type Triage } from '../io/documents.js';
import { closeSpool, openSpool, STDIN } from '../io/input.js';
import { resolveInput, type InputKind } from '../io/input-kind.js';
import type { Sink } from '../io/sink.js';
import type { PassPlace } from '../passes/drive.js';
import { emitPass } from '../passes/emit-pass.js';
import { NO_EMIT_CHECKPOINTS, NO_SCORE_CHECKPOINTS } from '../passes/hooks.js';
import { emptyTally } from '../passes/keep-tally.js';
import type { RunOptions } from '../passes/run-options.js';
import { hooksOf, Progress } from '../passes/progress.js';
import { RunWriter } from '../passes/run-writer.js';
import { scorePass } from '../passes/score-pass.js';
import { ScoredSegments } from '../passes/scored-segments.js';
import { sentencesOf, splitBatches } from '../passes/scored.js';
import { SpilledSegments, type SegmentSource } from '../passes/segment-sources.js';
import { scoreDocuments, type Scoring } from './scoring.js';

/**
 * Both passes over the input read as one stream, on this thread (scoring batches handed to
 * the pool's threads when there is a pool): the spill, doc index and stdin spool in `work`.
 * `spooledByCompletion`: stdin was already spooled by the completion; otherwise a stdin
 * input is spooled here, by the first pass that reads it.
 */
export function streamPlace(o: RunOptions, scorer: Scoring, work: string, spooledByCompletion: InputKind | undefined, betweenPasses: () => void): PassPlace {
  const paths = { spill: join(work, 'segments.spill'), docIndex: join(work, 'docs.index') };
  const spoolPath = join(work, 'stdin.spool');
  const sink = o.sink as Sink;
  // After stdin is spooled (by the completion, prepare or pass 1), later passes read the spool.
  // The spool's kind is resolved once, when first read (it is complete by then).
  let spooled: InputKind[] | undefined;
  const spooledInputs = (): InputKind[] => (spooled ??= o.inputs.map((k) => (k.input === STDIN ? (spooledByCompletion ?? resolveInput(spoolPath, o.reader.format)) : k)));
  const read = (inputs: readonly InputKind[], counters: ReadCounters, spool?: ReturnType<typeof openSpool>, triage?: Triage, spans?: SpanPlan) => readKinds(inputs, o.reader, { counters, stdin: o.stdin, spool, triage, spans });
  let sketch: ScoreSketch | undefined;
  return {
    async score() {
      let spool = o.inputs.some((k) => k.input === STDIN) && !spooledByCompletion ? openSpool(spoolPath) : undefined;
      let inputs = spooledByCompletion ? spooledInputs() : o.inputs;
      if (scorer.prepare) {
        // A corpus-wide selection (the paper's kNN-TAPT) sees every sentence first; stdin is
        // spooled by this extra pass, and pass 1 then reads the spool.
        await scorer.prepare(sentencesOf(splitBatches(read(inputs, new ReadCounters(), spool), o.batchSentences)));
        if (spool) {
          await closeSpool(spool);
          spool = undefined;
          inputs = spooledInputs();
        }
      }
      const progress = new Progress('score', o.inputs, o.progress);
      const r = await scorePass({
        read: (counters) => read(inputs, counters, spool),
        score: (docs) => scoreDocuments(docs, scorer, o.batchSentences),
        method: scorer.method,
        settings: o,
        paths,
        hooks: hooksOf(progress, o.signal),
        checkpoints: NO_SCORE_CHECKPOINTS,
      });
      progress.done(r.docs, r.reader.bytes);
      if (spool) await closeSpool(spool);
      sketch = r.sketch;
      return { segments: r.sketch.totals().segments, moments: { mean: r.moments.mean, std: r.moments.std }, reader: r.reader.toJSON() };
    },
    betweenPasses,
    cut: (keep, keepBy) => exactCut(sketch!, [paths.spill], keep, keepBy),
    async emit(writer, from) {
      const counters = new ReadCounters();
      const kept = writer.kind === 'kept' ? writer.cut : undefined;
      let source: SegmentSource;
      let scored: ScoredSegments | undefined;
      if (from === 'scoring') source = scored = new ScoredSegments(scoreDocuments(read(o.inputs, counters), scorer, o.batchSentences), o);
      else source = new SpilledSegments((triage, spans) => read(spooledInputs(), counters, undefined, triage, spans), { ...paths, indexed: true, segment: o.segment, id: 0, spillRecord: 0, indexOffset: 0, cut: kept, fetchKept: kept ? { linesNeeded: o.outFormat === 'jsonl' } : undefined });
      const progress = new Progress(from === 'scoring' ? 'filter' : 'write', from === 'scoring' ? o.inputs : spooledInputs(), o.progress);
      const out = new RunWriter(sink, o.reader, kept ? o.outFormat : 'jsonl');
      const tally = await emitPass({ source, writer, out, counters, tally: emptyTally(), docs: 0, consumed: 0, stop: () => sink.closedEarly, hooks: hooksOf(progress, o.signal), checkpoints: NO_EMIT_CHECKPOINTS });
      if (!sink.closedEarly) progress.done(counters.docs, counters.bytes);
      return scored ? { tally, scored: { moments: { mean: scored.moments.mean, std: scored.moments.std }, reader: counters.toJSON() } } : { tally };
    },
  };
}
