/**
 * Self-training by segments.
 *
 * A task is rarely worded like the corpus's own in-domain text: PhraseBank's Finnish company
 * releases against 1987 Reuters wires, AG News snippets against BBC articles. A model fitted
 * on the task alone ranks that text only a little above the rest, but a segment's mean over
 * 15 sentences ranks it well: on the suite the model's top 5% of the sample's segments were
 * 87-100% in-domain for every task but one. So after the first fit, the sample segments
 * whose mean score is lowest join the task side, the rest stay on the general side, and the
 * method is fitted again; each round moves `expand` more of the sample (5%, 10%, 15%, 20%). The
 * model then learns the corpus's own wording for the task's domain.
 *
 * Judging by segments, not sentences, is what makes it safe: one sentence's score is noise,
 * a segment's is what the cut keeps (the classifier's old per-sentence self-training, moving
 * 10% then 20% of the sentences, drifted to other domains when the in-domain text was a tenth
 * of the corpus: docs/research.md, "Self-training by segments").
 *
 * Without segments (a caller of the library that passes a plain list of general sentences)
 * there is no self-training: moving single sentences at these shares drifted (on the
 * hard-wrapped forum mix, 85.7-87.8% kept in-domain against 92.6-96.1% by segments or without
 * self-training; docs/research.md). The model records it and the fit log says so.
 */
import { sentenceWeight } from '../segment/context.js';
import { scoreFrom } from './raw-ngrams.js';
import type { FitContext, SelectorJSON, SentenceScorer } from './selector.js';

export const SELF_TRAINING_DEFAULTS = {
  /**
   * Rounds after the first fit: four, so that the moves add up to the share kept; a fifth
   * moves more than there is when the in-domain text is scarce (docs/research.md,
   * "Self-training by segments"; figures in docs/methods/default.md).
   */
  rounds: 4,
  /**
   * Share of the sample's sentences moved to the task side in round r (1-based): r * expand.
   * When the share to keep is known (filter --keep, fit --keep K) expand is K / 4, so the
   * moves add up to the share kept: larger fixed moves take more than there is when the
   * in-domain text is scarce, and drift (docs/research.md, "Self-training by segments").
   * This is K / 4 for the default --keep 0.2.
   */
  expand: 0.05,
  /**
   * How segments are ranked for a move (MOVE_BY below). Consensus lifts the worst mix where the
   * in-domain text is plentiful but loses where it is scarce, so it is an option
   * (docs/research.md, "Consensus moves").
   */
  moveBy: 'mean' as MoveBy,
};

/**
 * How the segments to move are ranked. `mean`: by the selector's segment mean (for an
 * ensemble, the sum of its parts' z-scores). `consensus`: by the worse of the segment's
 * ranks under each part of an ensemble, so a segment moves only when every view ranks it
 * high (co-training's guard against one view pulling in its own mistakes); a selector with
 * one part ranks by its mean.
 */
export const MOVE_BY = ['mean', 'consensus'] as const;
export type MoveBy = (typeof MOVE_BY)[number];

export interface SelfTrainingRound {
  /** Sample segments moved to the task side, and their sentences. */
  segments: number;
  sentences: number;
}

export interface SelfTrainingRecord {
  rounds: number;
  expand: number;
  /** What `expand` is a share of; absent in older models, whose moves counted sentences. */
  unit?: MoveUnit;
  /** Absent in older models, fitted before it was an option: those moved by the mean. */
  moveBy?: MoveBy;
  /** False when the sample had no segments: then nothing was moved. */
  bySegments: boolean;
  moved: SelfTrainingRound[];
  /** Why no round was made although rounds were asked for (the gate of the caller: auto.ts). */
  skipped?: string;
}

/**
 * What a move's size counts: the unit the keep counts. A keep of bytes sized in sentences moves
 * more text than the keep where the domain's sentences are longer than the corpus's
 * (documentation among manual pages; docs/research.md, "Scarce technical text"). Tokens are
 * counted as bytes: the two are near proportional.
 */
export const MOVE_UNITS = ['sentences', 'bytes'] as const;
export type MoveUnit = (typeof MOVE_UNITS)[number];

