import { taskShareEntry } from '../cut/share-estimate.js';
import { runFilterInDir } from './filter-dir.js';
import type { FilterOptions, FilterStats, ResolvedFilterOptions, RunDirSettings, SinkFilterOptions } from '../passes/options.js';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { exactCut, type Cut } from '../cut/exact.js';
import { ReadCounters, readKinds, type SpanPlan, type Triage } from '../io/documents.js';
import { closeSpool, openSpool, STDIN } from '../io/input.js';
import { scratchDir, untrackTemp } from '../io/atomic.js';
import { refuseReadOnce, resolveInput, resolveInputs, type InputKind } from '../io/input-kind.js';
import { DEFAULT_DOC_CONTEXT } from '../segment/context.js';
import { checkFilterOptions } from '../passes/checks.js';
import { needsCompletion } from '../model/complete.js';
import { completeFromKinds, type CorpusCompletion } from '../threads/complete.js';
import { emitKept, forEachSegmentedDoc, RunWriter, writeKept, type SegmentedDocsOptions } from '../passes/passes.js';
import { Moments, spillScores, type SpilledScores } from '../passes/spill-pass.js';
import { Progress } from '../passes/progress.js';
import { drivePasses, type PassPlace, type Scored } from '../passes/drive.js';
import type { ScoreSketch } from '../cut/sketch.js';
import { heldOutEntry } from '../model/describe.js';
import { emptyTally, type KeepTally } from '../passes/keep-tally.js';
import { throwIfAborted } from '../core/interrupt.js';
import { fingerprintInputs, inputsDiffer } from '../passes/fingerprint.js';
import { defaultWorkers, ScoringPool } from '../threads/pool.js';
import { planRanges, rangesPlace } from '../threads/ranges-place.js';
import type { RangeJob } from '../threads/range-pass.js';
import { sentencesOf, splitBatches, type ScoredBatch } from '../passes/scored.js';
import { openScoring, scoreDocuments, threadsOf, type Scoring } from '../threads/scoring.js';
import { segmentsOf } from '../threads/segments.js';
import { tokenCounter } from '../cut/tokens.js';

/**
 * The library's filter: every mode of `tadpole filter` from one options object. A run
 * directory goes to runFilterInDir; otherwise both passes (or one, with a threshold) run
 * here, with scratch in a temp folder or the work dir.
 */
export async function runFilter(given: FilterOptions): Promise<FilterStats> {
  if (given.runDir) return runFilterInDir(given as FilterOptions & { runDir: RunDirSettings });
  return filterToSink(given as SinkFilterOptions);
}

