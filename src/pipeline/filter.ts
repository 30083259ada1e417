import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import { exactCut, isKept, type Cut, type KeepBy } from '../cut/exact.js';
import { ScoreSketch } from '../cut/sketch.js';
import { SpillReader, SpillWriter } from '../cut/spill.js';
import type { EmbedderSpec } from '../embed/factory.js';
import { ReadCounters, readDocuments, type Doc, type ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import type { Sink } from '../io/sink.js';
import type { ModelFile } from '../model/file.js';
import { openScorer } from '../model/open.js';
import { segmentBounds } from '../segment/segments.js';
import type { SentenceScorer } from '../select/selector.js';
import { splitSentences } from '../text/sentences.js';
import { checkFilterOptions } from './checks.js';
import { needsCompletion } from '../model/complete.js';
import { completeFromCorpus, type CompletionInfo, type CorpusCompletion } from './complete.js';
import { Progress } from './progress.js';
import { RunWriter, writeKeptRuns } from './runs.js';
import { throwIfAborted } from '../shard/interrupt.js';
import { fingerprintInputs, inputsDiffer } from '../shard/fingerprint.js';
import { scoreBatches, sentencesOf, splitBatches, type ScoredBatch } from './scored.js';
import { segmentsOf } from './segments.js';

export interface FilterOptions {
  inputs: string[];
  reader: ReaderOptions;
  model: ModelFile;
  /** ONNX overrides (model dir, device, batch size) for recreating the embedder. */
  embedder?: Partial<EmbedderSpec>;
  keep: number;
  segment: number;
  keepBy: KeepBy;
  /** Streaming mode: keep segments with score <= threshold, no cut, one pass. */
  threshold?: number;
  /** Continuous weights (the paper's λ): every segment written with its weight. */
  weights?: { C: number; alpha: number };
  sink: Sink;
  stdin?: Readable;
  /** Scratch folder for the spill and the stdin spool (default: a temp folder, removed after). */
  workDir?: string;
  batchSentences?: number;
  progress?: (line: string) => void;
  /** A ready scorer (tests, eval); otherwise opened from the model. */
  scorer?: SentenceScorer;
  /** Aborted (SIGINT/SIGTERM): stop after the current batch, remove temp output, throw Interrupted. */
  signal?: AbortSignal;
  /** One-line notes for stderr (what the completion of a model without --general did). */
  log?: (line: string) => void;
}

export interface FilterStats {
  method: string;
  keep: number;
  keepBy: KeepBy;
  segmentSize: number;
  mode: 'cut' | 'threshold' | 'weights';
  threshold: number | null;
  tieId: number | null;
  documents: { total: number; withKept: number };
  sentences: { total: number; kept: number };
  segments: { total: number; kept: number };
  bytes: { total: number; kept: number };
  sentenceScores: { mean: number; std: number };
  reader: Record<string, number>;
  seconds: { open: number; pass1: number; cut: number; pass2: number; total: number };
  closedEarly: boolean;
  /** A model fitted without --general: the corpus sample it was completed from. */
  completion?: CompletionInfo;
}

/** Welford running mean/variance of sentence scores (for the paper's normalised weights). */
class Moments {
  n = 0;
  mean = 0;
  m2 = 0;
  add(x: number): void {
    this.n++;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
  }
  get std(): number {
    return this.n > 0 ? Math.sqrt(this.m2 / this.n) : 0;
  }
}

export async function runFilter(opts: FilterOptions): Promise<FilterStats> {
  const t0 = performance.now();
  checkFilterOptions(opts);
  const ownWork = opts.workDir === undefined;
  const work = opts.workDir ?? mkdtempSync(join(tmpdir(), 'tadpole-'));
  const spoolPath = join(work, 'stdin.spool');
  const usesStdin = opts.inputs.includes(STDIN);
  let scorer: SentenceScorer;
  let completion: CorpusCompletion;
  // A model fitted without --general is completed from a sample of this corpus first; with
  // stdin, that sampling pass spools it, and pass 1 reads the spool.
  let spooledByCompletion = false;
  try {
    if (!opts.scorer && needsCompletion(opts.model) && opts.threshold !== undefined) {
      throw new TadpoleError('TADPOLE_USAGE', 'this model was fitted without --general: it is completed from the corpus, and a --threshold from another run only holds for that run\'s completed model; refit with --general FILE (large plain files are sampled by seeking) and reuse that model');
    }
    const spool = !opts.scorer && needsCompletion(opts.model) && usesStdin ? createWriteStream(spoolPath) : undefined;
    completion = opts.scorer ? { model: opts.model } : await completeFromCorpus(opts.model, opts.inputs, opts.reader, { ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(spool ? { spool } : {}), ...(opts.embedder ? { embedder: opts.embedder } : {}), ...(opts.log ? { log: opts.log } : {}) });
    if (spool) {
      await new Promise<void>((r, j) => spool.end((e?: Error | null) => (e ? j(e) : r())));
      spooledByCompletion = true;
    }
    scorer = opts.scorer ?? (await openScorer(completion.model, opts.embedder ?? {}));
  } catch (err) {
    if (ownWork) rmSync(work, { recursive: true, force: true });
    throw err;
  }
  const tOpen = performance.now();
  const stats: FilterStats = {
    method: opts.model.method,
    keep: opts.keep,
    keepBy: opts.keepBy,
    segmentSize: opts.segment,
    mode: opts.threshold !== undefined ? 'threshold' : opts.weights ? 'weights' : 'cut',
    threshold: opts.threshold ?? null,
    tieId: null,
    documents: { total: 0, withKept: 0 },
    sentences: { total: 0, kept: 0 },
    segments: { total: 0, kept: 0 },
    bytes: { total: 0, kept: 0 },
    sentenceScores: { mean: 0, std: 0 },
    reader: {},
    seconds: { open: (tOpen - t0) / 1000, pass1: 0, cut: 0, pass2: 0, total: 0 },
    closedEarly: false,
    ...(completion.info ? { completion: completion.info } : {}),
  };
  const counters = new ReadCounters();
  try {
    if (opts.threshold !== undefined) {
      if (scorer.prepare) throw new TadpoleError('TADPOLE_USAGE', `${scorer.method} in this form selects against the whole corpus: it cannot stream with --threshold`);
      await streamingPass(opts, scorer, counters, stats, opts.threshold);
    } else {
      const spillPath = join(work, 'segments.spill');
      let spool = usesStdin && !spooledByCompletion ? createWriteStream(spoolPath) : undefined;
      const before = fingerprintInputs(opts.inputs);
      const t1 = performance.now();
      let pass1Inputs = spooledByCompletion ? opts.inputs.map((i) => (i === STDIN ? spoolPath : i)) : opts.inputs;
      if (scorer.prepare) {
        // A corpus-wide selection (the paper's kNN-TAPT) sees every sentence first; stdin is
        // spooled by this extra pass, and pass 1 then reads the spool.
        await scorer.prepare(sentencesOf(splitBatches(reading(opts, pass1Inputs, new ReadCounters(), spool), opts.batchSentences)));
        if (spool) {
          const s = spool;
          await new Promise<void>((r, j) => s.end((e?: Error | null) => (e ? j(e) : r())));
          spool = undefined;
          pass1Inputs = opts.inputs.map((i) => (i === STDIN ? spoolPath : i));
        }
      }
      const { sketch, moments } = await scorePass(opts, scorer, counters, spillPath, spool, pass1Inputs);
      if (spool) {
        const s = spool;
        await new Promise<void>((r, j) => s.end((e?: Error | null) => (e ? j(e) : r())));
      }
      const t2 = performance.now();
      stats.seconds.pass1 = (t2 - t1) / 1000;
      stats.sentenceScores = { mean: moments.mean, std: moments.std };
      stats.reader = counters.toJSON();
      const pass2Inputs = opts.inputs.map((i) => (i === STDIN ? spoolPath : i));
      // A file that grew, shrank or was replaced during pass 1 would be re-read differently.
      const why = inputsDiffer(before, fingerprintInputs(opts.inputs));
      if (why) throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the input changed while tadpole read it (${why}); inputs must not change during filter`);
      if (opts.weights) {
        const t3 = performance.now();
        await weightsPass(opts, pass2Inputs, spillPath, moments, stats);
        stats.seconds.pass2 = (performance.now() - t3) / 1000;
      } else {
        const cut = exactCut(sketch, [spillPath], opts.keep, opts.keepBy);
        const t3 = performance.now();
        stats.seconds.cut = (t3 - t2) / 1000;
        stats.threshold = cut.threshold;
        stats.tieId = cut.tieId;
        await emitPass(opts, pass2Inputs, spillPath, cut, stats);
        stats.seconds.pass2 = (performance.now() - t3) / 1000;
      }
    }
    await opts.sink.close();
  } catch (err) {
    await opts.sink.abort();
    throw err;
  } finally {
    if (!opts.scorer) await scorer.dispose();
    if (ownWork) rmSync(work, { recursive: true, force: true });
  }
  stats.closedEarly = opts.sink.closedEarly;
  stats.seconds.total = (performance.now() - t0) / 1000;
  return stats;
}

function reading(opts: FilterOptions, inputs: string[], counters: ReadCounters, spool?: ReturnType<typeof createWriteStream>) {
  return readDocuments(inputs, opts.reader, { counters, ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(spool ? { spool } : {}) });
}

/** Pass 1: score every sentence, write one spill record per segment, feed the sketch. */
async function scorePass(opts: FilterOptions, scorer: SentenceScorer, counters: ReadCounters, spillPath: string, spool?: ReturnType<typeof createWriteStream>, inputs = opts.inputs) {
  const spill = new SpillWriter(spillPath);
  const sketch = new ScoreSketch();
  const moments = new Moments();
  const progress = new Progress('score', opts.inputs, opts.progress);
  let nextId = 0;
  try {
    const batches = scoreBatches(splitBatches(reading(opts, inputs, counters, spool), opts.batchSentences), scorer);
    for await (const b of batches) {
      for (let i = 0; i < b.scores.length; i++) {
        const s = b.scores[i]!;
        if (!Number.isFinite(s)) throw new TadpoleError('TADPOLE_INTERNAL', `scorer ${scorer.method} returned a non-finite score (${s}) for: ${b.sentences[i]!.slice(0, 80)}`);
        moments.add(s);
      }
      for (const seg of segmentsOf(b, opts.segment, nextId)) {
        spill.write(seg.score, seg.sentences, seg.bytes);
        sketch.add(seg.score, seg.sentences, seg.bytes);
        nextId++;
      }
      progress.update(counters.docs, counters.bytes);
      throwIfAborted(opts.signal);
    }
    progress.done(counters.docs, counters.bytes);
  } finally {
    spill.close();
  }
  return { sketch, moments, segments: nextId };
}

/** Re-derives the segments of each document (no scoring) and hands them on with their spill records. */
async function forEachSegmentedDoc(
  opts: FilterOptions,
  inputs: string[],
  spillPath: string,
  stats: FilterStats,
  onDoc: (doc: Doc, spans: number[], bounds: number[], scores: Float64Array, ids: number, sentencesW: Uint32Array, bytesW: Uint32Array) => Promise<void>,
): Promise<void> {
  const reader = new SpillReader(spillPath);
  const progress = new Progress('write', inputs, opts.progress);
  const counters = new ReadCounters();
  let id = 0;
  try {
    for await (const docs of reading(opts, inputs, counters)) {
      for (const doc of docs) {
        const spans = splitSentences(doc.text);
        const bounds = segmentBounds(spans.length / 2, opts.segment);
        const n = bounds.length / 2;
        const scores = new Float64Array(n);
        const sw = new Uint32Array(n);
        const bw = new Uint32Array(n);
        for (let s = 0; s < n; s++) {
          const rec = reader.next();
          if (!rec) throw changed(doc, 'more segments than pass 1 scored');
          scores[s] = rec.score;
          sw[s] = rec.sentences;
          bw[s] = rec.bytes;
          if (rec.sentences !== bounds[2 * s + 1]) throw changed(doc, 'a segment differs from pass 1');
        }
        await onDoc(doc, spans, bounds, scores, id, sw, bw);
        id += n;
        stats.documents.total++;
        if (opts.sink.closedEarly) return;
      }
      progress.update(counters.docs, counters.bytes);
      throwIfAborted(opts.signal);
    }
    if (reader.next()) throw new TadpoleError('TADPOLE_INPUT_CHANGED', 'the input changed between passes: it now ends before all segments scored in pass 1');
    progress.done(counters.docs, counters.bytes);
  } finally {
    reader.close();
  }
}

function changed(doc: Doc, why: string): TadpoleError {
  return new TadpoleError('TADPOLE_INPUT_CHANGED', `${doc.file}:${doc.line}: the input changed between passes (${why}); inputs must not change while tadpole filters them`, { file: doc.file, line: doc.line });
}

/** Pass 2: write kept segments, consecutive ones of a document joined as in the input. */
async function emitPass(opts: FilterOptions, inputs: string[], spillPath: string, cut: Cut, stats: FilterStats): Promise<void> {
  const writer = new RunWriter(opts.sink, opts.reader);
  await forEachSegmentedDoc(opts, inputs, spillPath, stats, async (doc, spans, bounds, scores, firstId, sw, bw) => {
    const kept = Uint8Array.from(scores, (score, s) => (isKept(cut, score, firstId + s) ? 1 : 0));
    await writeKeptRuns(writer, doc, spans, bounds, kept, sw, bw, stats);
  });
}

/** --weights: every segment with λ = 1 / (1 + e^{-C(α - z)}), z its normalised score. */
async function weightsPass(opts: FilterOptions, inputs: string[], spillPath: string, moments: Moments, stats: FilterStats): Promise<void> {
  const { C, alpha } = opts.weights!;
  const sd = moments.std > 0 ? moments.std : 1;
  const writer = new RunWriter(opts.sink, opts.reader, true);
  await forEachSegmentedDoc(opts, inputs, spillPath, stats, async (doc, spans, bounds, scores, _firstId, sw, bw) => {
    for (let s = 0; s < scores.length; s++) {
      const z = (scores[s]! - moments.mean) / sd;
      const weight = 1 / (1 + Math.exp(-C * (alpha - z)));
      const first = bounds[2 * s]!;
      const last = first + bounds[2 * s + 1]! - 1;
      stats.segments.total++;
      stats.sentences.total += sw[s]!;
      stats.bytes.total += bw[s]!;
      await writer.write({ doc, start: spans[2 * first]!, end: spans[2 * last + 1]!, firstSegment: s, lastSegment: s }, { score: scores[s], weight });
    }
  });
}

/** --threshold: one streaming pass, nothing spilled; stdin in, stdout out. */
async function streamingPass(opts: FilterOptions, scorer: SentenceScorer, counters: ReadCounters, stats: FilterStats, threshold: number): Promise<void> {
  const t1 = performance.now();
  const writer = new RunWriter(opts.sink, opts.reader);
  const progress = new Progress('filter', opts.inputs, opts.progress);
  const cut = { threshold, tieId: Number.MAX_SAFE_INTEGER };
  let nextId = 0;
  const moments = new Moments();
  for await (const b of scoreBatches(splitBatches(reading(opts, opts.inputs, counters), opts.batchSentences), scorer)) {
    for (let i = 0; i < b.scores.length; i++) moments.add(b.scores[i]!);
    await writeScoredBatch(b, opts, writer, cut, nextId, stats);
    nextId += countSegments(b, opts.segment);
    progress.update(counters.docs, counters.bytes);
    if (opts.sink.closedEarly) break;
    throwIfAborted(opts.signal);
  }
  progress.done(counters.docs, counters.bytes);
  stats.sentenceScores = { mean: moments.mean, std: moments.std };
  stats.reader = counters.toJSON();
  stats.seconds.pass1 = (performance.now() - t1) / 1000;
}

function countSegments(b: ScoredBatch, size: number): number {
  let n = 0;
  for (const spans of b.spans) n += Math.ceil(spans.length / 2 / size);
  return n;
}

async function writeScoredBatch(b: ScoredBatch, opts: FilterOptions, writer: RunWriter, cut: Pick<Cut, 'threshold' | 'tieId'>, firstId: number, stats: FilterStats): Promise<void> {
  const segs = segmentsOf(b, opts.segment, firstId);
  let k = 0;
  for (let d = 0; d < b.docs.length; d++) {
    const doc = b.docs[d]!;
    stats.documents.total++;
    const first = k;
    while (k < segs.length && segs[k]!.doc === doc.ordinal) k++;
    const mine = segs.slice(first, k);
    const bounds = mine.flatMap((g) => [g.firstSentence, g.sentences]);
    const kept = Uint8Array.from(mine, (g) => (isKept(cut, g.score, g.id) ? 1 : 0));
    await writeKeptRuns(writer, doc, b.spans[d]!, bounds, kept, mine.map((g) => g.sentences), mine.map((g) => g.bytes), stats);
  }
}