/** Each sentence's weight in `unit`. */
export function unitWeights(sentences: readonly string[], unit: MoveUnit): Float64Array {
  return Float64Array.from(sentences, (s) => (unit === 'bytes' ? Buffer.byteLength(s, 'utf8') : 1));
}

export interface SelfTrainingHooks {
  /** Fit the method on these task and general sentences. */
  fit(task: string[], general: string[], seed: number): Promise<SelectorJSON>;
  /** Open a fitted selector to score the sample. */
  load(json: SelectorJSON): Promise<SentenceScorer>;
  /**
   * A second judge of each move (a style view: style-view.ts): scores of the sample's
   * sentences (lower = more task-like) from a model fitted on these sides. A segment it ranks
   * past `guardShare` of the segments (0.5 unless given; auto's style=guard gives 0.3) is not
   * moved, however task-like the selector finds it.
   */
  guard?(task: string[], general: string[], seed: number): Promise<Float64Array>;
  /**
   * Asked once, after the first fit and before the first move: a reason not to move at all
   * (then the first fit is the result), or undefined to go on.
   */
  proceed?(): Promise<string | undefined>;
}

/** Length-weighted mean score of each segment of the sample, by segment id. */
export function segmentMeans(sentences: string[], scores: Float64Array, groups: ArrayLike<number>): Map<number, { mean: number; sentences: number[] }> {
  const acc = new Map<number, { sum: number; weight: number; sentences: number[] }>();
  for (let i = 0; i < sentences.length; i++) {
    const g = groups[i] as number;
    const w = sentenceWeight((sentences[i] as string).length);
    const s = scores[i] as number;
    const e = acc.get(g) ?? { sum: 0, weight: 0, sentences: [] };
    // A non-finite score makes its segment's mean +Infinity: it is never moved to the task side.
    e.sum += Number.isFinite(s) ? w * s : Infinity;
    e.weight += w;
    e.sentences.push(i);
    acc.set(g, e);
  }
  const out = new Map<number, { mean: number; sentences: number[] }>();
  for (const [g, e] of acc) out.set(g, { mean: e.sum / e.weight, sentences: e.sentences });
  return out;
}

/** Segment ids, most task-like first (lowest mean; ties by id). */
export function meanOrder(means: Map<number, { mean: number }>): number[] {
  return [...means.keys()].sort((a, b) => means.get(a)!.mean - means.get(b)!.mean || a - b);
}

/**
 * Segment ids, most task-like first, by the worse of their ranks under each view (ties: the
 * sum of the ranks, then the id). A segment with a non-finite mean under any view comes last.
 */
export function consensusOrder(views: Map<number, { mean: number }>[]): number[] {
  const ids = [...(views[0]?.keys() ?? [])];
  const ranks = views.map((means) => {
    // NaN would make the comparator inconsistent: non-finite means sort as +Infinity.
    const key = (g: number) => (Number.isFinite(means.get(g)!.mean) ? means.get(g)!.mean : Infinity);
    const order = [...ids].sort((a, b) => key(a) - key(b) || a - b);
    return new Map(order.map((g, k) => [g, key(g) === Infinity ? Infinity : k]));
  });
  const worst = new Map(ids.map((g) => [g, Math.max(...ranks.map((r) => r.get(g)!))]));
  const total = new Map(ids.map((g) => [g, ranks.reduce((acc, r) => acc + r.get(g)!, 0)]));
  return ids.sort((a, b) => worst.get(a)! - worst.get(b)! || total.get(a)! - total.get(b)! || a - b);
}

/** Segment ids whose guard mean ranks within the first `share` of the segments (the most task-like). */
export function guardAllows(guardMeans: Map<number, { mean: number }>, share: number): Set<number> {
  const key = (g: number) => (Number.isFinite(guardMeans.get(g)!.mean) ? guardMeans.get(g)!.mean : Infinity);
  const order = [...guardMeans.keys()].sort((a, b) => key(a) - key(b) || a - b);
  return new Set(order.slice(0, Math.ceil(share * order.length)).filter((g) => key(g) !== Infinity));
}