async function filterToSink(given: SinkFilterOptions): Promise<FilterStats> {
  const t0 = performance.now();
  try {
    checkFilterOptions(given);
    // The cut reads the input twice, and so does a completion from it: a pipe given by name is refused before it is opened.
    if (given.threshold === undefined || (!given.scorer && needsCompletion(given.model))) refuseReadOnce(given.inputs, 'filter');
  } catch (err) {
    await given.sink.abort(); // a refused run leaves no temp file beside its output
    throw err;
  }
  // Every input's kind (format, compression, seekable, size) is decided here, once.
  const opts: ResolvedFilterOptions = { ...given, inputs: resolveInputs(given.inputs, given.reader.format) };
  const ownWork = opts.workDir === undefined;
  let work: string;
  try {
    work = opts.workDir ?? scratchDir('tadpole-');
  } catch (err) {
    await given.sink.abort();
    throw err;
  }
  const spoolPath = join(work, 'stdin.spool');
  const usesStdin = opts.inputs.some((k) => k.input === STDIN);
  let scorer: Scoring;
  let completion: CorpusCompletion;
  // A model fitted without --general is completed from a sample of this corpus first; with
  // stdin, that sampling pass spools it, and pass 1 reads the spool.
  let spooledByCompletion: InputKind | undefined;
  const workers = opts.workers ?? defaultWorkers(opts.inputs);
  const completes = !opts.scorer && needsCompletion(opts.model);
  // With a completion to run first, the scoring threads start now: they load while this thread
  // samples and the fit runs, and are ready by pass 1 instead of starting then. They do not
  // split the sample: that was slower than this thread alone (complete.ts).
  let early: ScoringPool | undefined;
  try {
    if (completes && opts.threshold !== undefined) {
      throw new TadpoleError('TADPOLE_USAGE', 'this model was fitted without --general: it is completed from the corpus, and a --threshold from another run only holds for that run\'s completed model; refit with --general FILE (large plain files are sampled by seeking) and reuse that model');
    }
    const spool = completes && usesStdin ? openSpool(spoolPath) : undefined;
    if (completes && workers > 1) early = await ScoringPool.open(null, {}, workers);
    completion = opts.scorer ? { model: opts.model } : await completeFromKinds(opts.model, opts.inputs, opts.reader, { keep: opts.keep, workers, ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(spool ? { spool } : {}), ...(opts.embedder ? { embedder: opts.embedder } : {}), ...(opts.log ? { log: opts.log } : {}), ...(opts.detail ? { detail: opts.detail } : {}), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.progress ? { progress: opts.progress } : {}) });
    if (spool) {
      await closeSpool(spool);
      // The spool's kind, as the sampler resolved it when it copied stdin there.
      spooledByCompletion = completion.spooled ?? resolveInput(spoolPath, opts.reader.format);
    }
    const started = early;
    early = undefined; // openScoring takes it over (or disposes it)
    scorer = opts.scorer ?? (await openScoring(completion.model, opts.embedder ?? {}, workers, started));
  } catch (err) {
    await early?.dispose();
    await opts.sink.abort(); // no temp output left behind when the model cannot be completed or opened
    dropScratch(work, ownWork);
    throw err;
  }
  const tOpen = performance.now();
  const stats: FilterStats = {
    method: opts.model.method,
    keep: opts.keep,
    keepBy: opts.keepBy,
    segmentSize: opts.segment,
    docContext: opts.docContext ?? DEFAULT_DOC_CONTEXT,
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
    ...heldOutEntry(completion.model),
    ...taskShareEntry(completion.model),
    threads: threadsOf(scorer),
  };
  const counters = new ReadCounters();
  try {
    let place: PassPlace;
    let ranges: RangeJob[] | undefined;
    if (opts.threshold !== undefined) {
      if (scorer.prepare) throw new TadpoleError('TADPOLE_USAGE', `${scorer.method} in this form selects against the whole corpus: it cannot stream with --threshold`);
      place = streamPlace(opts, scorer, counters, work, spooledByCompletion);
    } else {
      const before = fingerprintInputs(opts.inputs);
      // A file that grew, shrank or was replaced during pass 1 would be re-read differently.
      const checkUnchanged = () => {
        const why = inputsDiffer(before, fingerprintInputs(opts.inputs));
        if (why) throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the input changed while tadpole read it (${why}); inputs must not change during filter`);
      };
      ranges = !opts.weights && scorer instanceof ScoringPool ? planRanges(opts.inputs, before, opts.reader, scorer.workers, opts.rangeMinBytes) : undefined;
      place = ranges && scorer instanceof ScoringPool ? rangesPlace(scorer, ranges, opts, work, checkUnchanged) : { ...streamPlace(opts, scorer, counters, work, spooledByCompletion), betweenPasses: checkUnchanged };
    }
    const r = await drivePasses(place, { keep: { share: opts.keep, by: opts.keepBy }, ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}), ...(opts.weights ? { weights: true } : {}), ...(opts.progress ? { progress: opts.progress } : {}) });
    Object.assign(stats.seconds, r.seconds);
    if (r.scored) {
      stats.sentenceScores = r.scored.moments;
      stats.reader = r.scored.reader;
    }
    if (r.cut) {
      stats.threshold = r.cut.threshold;
      stats.tieId = r.cut.tieId;
      if (r.cut.tokens) stats.tokens = r.cut.tokens;
    }
    Object.assign(stats, r.tally);
    if (ranges) stats.ranges = ranges.length;
    await opts.sink.close();
  } catch (err) {
    await opts.sink.abort();
    throw err;
  } finally {
    if (!opts.scorer) await scorer.dispose();
    dropScratch(work, ownWork);
  }
  stats.closedEarly = opts.sink.closedEarly;
  stats.seconds.total = (performance.now() - t0) / 1000;
  return stats;
}

/** What a run writes in a --work-dir: nothing reads it once the run has ended, whichever way. */
const SCRATCH_FILE = /^(segments\.spill|docs\.index|stdin\.spool|range-\d+\.(spill|index|part))$/;

/** The run's scratch: its own temp folder, or the files it wrote in a --work-dir (a full or vanished one too). */
function dropScratch(work: string, own: boolean): void {
  if (own) {
    rmSync(work, { recursive: true, force: true });
    untrackTemp(work);
    return;
  }
  let names: string[];
  try {
    names = readdirSync(work);
  } catch {
    return; // the folder is gone: nothing left in it
  }
  for (const name of names) if (SCRATCH_FILE.test(name)) rmSync(join(work, name), { force: true });
}

/**
 * Both passes over the input read as one stream: pass 1 batches to the scoring threads,
 * the cut, pass 2 (or the --weights pass); the spill, doc index and stdin spool in `work`.
 * `spooledByCompletion`: stdin was already spooled by the completion; otherwise a stdin
 * input is spooled here, by the first pass that reads it.
 */
function streamPlace(opts: ResolvedFilterOptions, scorer: Scoring, counters: ReadCounters, work: string, spooledByCompletion: InputKind | undefined): PassPlace {
  const spillPath = join(work, 'segments.spill');
  const docIndexPath = join(work, 'docs.index');
  const spoolPath = join(work, 'stdin.spool');
  // After stdin is spooled (by the completion, prepare or pass 1), later passes read the spool.
  // The spool's kind is resolved once, when first read (it is complete by then).
  let spooled: InputKind[] | undefined;
  const spooledInputs = (): InputKind[] => (spooled ??= opts.inputs.map((k) => (k.input === STDIN ? (spooledByCompletion ?? resolveInput(spoolPath, opts.reader.format)) : k)));
  let sketch: ScoreSketch | undefined;
  return {
    async score() {
      let spool = opts.inputs.some((k) => k.input === STDIN) && !spooledByCompletion ? openSpool(spoolPath) : undefined;
      let pass1Inputs = spooledByCompletion ? spooledInputs() : opts.inputs;
      if (scorer.prepare) {
        // A corpus-wide selection (the paper's kNN-TAPT) sees every sentence first; stdin is
        // spooled by this extra pass, and pass 1 then reads the spool.
        await scorer.prepare(sentencesOf(splitBatches(reading(opts, pass1Inputs, new ReadCounters(), spool), opts.batchSentences)));
        if (spool) {
          await closeSpool(spool);
          spool = undefined;
          pass1Inputs = spooledInputs();
        }
      }
      const out = await scorePass(opts, scorer, counters, spillPath, docIndexPath, spool, pass1Inputs);
      if (spool) await closeSpool(spool);
      sketch = out.sketch;
      return { segments: out.sketch.totals().segments, moments: { mean: out.moments.mean, std: out.moments.std }, reader: counters.toJSON() };
    },
    cut: (keep, keepBy) => exactCut(sketch!, [spillPath], keep, keepBy),
    emit: (cut) => emitPass(opts, spooledInputs(), spillPath, docIndexPath, cut),
    weigh: (scored) => weightsPass(opts, spooledInputs(), spillPath, docIndexPath, scored.moments),
    stream: (cut) => streamingPass(opts, scorer, counters, cut),
  };
}

function reading(opts: ResolvedFilterOptions, inputs: readonly InputKind[], counters: ReadCounters, spool?: ReturnType<typeof openSpool>, triage?: Triage, spans?: SpanPlan) {
  return readKinds(inputs, opts.reader, { counters, ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(spool ? { spool } : {}), ...(triage ? { triage } : {}), ...(spans ? { spans } : {}) });
}

/** Pass 1: score every sentence, write one spill record per segment, feed the sketch. */
async function scorePass(opts: ResolvedFilterOptions, scorer: Scoring, counters: ReadCounters, spillPath: string, docIndexPath: string, spool?: ReturnType<typeof openSpool>, inputs = opts.inputs): Promise<SpilledScores> {
  const progress = new Progress('score', opts.inputs, opts.progress);
  const batches = scoreDocuments(reading(opts, inputs, counters, spool), scorer, opts.batchSentences);
  const out = await spillScores(batches, scorer.method, opts.segment, opts.docContext, { spill: spillPath, docIndex: docIndexPath }, () => {
    progress.update(counters.docs, counters.bytes);
    throwIfAborted(opts.signal);
  }, opts.tokenizer ? tokenCounter(opts.tokenizer) : undefined);
  progress.done(counters.docs, counters.bytes);
  return out;
}

/** Pass 2's reading, with progress and abort checks. */
function segmentedDocsOf(opts: ResolvedFilterOptions, inputs: readonly InputKind[], spillPath: string, docIndexPath: string, cut?: Cut) {
  const progress = new Progress('write', inputs, opts.progress);
  const counters = new ReadCounters();
  const read = (triage: Triage | undefined, spans?: SpanPlan) => reading(opts, inputs, counters, undefined, triage, spans);
  const o: SegmentedDocsOptions = {
    segment: opts.segment,
    spillPath,
    docIndexPath,
    ...(cut ? { cut, fetchKept: { linesNeeded: opts.outFormat === 'jsonl' } } : {}),
    stop: () => opts.sink.closedEarly,
    afterBatch: () => {
      progress.update(counters.docs, counters.bytes);
      throwIfAborted(opts.signal);
    },
  };
  return { read, o, done: () => progress.done(counters.docs, counters.bytes) };
}

/** Pass 2: write kept segments, consecutive ones of a document joined as in the input. */
async function emitPass(opts: ResolvedFilterOptions, inputs: readonly InputKind[], spillPath: string, docIndexPath: string, cut: Cut): Promise<KeepTally> {
  const { read, o, done } = segmentedDocsOf(opts, inputs, spillPath, docIndexPath, cut);
  const tally = emptyTally();
  await emitKept(read, { ...o, cut }, new RunWriter(opts.sink, opts.reader, opts.outFormat), tally);
  if (!opts.sink.closedEarly) done();
  return tally;
}

/** --weights: every segment with λ = 1 / (1 + e^{-C(α - z)}), z its normalised score. */
async function weightsPass(opts: ResolvedFilterOptions, inputs: readonly InputKind[], spillPath: string, docIndexPath: string, moments: { mean: number; std: number }): Promise<KeepTally> {
  const { C, alpha } = opts.weights!;
  const sd = moments.std > 0 ? moments.std : 1;
  const writer = new RunWriter(opts.sink, opts.reader, 'jsonl');
  const { read, o, done } = segmentedDocsOf(opts, inputs, spillPath, docIndexPath);
  const stats = emptyTally();
  await forEachSegmentedDoc(read, o, async (doc, seg) => {
    stats.documents.total++;
    if (seg.scores.length === 0) return;
    const { spans, bounds } = seg.spansAndBounds();
    const { scores, sentences: sw, bytes: bw } = seg;
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
  if (!opts.sink.closedEarly) done();
  return stats;
}

/** --threshold: one streaming pass, nothing spilled; stdin in, stdout out. */
async function streamingPass(opts: ResolvedFilterOptions, scorer: Scoring, counters: ReadCounters, cut: Pick<Cut, 'threshold' | 'tieId'>): Promise<{ scored: Scored; tally: KeepTally }> {
  const writer = new RunWriter(opts.sink, opts.reader, opts.outFormat);
  const progress = new Progress('filter', opts.inputs, opts.progress);
  const tally = emptyTally();
  let nextId = 0;
  const moments = new Moments();
  for await (const b of scoreDocuments(reading(opts, opts.inputs, counters), scorer, opts.batchSentences)) {
    for (let i = 0; i < b.scores.length; i++) moments.add(b.scores[i]!);
    await writeScoredBatch(b, opts, writer, cut, nextId, tally);
    nextId += countSegments(b, opts.segment);
    progress.update(counters.docs, counters.bytes);
    if (opts.sink.closedEarly) break;
    throwIfAborted(opts.signal);
  }
  progress.done(counters.docs, counters.bytes);
  return { scored: { moments: { mean: moments.mean, std: moments.std }, reader: counters.toJSON() }, tally };
}

function countSegments(b: ScoredBatch, size: number): number {
  let n = 0;
  for (const spans of b.spans) n += Math.ceil(spans.length / 2 / size);
  return n;
}

/** A scored batch's kept runs under a fixed threshold, document by document. */
async function writeScoredBatch(b: ScoredBatch, opts: ResolvedFilterOptions, writer: RunWriter, cut: Pick<Cut, 'threshold' | 'tieId'>, firstId: number, tally: KeepTally): Promise<void> {
  const segs = segmentsOf(b, opts.segment, firstId, opts.docContext);
  let k = 0;
  for (let d = 0; d < b.docs.length; d++) {
    const doc = b.docs[d]!;
    const first = k;
    while (k < segs.length && segs[k]!.doc === doc.ordinal) k++;
    const mine = segs.slice(first, k);
    const spans = b.spans[d]!;
    const seg = { scores: mine.map((g) => g.score), sentences: mine.map((g) => g.sentences), bytes: mine.map((g) => g.bytes), spansAndBounds: () => ({ spans, bounds: mine.flatMap((g) => [g.firstSentence, g.sentences]) }) };
    await writeKept(writer, doc, seg, cut, mine[0]?.id ?? 0, tally);
  }
}
