import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { removeScratch, scratchDir } from '../io/atomic.js';
import { closeSpool, openSpool, STDIN } from '../io/input.js';
import { resolveInput, type InputKind } from '../io/input-kind.js';
import type { Sink } from '../io/sink.js';
import type { Cut } from '../cut/exact.js';
import { needsCompletion } from '../model/complete.js';
import { drivePasses, type Drive, type PassPlace } from '../passes/drive.js';
import { fingerprintInputs, inputsDiffer } from '../passes/fingerprint.js';
import type { FilterOptions, RunOptions } from '../passes/run-options.js';
import { statsOf, type FilterStats } from '../passes/stats.js';
import { completeFromKinds, type CorpusCompletion } from '../threads/corpus-completion.js';
import { ScoringPool } from '../threads/pool.js';
import { planRanges, rangesPlace, type RangePiece } from '../threads/ranges-place.js';
import { openScoring, threadsOf, type Scoring } from '../threads/scoring.js';
import { streamPlace } from '../threads/stream-place.js';
import { normalizeFilterOptions } from './filter-options.js';

/**
 * `tadpole filter` as a library call: every mode from one options object, normalised once
 * (filter-options.ts). A run directory goes to filterInDir; otherwise both passes (or one,
 * with a threshold) run here, in one stream or in input ranges on threads, with scratch in
 * a temp folder or the work dir.
 */
export async function runFilter(given: FilterOptions): Promise<FilterStats> {
  const t0 = performance.now();
  let o: RunOptions;
  try {
    o = normalizeFilterOptions(given);
  } catch (err) {
    await given.sink?.abort(); // a refused run leaves no temp file beside its output
    throw err;
  }
  if (o.runDir) {
    // Loaded only for a run directory: its ledger, locks and checkpoints are a dozen modules a
    // plain run never needs, and a process under a low `ulimit -n` loads its modules at once.
    const { filterInDir } = await import('../run/filter-in-dir.js');
    return filterInDir(o, o.runDir, t0);
  }
  return filterToSink(o, o.sink as Sink, t0);
}

async function filterToSink(o: RunOptions, sink: Sink, t0: number): Promise<FilterStats> {
  const ownWork = o.workDir === undefined;
  let work: string;
  try {
    work = o.workDir ?? scratchDir('tadpole-');
  } catch (err) {
    await sink.abort();
    throw err;
  }
  let scorer: Scoring;
  let completion: CorpusCompletion;
  // A model fitted without --general is completed from a sample of this corpus first; with
  // stdin, that sampling pass spools it, and pass 1 reads the spool.
  let spooledByCompletion: InputKind | undefined;
  const completes = !o.scorer && needsCompletion(o.model);
  // With a completion to run first, the scoring threads start now: they load while this thread
  // samples and the fit runs, and are ready by pass 1 instead of starting then. They do not
  // split the sample: that was slower than this thread alone (threads/corpus-completion.ts).
  let early: ScoringPool | undefined;
  try {
    const spoolPath = join(work, 'stdin.spool');
    const spool = completes && o.inputs.some((k) => k.input === STDIN) ? openSpool(spoolPath) : undefined;
    if (completes && o.workers > 1) early = await ScoringPool.open(null, {}, o.workers);
    completion = o.scorer ? { model: o.model } : await completeFromKinds(o.model, o.inputs, o.reader, { keep: o.keep, keepBy: o.keepBy, workers: o.workers, stdin: o.stdin, spool, embedder: o.embedder, log: o.log, detail: o.detail, signal: o.signal, progress: o.progress });
    if (spool) {
      await closeSpool(spool);
      // The spool's kind, as the sampler resolved it when it copied stdin there.
      spooledByCompletion = completion.spooled ?? resolveInput(spoolPath, o.reader.format);
    }
    const started = early;
    early = undefined; // openScoring takes it over (or disposes it)
    scorer = o.scorer ?? (await openScoring(completion.model, o.embedder, o.workers, started));
    if (o.threshold !== undefined && scorer.prepare) throw new TadpoleError('TADPOLE_USAGE', `${scorer.method} in this form selects against the whole corpus: it cannot stream with --threshold`);
  } catch (err) {
    await early?.dispose();
    await sink.abort(); // no temp output left behind when the model cannot be completed or opened
    dropScratch(work, ownWork);
    throw err;
  }
  const tOpen = performance.now();
  try {
    // A file that grew, shrank or was replaced during pass 1 would be re-read differently. One
    // pass (--threshold) reads once: its inputs are not fingerprinted (a named pipe would block).
    const before = o.threshold === undefined ? fingerprintInputs(o.inputs) : [];
    const checkUnchanged = () => {
      const why = inputsDiffer(before, fingerprintInputs(o.inputs));
      if (why) throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the input changed while tadpole read it (${why}); inputs must not change during filter`);
    };
    const ranges: RangePiece[] | undefined = o.threshold === undefined && !o.weights && scorer instanceof ScoringPool ? planRanges(o.inputs, before, o.reader, scorer.workers, o.rangeMinBytes) : undefined;
    const place: PassPlace = ranges && scorer instanceof ScoringPool ? rangesPlace(scorer, ranges, o, work, checkUnchanged) : streamPlace(o, scorer, work, spooledByCompletion, checkUnchanged);
    const driven = await drivePasses(place, driveOf(o));
    await sink.close();
    return statsOf(o, driven, { model: completion.model, completion: completion.info, seconds: { open: (tOpen - t0) / 1000, total: (performance.now() - t0) / 1000 }, closedEarly: sink.closedEarly, threads: threadsOf(scorer), ranges: ranges?.length });
  } catch (err) {
    await sink.abort();
    throw err;
  } finally {
    if (!o.scorer) await scorer.dispose();
    dropScratch(work, ownWork);
  }
}

/** The drive a filter's options ask for: the exact cut, --weights, or a --threshold known before the run. */
export function driveOf<C extends Cut>(o: RunOptions): Drive<C> {
  return {
    stages: ['score', 'cut', 'emit'],
    keep: { share: o.keep, by: o.keepBy },
    writes: o.weights ? { kind: 'weights', C: o.weights.C, alpha: o.weights.alpha } : { kind: 'kept' },
    recorded: undefined,
    threshold: o.threshold,
    progress: o.progress,
  };
}

/** What a run writes in a --work-dir: nothing reads it once the run has ended, whichever way. */
const SCRATCH_FILE = /^(segments\.spill|docs\.index|stdin\.spool|range-\d+\.(spill|index|part))$/;

/** The run's scratch: its own temp folder, or the files it wrote in a --work-dir (a full or vanished one too). */
function dropScratch(work: string, own: boolean): void {
  if (own) {
    removeScratch(work);
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
