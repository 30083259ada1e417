/**
 * How much of the corpus looks like the task, read from the general sample by fits that the
 * share kept does not shape (the estimate itself: cut/share-estimate.ts).
 *
 * The self-trained model cannot say it: its last round learned the top `keep` of the sample as
 * task text and the rest, in-domain or not, as general, so its scores part the corpus where the
 * keep was. The first fit (the task alone against the sample) is not shaped by the keep, but it
 * too learned the sample's in-domain text as general, and ranks it only a little above the
 * rest. So the sample's segments are split in two folds by id; each fold is scored by a fit of
 * the task against the other fold's most general-like half under the first fit (where nearly
 * no in-domain text is), and never by a fit that saw it. The in-domain segments then score
 * apart from the rest where their words tell them, and the valley between reads their share.
 * The first fit's own segment means go with them: where the domain is scarce, that fit learned
 * nearly none of it as general, and its far tail gives the range a floor.
 * Without a valley, one more fit asks whether the most task-like part of those scores is the
 * task's own kind of text (a fit hardly tells the task from it) or text near it (told apart).
 * Two more fits of the chosen candidate, on a quarter of the sample each (three for a task of
 * titles, whose consensus moves read no first means), and without a valley one on half the task
 * against half the task-like part.
 */
import { estimateSampleShare, taskLikePart, type TaskShareReading } from '../cut/share-estimate.js';
import { auroc } from '../detect/metrics.js';
import { scoreFrom } from './raw-ngrams.js';
import { segmentMeans } from './self-training.js';
import type { FitContext, SelectorJSON, SentenceScorer } from './selector.js';

/** The share of the other fold's segments, most task-like first, left out of the general side: the in-domain text is there. */
const LEAVE_OUT = 0.5;

type ProbeHooks = { fit(task: string[], general: string[], seed: number): Promise<SelectorJSON>; load(json: SelectorJSON): Promise<SentenceScorer> };

export async function probeTaskShare(
  ctx: FitContext,
  hooks: ProbeHooks,
  given: Map<number, { mean: number; sentences: number[] }> | undefined,
): Promise<TaskShareReading> {
  if (!ctx.generalGroups || ctx.generalGroups.length !== ctx.general.length) return { none: 'the general sample has no segments (draw it with sampleSentences, as fit and filter do)', segments: 0 };
  // Moves by consensus read no mean of the first fit: one more fit gives it.
  const firstMeans = given ?? (await firstFitMeans(ctx, hooks));
  const sample: Segment[] = [];
  for (const fold of [0, 1]) {
    const other = [...firstMeans].filter(([g, m]) => g % 2 !== fold && Number.isFinite(m.mean)).sort((a, b) => a[1].mean - b[1].mean || a[0] - b[0]);
    const general = other.slice(Math.floor(LEAVE_OUT * other.length)).flatMap(([, m]) => m.sentences.map((i) => ctx.general[i] as string));
    const mine = [...firstMeans].filter(([g]) => g % 2 === fold);
    const index = mine.flatMap(([, m]) => m.sentences);
    if (general.length === 0 || index.length === 0) return { none: 'the sample is too small to split', segments: firstMeans.size };
    const own = index.map((i) => ctx.general[i] as string);
    const scorer = await hooks.load(await hooks.fit(ctx.task, general, ctx.seed + 101 + fold));
    let scores: Float64Array;
    try {
      scores = await scoreFrom(scorer, own, ctx.features);
    } finally {
      await scorer.dispose();
    }
    const groups = Uint32Array.from(index, (i) => (ctx.generalGroups as Uint32Array)[i] as number);
    for (const [g, m] of segmentMeans(own, scores, groups)) sample.push({ g, mean: m.mean, sentences: m.sentences.length, index: m.sentences.map((j) => index[j] as number) });
  }
  const first = [...firstMeans.values()].map((m) => ({ mean: m.mean, sentences: m.sentences.length }));
  const reading = estimateSampleShare(sample, first);
  if (reading.share?.estimate !== undefined || reading.none === undefined || sample.length === 0) return reading;
  const told = await partTold(ctx, hooks, sample);
  return told === undefined ? reading : estimateSampleShare(sample, first, told);
}

type Segment = { g: number; mean: number; sentences: number; index: number[] };

/** Task sentences to a piece, as the sample's segments (about 15 sentences). */
const PIECE = 15;
/** Fewer held-out task pieces or part segments than this read no AUROC. */
const MIN_HELD_OUT = 10;

/**
 * How well a fit of half the task (even sentences) against the most task-like part's even
 * segments tells the other half's pieces from the part's odd segments: the AUROC, 0.5 where
 * they score alike. Undefined where either side is too small to hold out.
 */
async function partTold(ctx: FitContext, hooks: ProbeHooks, sample: Segment[]): Promise<number | undefined> {
  const inPart = taskLikePart(sample);
  const part = sample.filter((_, i) => inPart[i]);
  const taught = part.filter((s) => s.g % 2 === 0).flatMap((s) => s.index.map((i) => ctx.general[i] as string));
  const held = part.filter((s) => s.g % 2 === 1);
  const heldTask = ctx.task.filter((_, i) => i % 2 === 1);
  const pieces = Math.floor(heldTask.length / PIECE);
  if (taught.length === 0 || held.length < MIN_HELD_OUT || pieces < MIN_HELD_OUT) return undefined;
  const taskText = heldTask.slice(0, pieces * PIECE);
  const heldText = held.flatMap((s) => s.index.map((i) => ctx.general[i] as string));
  const scorer = await hooks.load(await hooks.fit(ctx.task.filter((_, i) => i % 2 === 0), taught, ctx.seed + 501));
  let scores: Float64Array;
  try {
    scores = await scoreFrom(scorer, [...taskText, ...heldText], ctx.features);
  } finally {
    await scorer.dispose();
  }
  // Task pieces are groups 0..pieces-1, the part's held-out segments the groups after them.
  const groups = new Uint32Array(scores.length);
  for (let i = 0; i < taskText.length; i++) groups[i] = Math.floor(i / PIECE);
  let at = taskText.length;
  held.forEach((s, k) => s.index.forEach(() => (groups[at++] = pieces + k)));
  const means = segmentMeans([...taskText, ...heldText], scores, groups);
  const values: number[] = [];
  const labels: number[] = [];
  for (const [g, m] of means) {
    values.push(m.mean);
    labels.push(g < pieces ? 0 : 1);
  }
  // Lower scores are more task-like: the part's segments are the positives.
  return auroc(values, labels);
}

/** The segment means of the sample under a fit of the task alone against it (the self-training's first fit). */
async function firstFitMeans(ctx: FitContext, hooks: ProbeHooks): Promise<Map<number, { mean: number; sentences: number[] }>> {
  const scorer = await hooks.load(await hooks.fit(ctx.task, ctx.general, ctx.seed));
  try {
    return segmentMeans(ctx.general, await scoreFrom(scorer, ctx.general, ctx.features), ctx.generalGroups as Uint32Array);
  } finally {
    await scorer.dispose();
  }
}