/**
 * The rounds; `firstMeans` is the first fit's segment means of the sample (the task alone
 * against it, before any move: what share-probe.ts reads), when a round ranked by the mean.
 */
export async function selfTrain(ctx: FitContext, hooks: SelfTrainingHooks, opts: { rounds: number; expand: number; moveBy?: MoveBy; guardShare?: number; unit?: MoveUnit }): Promise<{ selector: SelectorJSON; record: SelfTrainingRecord; firstMeans?: Map<number, { mean: number; sentences: number[] }> }> {
  const moveBy = opts.moveBy ?? SELF_TRAINING_DEFAULTS.moveBy;
  const bySegments = !!ctx.generalGroups && ctx.generalGroups.length === ctx.general.length;
  const groups = ctx.generalGroups as Uint32Array;
  const unit = opts.unit ?? 'sentences';
  const weights = unitWeights(ctx.general, unit);
  const total = weights.reduce((a, w) => a + w, 0);
  let selector = await hooks.fit(ctx.task, ctx.general, ctx.seed);
  let sides = { task: ctx.task, general: ctx.general };
  const moved: SelfTrainingRound[] = [];
  let firstMeans: Map<number, { mean: number; sentences: number[] }> | undefined;
  if (!bySegments && opts.rounds > 0) ctx.log?.('self-training skipped: the general sample has no segments (draw it with sampleSentences, as fit and filter do)');
  const skipped = bySegments && opts.rounds > 0 && hooks.proceed ? await hooks.proceed() : undefined;
  if (skipped) ctx.log?.(`self-training skipped: ${skipped}`);
  for (let r = 0; bySegments && !skipped && r < opts.rounds; r++) {
    const scorer = await hooks.load(selector);
    let views: Float64Array[];
    try {
      // Consensus needs the parts apart; then the combined score is not needed at all.
      const parts = moveBy === 'consensus' && scorer.scoreViews ? await scorer.scoreViews(ctx.general) : [];
      views = parts.length > 1 ? parts : [await scoreFrom(scorer, ctx.general, ctx.features)];
    } finally {
      await scorer.dispose();
    }
    const viewMeans = views.map((v) => segmentMeans(ctx.general, v, groups));
    const means = viewMeans[0]!;
    if (r === 0 && viewMeans.length === 1) firstMeans = means;
    const order =
      viewMeans.length > 1
        ? consensusOrder(viewMeans)
        : meanOrder(means);
    const allowed = hooks.guard ? guardAllows(segmentMeans(ctx.general, await hooks.guard(sides.task, sides.general, ctx.seed + r), groups), opts.guardShare ?? 0.5) : undefined;
    const want = Math.round(opts.expand * (r + 1) * total);
    const toTask = new Uint8Array(ctx.general.length);
    let n = 0;
    let size = 0;
    let segments = 0;
    for (const g of order) {
      if (size >= want) break;
      const m = means.get(g)!;
      if (viewMeans.some((v) => !Number.isFinite(v.get(g)!.mean))) break;
      if (allowed && !allowed.has(g)) continue;
      const w = m.sentences.reduce((a, i) => a + (weights[i] as number), 0);
      for (const i of m.sentences) toTask[i] = 1;
      n += m.sentences.length;
      size += w;
      segments++;
    }
    // Nothing to move, or everything: another fit would learn nothing new.
    if (n === 0 || n === ctx.general.length) break;
    const task = [...ctx.task];
    const general: string[] = [];
    ctx.general.forEach((s, i) => (toTask[i] ? task : general).push(s));
    moved.push({ segments, sentences: n });
    const ofBytes = unit === 'bytes' ? `, ${((100 * size) / total).toFixed(1)}% of the sample's bytes` : '';
    ctx.log?.(`self-training round ${r + 1}: ${segments} sample segments (${n} sentences${ofBytes}) taken as task text`);
    sides = { task, general };
    selector = await hooks.fit(task, general, ctx.seed + r + 1);
  }
  return { selector, record: { rounds: opts.rounds, expand: opts.expand, unit, moveBy, bySegments, moved, ...(skipped ? { skipped } : {}) }, ...(firstMeans ? { firstMeans } : {}) };
}
