import { TadpoleError } from '../core/errors.js';
import type { Cut, KeepBy } from '../cut/exact.js';
import { cutLine } from './progress.js';
import type { KeepTally } from './keep-tally.js';

/** What pass 1 left that the cut line and the stats read, wherever it ran. */
export interface Scored {
  /** Segments scored, when the place knows them before its cut (a run directory's cut counts them itself). */
  segments?: number;
  moments: { mean: number; std: number };
  reader: Record<string, number>;
}

/** The three steps of a cut-mode run; the score, cut and emit commands each drive one. */
export type Stage = 'score' | 'cut' | 'emit';

/**
 * Where the two passes run (one stream, input ranges on the pool's threads, a shard of a
 * run directory) and where their state lives (a work dir, a run directory and its ledger).
 * A place knows how to score, cut and emit there; drivePasses alone decides what follows what.
 */
export interface PassPlace<C extends Cut = Cut> {
  /** Pass 1: every sentence scored, one spill record per segment. Undefined: this call scored nothing (a run directory already scored). */
  score(): Promise<Scored | undefined>;
  /** Between the passes, before the cut: refuses inputs that changed during pass 1. */
  betweenPasses?(): void;
  /** The exact cut over what pass 1 left. */
  cut(keep: number, keepBy: KeepBy): C;
  /** The cut an earlier call recorded, for an emit driven alone. */
  recordedCut?(): C;
  /** Pass 2 under `cut`: every kept run written. */
  emit(cut: C): Promise<KeepTally>;
  /** --weights: pass 2 writes every segment with its weight instead of cutting (one stream only). */
  weigh?(scored: Scored): Promise<KeepTally>;
  /** --threshold: a cut known before the run, so one pass scores and writes (one stream only). */
  stream?(cut: Pick<Cut, 'threshold' | 'tieId'>): Promise<{ scored: Scored; tally: KeepTally }>;
}

export interface DriveOptions {
  /** The share to keep and its unit: needed when the cut step runs. */
  keep?: { share: number; by: KeepBy };
  /** --weights: no cut; pass 2 weighs every segment (PassPlace.weigh). */
  weights?: boolean;
  /** --threshold: no cut and no second pass; segments scoring at most this are kept as they are scored (PassPlace.stream). */
  threshold?: number;
  /** Only these steps, in the order above; default all three. */
  stages?: readonly Stage[];
  progress?: (line: string) => void;
}

export interface Driven<C extends Cut> {
  scored?: Scored;
  cut?: C;
  tally?: KeepTally;
  seconds: { pass1: number; cut: number; pass2: number };
}

/**
 * The one driver of a run: pass 1 (score and spill), the exact cut, pass 2 (emit), at
 * `place`; or, with --weights, pass 2 weighing every segment; or, with --threshold, one
 * pass that keeps as it scores. Filter (one stream or input ranges), filter --run-dir, the
 * score, cut and emit commands and the library all come through here.
 */
export async function drivePasses<C extends Cut>(place: PassPlace<C>, o: DriveOptions): Promise<Driven<C>> {
  const does = (s: Stage) => !o.stages || o.stages.includes(s);
  const seconds = { pass1: 0, cut: 0, pass2: 0 };
  const out: Driven<C> = { seconds };
  const t1 = performance.now();
  if (o.threshold !== undefined) {
    if (!place.stream) throw new TadpoleError('TADPOLE_INTERNAL', '--threshold streams from one stream only');
    const r = await place.stream({ threshold: o.threshold, tieId: Number.MAX_SAFE_INTEGER });
    out.scored = r.scored;
    out.tally = r.tally;
    seconds.pass1 = (performance.now() - t1) / 1000;
    return out;
  }
  if (does('score')) {
    const scored = await place.score();
    if (scored) out.scored = scored;
  }
  const t2 = performance.now();
  seconds.pass1 = (t2 - t1) / 1000;
  if (o.weights) {
    if (!place.weigh || !out.scored) throw new TadpoleError('TADPOLE_INTERNAL', '--weights is written from one stream only');
    place.betweenPasses?.();
    out.tally = await place.weigh(out.scored);
    seconds.pass2 = (performance.now() - t2) / 1000;
    return out;
  }
  if (does('cut')) {
    if (!o.keep) throw new TadpoleError('TADPOLE_INTERNAL', 'a cut needs the share to keep');
    place.betweenPasses?.();
    // The cut reads the spills on this thread: one line says what it is doing while it does.
    o.progress?.(cutLine(out.scored?.segments, o.keep.share, o.keep.by));
    out.cut = place.cut(o.keep.share, o.keep.by);
  } else if (does('emit')) {
    out.cut = place.recordedCut?.();
  }
  const t3 = performance.now();
  seconds.cut = (t3 - t2) / 1000;
  if (does('emit') && out.cut) {
    out.tally = await place.emit(out.cut);
    seconds.pass2 = (performance.now() - t3) / 1000;
  }
  return out;
}
