import type { Cut, KeepBy } from '../cut/exact.js';
import type { Pass2Writer } from './emit-pass.js';
import { cutLine } from './progress.js';
import type { KeepTally } from './keep-tally.js';

/** What pass 1 left that the cut line and the stats read, wherever it ran. */
export interface Scored {
  /** Segments scored, when the place knows them before its cut (a run directory's cut counts them itself). */
  segments?: number;
  moments: { mean: number; std: number };
  reader: Record<string, number>;
}

/** What pass 2 wrote; `scored`: what it scored as it read (a cut known before the run). */
export interface Emitted {
  tally: KeepTally;
  scored?: Scored;
}

/** The three steps of a cut-mode run; the score, cut and emit commands each drive one. */
export type Stage = 'score' | 'cut' | 'emit';

/**
 * Where the two passes run (one stream, input ranges on the pool's threads, a shard of a
 * run directory) and where their state lives (a work dir, a run directory and its ledger).
 * A place runs the pass bodies (score-pass.ts, emit-pass.ts) there; drivePasses alone
 * decides what follows what.
 */
export interface PassPlace<C extends Cut = Cut> {
  /** Pass 1: every sentence scored, one spill record per segment. Undefined: this call scored nothing (a run directory already scored). */
  score(): Promise<Scored | undefined>;
  /** Before pass 2 reads the inputs again: refuses inputs that changed since pass 1 read them. */
  betweenPasses(): void;
  /** The exact cut over what pass 1 left. */
  cut(keep: number, keepBy: KeepBy): C;
  /** Pass 2 through `writer`: from pass 1's spill, or (`scoring`) scoring as it reads, with no pass 1 (a --threshold). */
  emit(writer: Pass2Writer, from: 'spill' | 'scoring'): Promise<Emitted>;
}

/** What a drive writes in pass 2: the kept runs under the cut, or every segment weighed (--weights). */
export type Writes = { kind: 'kept' } | { kind: 'weights'; C: number; alpha: number };

export interface Drive<C extends Cut> {
  /** Only these steps, in the order above. */
  stages: readonly Stage[];
  /** The share to keep and its unit: read by the cut step. */
  keep: { share: number; by: KeepBy };
  writes: Writes;
  /** A cut recorded by an earlier `cut` step: an emit driven alone. */
  recorded: C | undefined;
  /** --threshold: the cut is known before the run, so there is no pass 1: one pass scores and writes. */
  threshold: number | undefined;
  progress: ((line: string) => void) | undefined;
}

export interface Driven<C extends Cut> {
  scored: Scored | undefined;
  cut: C | undefined;
  tally: KeepTally | undefined;
  seconds: { pass1: number; cut: number; pass2: number };
}

/**
 * The one driver of a run: pass 1 (score and spill), the exact cut, pass 2 (emit), at
 * `place`; with --weights, pass 2 weighs every segment instead of cutting; with a cut known
 * before the run, only what it needs. Filter (one stream or input ranges), filter
 * --run-dir, the score, cut and emit commands and the library all come through here.
 */
export async function drivePasses<C extends Cut>(place: PassPlace<C>, d: Drive<C>): Promise<Driven<C>> {
  const does = (s: Stage) => d.stages.includes(s);
  const seconds = { pass1: 0, cut: 0, pass2: 0 };
  let scored: Scored | undefined;
  const streams = d.threshold !== undefined;
  let cut = d.recorded;
  let tally: KeepTally | undefined;
  const t1 = performance.now();
  if (does('score') && !streams) scored = await place.score();
  const t2 = performance.now();
  seconds.pass1 = (t2 - t1) / 1000;
  if (does('cut') && d.writes.kind === 'kept' && !streams) {
    // The cut reads the spills on this thread: one line says what it is doing while it does.
    d.progress?.(cutLine(scored?.segments, d.keep.share, d.keep.by));
    cut = place.cut(d.keep.share, d.keep.by);
  }
  const t3 = performance.now();
  seconds.cut = (t3 - t2) / 1000;
  if (does('emit')) {
    const w = d.writes;
    const kept = d.threshold !== undefined ? { threshold: d.threshold, tieId: Number.MAX_SAFE_INTEGER } : cut;
    const writer: Pass2Writer | undefined = w.kind === 'weights' ? (scored ? { kind: 'weights', C: w.C, alpha: w.alpha, moments: scored.moments } : undefined) : kept ? { kind: 'kept', cut: kept } : undefined;
    if (writer) {
      if (!streams) place.betweenPasses();
      const out = await place.emit(writer, streams ? 'scoring' : 'spill');
      tally = out.tally;
      scored ??= out.scored;
    }
  }
  const t4 = performance.now();
  if (streams) seconds.pass1 = (t4 - t1) / 1000;
  else seconds.pass2 = (t4 - t3) / 1000;
  return { scored, cut, tally, seconds };
}
