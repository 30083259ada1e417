/**
 * `contrast`, the default method (`auto` is its older name, still accepted, and the name in
 * model files written before): the task contrasted with a sample of the corpus. Task
 * artefacts are stripped (artefacts.ts), the candidate (one, by default: the z-score ensemble
 * of a task-vs-corpus classifier and DSIR) is measured on held-out sentences, then
 * self-trained by corpus segments (self-training.ts).
 *
 * Choosing the selector per task (research: --option candidates=a,b). No single recipe wins on every domain (each
 * of DSIR, a task-vs-corpus classifier and the LSA/Moore-Lewis ensemble fails on some
 * mix), so the choice is made on the task itself: hold out a seeded share of the task
 * sentences and of the general (corpus) sample, fit every candidate on the rest, and
 * measure how well each ranks the held-out task sentences above the held-out corpus
 * sentences (AUROC; 0.5 = random). The best candidate is refitted on everything. The
 * choice and every candidate's figure go into the model file; a best AUROC near 0.5 is
 * reported as a warning, because then nothing here can tell the task from the corpus.
 *
 * A candidate is a method usable as an ensemble component (classifier, dsir, moore-lewis,
 * distance) or a tadpole detector name, or several joined by '+': a z-score ensemble
 * (ensemble.ts), normalised on the held-out corpus sentences here as it is on the general
 * sample when refitted.
 */
import { Rng } from '../core/rng.js';
import { TadpoleError } from '../core/errors.js';
import { auroc } from '../detect/metrics.js';
import { factoryOf, fitEnsemble, loadEnsemble, meanStd } from './ensemble.js';
import { formatComponentSpec, parseComponentSpec } from './component-spec.js';
import { CLASSIFIER_DEFAULTS } from './classifier.js';
import { FeatureCache } from './feature-cache.js';
import { scoreFrom } from './raw-ngrams.js';
import type { AutoChoice, CandidateFigure, ChoiceJob } from './choice.js';
import { needGeneral, needTask } from './options.js';
import { optionReader, type OptionDecl, type OptionOwner } from '../core/option-decl.js';
import { MOVE_BY, SELF_TRAINING_DEFAULTS, selfTrain, type MoveBy, type MoveUnit } from './self-training.js';
import { AVOID_SHARE_OPTION, avoidShareOf, avoidSide, describeAvoid } from './avoid.js';
import { describeStyleView, STYLE_COMPONENT, STYLE_GUARD_SHARE, STYLE_MODES, withStyleView, type StyleMode } from './style-view.js';
import { ARTEFACT_MODES, describeArtefacts, findTaskArtefacts, stripArtefacts } from './artefacts.js';
import { describeFunctionWords, FUNCTION_WORD_MODES, functionWordFigures, telegraphicTask, withoutFunctionWords, type FunctionWordMode } from './telegraphic.js';
import type { FitContext, LoadContext, SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';
import { probeTaskShare } from './share-probe.js';
import { BOUNDARY_DEFAULTS, BOUNDARY_MODES, boundaryApplies, boundaryBand, describeBoundary, type BoundaryMode, type BoundaryRecord } from './boundary.js';
import { describeTaskShare } from '../cut/share-estimate.js';

export type { AutoChoice } from './choice.js';

export const AUTO_DEFAULTS = {
  /**
   * One candidate, the z-score ensemble of the classifier (word 1-2-grams + char 5-grams,
   * digits folded, one 5% self-training move of its own: classifier.ts) and DSIR per n-gram
   * on the same features. A pair rather than one scorer because each single recipe collapses
   * on some task, and a discriminative and a generative scorer rarely fail on the same one;
   * choosing among candidates by held-out AUROC did worse, since a classifier that latches
   * onto the task's own wording separates held-out task sentences and still misses the
   * corpus's in-domain text. With one candidate auto still measures it, so a near-random task
   * is reported. A component takes its own options after colons (component-spec.ts). Why each
   * part, with the figures: docs/methods/default.md and docs/research.md ("Subword features",
   * "DSIR per n-gram", "Self-training by segments").
   * Wider lists: --option candidates=classifier,dsir,distance,classifier+dsir+distance
   */
  candidates: 'classifier:rounds=1:expand=0.05+dsir:features=chars-folded:norm=mean',
  /** Held-out share of task and general sentences for the AUROC. */
  holdout: 0.2,
  /** Below this best held-out AUROC the task is near random against the corpus: warn. */
  warnBelow: 0.7,
  /** Fewer held-out task sentences than this make the AUROC too noisy to use (±0.1 at 10). */
  minHeldOut: 10,
  /**
   * selfTrain=auto: no self-training when the median held-out task sentence ranks past this
   * share of the keep among held-out corpus sentences. There the moves, sized by the keep, take
   * text the model cannot tell from the task's neighbours, and each round teaches it its own
   * mistakes (documentation at 1-4% among other technical text: every round lost precision,
   * 67.7 -> 51.8% on Git's); where self-training helps the task's median sits far inside the keep
   * (docs/research.md, "Scarce technical text").
   */
  gate: 1 / 5,
  /**
   * The gate applies to keeps up to this share. A larger keep may be a small part of a plentiful
   * domain, whose own text then outranks the task's median without any drift (half biomedical
   * abstracts at a keep of 20%: the gate would have closed on a self-training that helps).
   */
  gateMaxKeep: 0.05,
} as const;

/** Whether the self-training is gated by where the held-out task ranks (AUTO_DEFAULTS.gate). */
const SELF_TRAIN_MODES = ['auto', 'always'] as const;

/** The units of filter's --keep-by; the moves count tokens as bytes. */
const KEEP_UNITS = ['bytes', 'sentences', 'tokens'] as const;

/** Every option the default reads; the research knobs it leaves unset are marked experimental. */
export const CONTRAST_OPTIONS: readonly OptionDecl[] = [
  { name: 'rounds', type: 'int', default: SELF_TRAINING_DEFAULTS.rounds, min: 0, help: 'self-training rounds (0: none): corpus segments that score most task-like join the task side' },
  { name: 'keep', type: 'number', defaultText: "filter's --keep (0.2 with --general)", min: 0, max: 1, minOpen: true, maxOpen: true, help: 'the share you will keep, which sizes the self-training: a quarter of it per round (--keep)' },
  { name: 'keepBy', type: 'choice', default: 'bytes', choices: KEEP_UNITS, help: "what keep counts (filter's --keep-by): the moves are sized in it (tokens as bytes)" },
  { name: 'selfTrain', type: 'choice', default: 'auto', choices: SELF_TRAIN_MODES, help: "auto: at a keep of 5% or less, no self-training where the task's own held-out text ranks past a fifth of the keep (the moves would drift); always" },
  { name: 'moveBy', type: 'choice', defaultText: 'mean; consensus for a task of titles', choices: MOVE_BY, help: 'segments move by the mean of the two scorers, or only when both rank them high' },
  { name: 'artefacts', type: 'choice', default: 'auto', choices: ARTEFACT_MODES, help: 'auto strips tokens the task file adds and the corpus lacks (labels, ids, prefixes); keep keeps them' },
  { name: 'functionWords', type: 'choice', default: 'auto', choices: FUNCTION_WORD_MODES, help: "auto leaves function words out when the task has well under the corpus sample's share of them (titles, terse notes); keep, skip" },
  AVOID_SHARE_OPTION,
  { name: 'boundary', type: 'choice', default: 'auto', choices: BOUNDARY_MODES, help: 'auto: at a keep of 2.5% or less, a second self-training weighs the sample text ranked just past the keep on the general side, and where the gate stops self-training two refits do; off' },
  { name: 'expand', type: 'number', defaultText: `keep / 4 (${SELF_TRAINING_DEFAULTS.expand})`, min: 0, max: 1, minOpen: true, maxOpen: true, help: 'share of the sample moved per round (cumulative; rounds x expand under 1)', experimental: true },
  { name: 'candidates', type: 'string', default: AUTO_DEFAULTS.candidates, help: "scorers measured on held-out sentences, the best kept: a,b,a+b ('+': z-score ensemble; name:key=value for a component's options)", experimental: true },
  { name: 'holdout', type: 'number', default: AUTO_DEFAULTS.holdout, min: 0, max: 1, minOpen: true, maxOpen: true, help: 'share of task and sample sentences held out to measure the candidates', experimental: true },
  { name: 'style', type: 'choice', default: 'off', choices: STYLE_MODES, help: 'on adds a style view (function words, word shapes) to every candidate; guard lets it only veto moves', experimental: true },
  { name: 'guardShare', type: 'number', default: STYLE_GUARD_SHARE, min: 0, max: 1, minOpen: true, help: 'style=guard: a move is vetoed when the style view ranks it past this share', experimental: true },
];

export const CONTRAST_OWNER: OptionOwner = { label: 'method contrast', options: CONTRAST_OPTIONS };

export function parseCandidates(v: unknown): string[] {
  const names = String(v).split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new TadpoleError('TADPOLE_USAGE', `contrast: no candidates in "${String(v)}"; e.g. candidates=classifier,dsir,classifier+dsir`);
  for (const n of names) if (n.split('+').some((p) => p === 'auto' || p === 'ensemble' || p === '')) throw new TadpoleError('TADPOLE_USAGE', `contrast: invalid candidate "${n}"`);
  return names;
}

/**
 * A candidate whose classifier parts move at most a quarter of the share kept in their own
 * per-sentence self-training (classifier.ts `expand`), as the segment rounds do: at a keep of
 * 20% or more the default's 5% move is unchanged; at 1% its move of 5% of the sample's
 * sentences took mostly the domain's neighbours (docs/research.md, "Scarce technical text").
 * A keep of 0: no move at all (rounds=0).
 */
export function withMovesSized(candidate: string, keep: number | undefined): string {
  if (keep === undefined || !(keep >= 0 && keep < 1)) return candidate;
  return candidate
    .split('+')
    .map((part) => {
      const { name, options } = parseComponentSpec(part);
      const expand = options.expand !== undefined ? Number(options.expand) : CLASSIFIER_DEFAULTS.expand;
      if (name !== 'classifier' || options.rounds === '0' || !(expand > keep / 4)) return part;
      const sized = keep === 0 ? { ...options, rounds: '0' } : { ...options, expand: String(Number((keep / 4).toPrecision(6))) };
      return formatComponentSpec({ name, options: sized });
    })
    .join('+');
}

function split<T>(xs: T[], share: number, seed: number): { train: T[]; held: T[] } {
  const k = Math.round(xs.length * share);
  const heldIdx = new Set(new Rng(seed).sample(xs.length, k));
  const train: T[] = [];
  const held: T[] = [];
  xs.forEach((x, i) => (heldIdx.has(i) ? held : train).push(x));
  return { train, held };
}

/** Fit one component on the training part and score the held-out rows (task first, then general). */
async function heldOutScores(name: string, ctx: FitContext, train: { task: string[]; general: string[] }, held: string[]): Promise<Float64Array> {
  const { factory, options } = await factoryOf(name);
  const json = await factory.fit({ ...ctx, task: train.task, general: train.general, options: { ...options } });
  const scorer = await factory.load(json, { ...(ctx.embedder ? { embedder: ctx.embedder } : {}), seed: ctx.seed, options: {} });
  try {
    return await scoreFrom(scorer, held, ctx.features);
  } finally {
    await scorer.dispose();
  }
}

/** Of held-out scores (task first, then general), the share of the general below the task's median. */
function taskMedianRank(scores: Float64Array, tasks: number): number {
  const task = Array.from(scores.subarray(0, tasks)).sort((a, b) => a - b);
  const median = task[Math.floor(task.length / 2)] as number;
  const general = scores.subarray(tasks);
  let below = 0;
  for (const s of general) if (s < median) below++;
  return general.length > 0 ? below / general.length : 0;
}

/** Measure every candidate on held-out data; the best one (ties: the earlier listed). */
export async function chooseCandidate(ctx: FitContext, candidates: string[], holdout: number): Promise<AutoChoice> {
  const t = split(ctx.task, holdout, ctx.seed + 11);
  const g = split(ctx.general, holdout, ctx.seed + 12);
  const held = [...t.held, ...g.held];
  const labels = Uint8Array.from(held, (_, i) => (i < t.held.length ? 0 : 1));
  const components = new Map<string, Float64Array>();
  const figures: CandidateFigure[] = [];
  for (const cand of candidates) {
    const parts = cand.split('+');
    for (const p of parts) {
      if (!components.has(p)) components.set(p, await heldOutScores(p, ctx, { task: t.train, general: g.train }, held));
    }
    let scores: Float64Array;
    if (parts.length === 1) scores = components.get(cand) as Float64Array;
    else {
      scores = new Float64Array(held.length);
      for (const p of parts) {
        const s = components.get(p) as Float64Array;
        const { mean, std } = meanStd(s.subarray(t.held.length));
        for (let i = 0; i < s.length; i++) scores[i] = (scores[i] as number) + ((s[i] as number) - mean) / std;
      }
    }
    figures.push({ name: cand, auroc: auroc(scores, labels), taskMedianRank: taskMedianRank(scores, t.held.length) });
  }
  let best = figures[0] as CandidateFigure;
  for (const f of figures) if (f.auroc > best.auroc) best = f;
  const choice: AutoChoice = { chosen: best.name, candidates: figures, heldOutTask: t.held.length, heldOutGeneral: g.held.length };
  if (!(best.auroc >= AUTO_DEFAULTS.warnBelow)) {
    choice.warning = `the best scorer ranks held-out task sentences above corpus sentences with AUROC ${best.auroc.toFixed(3)} (0.5 = random, 1 = perfect): the task is hard to tell from this corpus, and the kept text will be close to a random sample. Give more or more typical task text, or a general sample without task-like text.`;
  }
  return choice;
}

/** The measure of a ChoiceJob, on this thread. */
export function chooseFor(job: ChoiceJob): Promise<AutoChoice> {
  return chooseCandidate({ task: job.task, general: job.general, seed: job.seed, options: {} }, job.candidates, job.holdout);
}

/** The chosen scorer's held-out AUROC and the sentences it was measured on; absent when unmeasured. */
export function heldOutOf(c: AutoChoice): { auroc: number; task: number; general: number } | undefined {
  const figure = c.candidates.find((f) => f.name === c.chosen);
  return figure ? { auroc: figure.auroc, task: c.heldOutTask, general: c.heldOutGeneral } : undefined;
}

/** The held-out measure in words, without the scorers' internal names (describeChoice has them). */
export function describeChoiceInWords(c: AutoChoice): string {
  const h = heldOutOf(c);
  if (!h) return 'contrast: held-out AUROC not measured (too few sentences to set some aside)';
  const of = c.candidates.length > 1 ? `, the best of ${c.candidates.length} scorers` : '';
  return `contrast: held-out AUROC ${h.auroc.toFixed(3)} (${h.task} task vs ${h.general} corpus sentences set aside; 1 tells them apart, 0.5 is chance)${of}`;
}

export function describeChoice(c: AutoChoice): string {
  const figs = c.candidates.map((f) => `${f.name} ${f.auroc.toFixed(3)}`).join(', ');
  return `contrast: held-out AUROC (${c.heldOutTask} task vs ${c.heldOutGeneral} corpus sentences): ${figs}; chose ${c.chosen}`;
}

export async function fitAuto(given: FitContext): Promise<SelectorJSON> {
  needTask(given.task, 'contrast');
  needGeneral(given.general, 'contrast (it contrasts the task with a corpus sample)');
  const read = optionReader(CONTRAST_OWNER, given.options);
  // Tokens the task file adds and the corpus lacks would separate the task alone (artefacts.ts).
  const artefacts = read.string('artefacts') === 'keep' ? [] : findTaskArtefacts(given.task, given.general);
  if (artefacts.length > 0) given.log?.(describeArtefacts(artefacts));
  // Every fit below hashes the same sentences: each is hashed once (feature-cache.ts).
  const features = given.features ?? new FeatureCache();
  const ctx: FitContext = { ...given, ...(artefacts.length > 0 ? { task: given.task.map((s) => stripArtefacts(s, artefacts)) } : {}), features };
  const functionWords = functionWordFigures(ctx.task, ctx.general, read.string<FunctionWordMode>('functionWords'));
  ctx.log?.(describeFunctionWords(functionWords));
  const asked = parseCandidates(read.string('candidates'));
  const plain = functionWords.skipped ? asked.map(withoutFunctionWords) : asked;
  const style = read.string<StyleMode>('style');
  // The share the user will keep sizes the moves (a quarter of it per round): filter passes
  // its --keep when it completes a model; fit takes --keep SHARE.
  const keep = read.maybeNumber('keep');
  const unsized = withStyleView(plain, style, functionWords.skipped);
  const candidates = unsized.map((c) => withMovesSized(c, keep));
  if (style !== 'off') ctx.log?.(describeStyleView(style, functionWords.skipped));
  const holdout = read.number('holdout');
  let choice: AutoChoice;
  /** Set when the measure runs aside: the self-training, which needs no choice, goes on meanwhile. */
  let measured: Promise<AutoChoice> | undefined;
  if (Math.round(ctx.task.length * holdout) < AUTO_DEFAULTS.minHeldOut || Math.round(ctx.general.length * holdout) < AUTO_DEFAULTS.minHeldOut) {
    choice = {
      chosen: candidates[0] as string,
      candidates: [],
      heldOutTask: 0,
      heldOutGeneral: 0,
      warning: `${ctx.task.length} task and ${ctx.general.length} general sentences are too few to hold out ${AUTO_DEFAULTS.minHeldOut} of each, so nobody measured whether the scorer can tell the task from the corpus: it may keep close to a random sample. Give more task text and a larger general sample.`,
    };
    ctx.log?.(`contrast: using ${choice.chosen}, unmeasured`);
    ctx.log?.(`warning: ${choice.warning}`);
  } else if (candidates.length === 1 && ctx.chooseAside && !ctx.embedder) {
    // One candidate is fitted whatever it measures, so the measure only reports: it runs on
    // another thread while this one self-trains (the default's completion with --workers 2).
    measured = ctx.chooseAside({ task: ctx.task, general: ctx.general, seed: ctx.seed, candidates, holdout });
    measured.catch(() => undefined); // awaited after the self-training, which may throw first
    choice = { chosen: candidates[0] as string, candidates: [], heldOutTask: 0, heldOutGeneral: 0 };
  } else {
    choice = await chooseCandidate(ctx, candidates, holdout);
    ctx.log?.(describeChoice(choice));
    if (choice.warning) ctx.log?.(`warning: ${choice.warning}`);
  }
  // Text the user does not want kept weighs on the general side of every fit (avoid.ts); the
  // held-out AUROC above still measures the task against the corpus sample alone.
  const avoid = ctx.avoid?.length ? avoidSide(ctx.avoid, ctx.general.length, avoidShareOf(ctx.options), ctx.seed + 13) : undefined;
  if (avoid) ctx.log?.(describeAvoid(avoid.record, ctx.general.length));
  /** Fit a candidate (one component, or an ensemble joined by '+') on these sides. */
  const fitCandidate = async (candidate: string, task: string[], general: string[], seed: number): Promise<SelectorJSON> => {
    const at: FitContext = { ...ctx, task, general: avoid ? [...general, ...avoid.side] : general, seed };
    const parts = candidate.split('+');
    if (parts.length > 1) return { method: 'ensemble', params: { components: parts }, state: await fitEnsemble(at, parts, {}) };
    const { factory, options } = await factoryOf(candidate);
    return factory.fit({ ...at, options: { ...options } });
  };
  const fitChosen = (task: string[], general: string[], seed: number) => fitCandidate(choice.chosen, task, general, seed);
  const loadOpts: LoadContext = { ...(ctx.embedder ? { embedder: ctx.embedder } : {}), seed: ctx.seed, options: {} };
  const rounds = read.number('rounds');
  const expandGiven = read.maybeNumber('expand');
  if (expandGiven !== undefined && !(expandGiven * Math.max(1, rounds) < 1)) throw new TadpoleError('TADPOLE_USAGE', `invalid expand ${expandGiven} for method contrast: rounds x expand must stay under 1 (rounds ${rounds})`);
  const expand = expandGiven ?? (keep === undefined ? SELF_TRAINING_DEFAULTS.expand : keep / 4);
  // A task of titles moves by consensus: on the title mixes it raised the mean and the worst in
  // every setting measured, where for running text consensus loses when the domain is scarce
  // (docs/research.md, "Titles move by consensus").
  const titlesDefault = functionWords.skipped && ctx.options.moveBy === undefined;
  const moveBy = read.maybeString<MoveBy>('moveBy') ?? (functionWords.skipped ? 'consensus' : SELF_TRAINING_DEFAULTS.moveBy);
  if (titlesDefault) ctx.log?.(`contrast: ${telegraphicTask(functionWords)} moves segments by consensus, every view ranking them high (--option moveBy=mean for the mean)`);
  // style=guard: a style classifier, fitted on each round's sides, vetoes moves it ranks past guardShare.
  const guarded = style === 'guard' && !functionWords.skipped;
  const guardShare = guarded ? read.number('guardShare') : undefined;
  const guard = async (task: string[], general: string[], seed: number): Promise<Float64Array> => {
    const scorer = await loadSelector(await fitCandidate(STYLE_COMPONENT, task, general, seed), loadOpts);
    try {
      return await scorer.score(ctx.general);
    } finally {
      await scorer.dispose();
    }
  };
  const load = (json: SelectorJSON) => loadSelector(json, loadOpts);
  const keepBy = read.string<(typeof KEEP_UNITS)[number]>('keepBy');
  const unit: MoveUnit = keepBy === 'sentences' ? 'sentences' : 'bytes';
  const trainOpts = { rounds, expand, moveBy, unit, ...(guardShare !== undefined ? { guardShare } : {}) };
  // The gate needs the held-out measure: when it runs aside, the first fit goes on meanwhile.
  const gated = read.string<(typeof SELF_TRAIN_MODES)[number]>('selfTrain') === 'auto';
  const proceed = async (): Promise<string | undefined> => {
    const measure = measured ? await measured : choice;
    const figure = measure.candidates.find((f) => f.name === measure.chosen);
    if (keep === undefined || keep > AUTO_DEFAULTS.gateMaxKeep) return undefined;
    if (figure?.taskMedianRank === undefined || !(figure.taskMedianRank > AUTO_DEFAULTS.gate * keep)) return undefined;
    return `the task's held-out median sentence ranks past ${(100 * figure.taskMedianRank).toFixed(2)}% of held-out corpus sentences, more than a fifth of the ${(100 * keep).toFixed(2)}% kept: moves sized by the keep would take text the model cannot tell from the task's (--option selfTrain=always to self-train anyway)`;
  };
  const first = await selfTrain(ctx, { fit: fitChosen, load, ...(guarded ? { guard } : {}), ...(gated ? { proceed } : {}) }, trainOpts);
  // Gated: the pair without the classifier's own per-sentence move either (one more fit).
  if (first.record.skipped) first.selector = await fitCandidate(withMovesSized(choice.chosen, 0), ctx.task, ctx.general, ctx.seed);
  // How much of the corpus looks like the task, from fits the keep does not size (share-probe.ts):
  // the chosen candidate as asked, before the keep sized its classifier's move.
  const asAsked = unsized[candidates.indexOf(choice.chosen)] ?? choice.chosen;
  const fitAsAsked = (task: string[], general: string[], seed: number) => fitCandidate(asAsked, task, general, seed);
  const taskShare = await probeTaskShare(ctx, { fit: fitAsAsked, load }, asAsked === choice.chosen ? first.firstMeans : undefined);
  ctx.log?.(describeTaskShare(taskShare, 'the general sample'));
  // Where the keep is small, a second self-training weighs the text just past it (boundary.ts).
  let { selector, record } = first;
  let boundary: BoundaryRecord | undefined;
  const boundaryMode = read.string<BoundaryMode>('boundary');
  const scoreSample = async (json: SelectorJSON): Promise<Float64Array> => {
    const scorer = await load(json);
    try {
      return await scoreFrom(scorer, ctx.general, ctx.features);
    } finally {
      await scorer.dispose();
    }
  };
  const closed = record.skipped !== undefined;
  if (record.bySegments && boundaryApplies(boundaryMode, keep, closed)) {
    if (closed) {
      // Gated: nothing moves to the task side, but the text just past the keep weighs on the
      // general side of refits of the pair, a band from each refit's ranking (boundary.ts).
      const sides: string[] = [];
      for (let r = 0; r < BOUNDARY_DEFAULTS.gatedRounds; r++) {
        const band = boundaryBand(ctx.general, await scoreSample(selector), ctx.generalGroups as Uint32Array, keep, ctx.seed + 17 + r, unit, BOUNDARY_DEFAULTS.gatedShare);
        if (band.side.length === 0) {
          if (r === 0) ctx.log?.(describeBoundary(band.record));
          break;
        }
        boundary = { ...band.record, refits: r + 1 };
        ctx.log?.(describeBoundary(boundary));
        sides.push(...band.side);
        selector = await fitCandidate(withMovesSized(choice.chosen, 0), ctx.task, [...ctx.general, ...sides], ctx.seed);
      }
    } else {
      const band = boundaryBand(ctx.general, await scoreSample(selector), ctx.generalGroups as Uint32Array, keep, ctx.seed + 17, unit);
      boundary = band.record;
      ctx.log?.(describeBoundary(band.record));
      if (band.side.length > 0) {
        const fitBand = (task: string[], general: string[], seed: number) => fitChosen(task, [...general, ...band.side], seed);
        ({ selector, record } = await selfTrain(ctx, { fit: fitBand, load, ...(guarded ? { guard } : {}) }, trainOpts));
      }
    }
  }
  if (measured) {
    choice = await measured;
    ctx.log?.(describeChoice(choice));
    if (choice.warning) ctx.log?.(`warning: ${choice.warning}`);
  }
  return { method: 'contrast', params: { candidates, holdout, chosen: choice.chosen, rounds, expand, keepBy, selfTrain: gated ? 'auto' : 'always', moveBy, style, ...(guardShare !== undefined ? { guardShare } : {}), ...(keep !== undefined ? { keep } : {}), boundary: boundaryMode }, state: { choice, functionWords, selector, selfTraining: record, taskShare, ...(boundary ? { boundary } : {}), ...(avoid ? { avoid: avoid.record } : {}), ...(artefacts.length > 0 ? { artefacts } : {}) } };
}

export async function loadAuto(state: Record<string, unknown>, ctx: LoadContext): Promise<SentenceScorer> {
  const sel = state.selector as SelectorJSON | undefined;
  if (!sel || typeof sel !== 'object') throw new TadpoleError('TADPOLE_MODEL', 'contrast model has no fitted selector; refit the model');
  return loadSelector(sel, ctx);
}

async function loadSelector(sel: SelectorJSON, ctx: LoadContext): Promise<SentenceScorer> {
  if (sel.method === 'ensemble') return loadEnsemble(sel.state, ctx);
  const { factory } = await factoryOf(sel.method === 'tadpole' ? String(sel.params.detector) : sel.method);
  return factory.load(sel, { ...ctx, options: {} });
}

/** The choice recorded in a model's selector state (auto, or tadpole with detector auto). */
export function autoChoiceOf(selector: SelectorJSON): AutoChoice | undefined {
  const c = selector.state?.choice as AutoChoice | undefined;
  return c && typeof c.chosen === 'string' ? c : undefined;
}

export const contrastSelector: SelectorFactory = {
  method: 'contrast',
  summary: 'the default: task vs corpus sample (classifier + DSIR), self-trained by segments',
  explain:
    'contrast (the default): learns what sets your task text apart from a corpus sample,\n' +
    'with a word/subword classifier and DSIR word statistics (labels or ids the task file adds\n' +
    'are stripped first), then self-trains on the corpus passages most like the task.',
  options: CONTRAST_OPTIONS,
  needsEmbedder: false,
  needsGeneral: true,
  fit: fitAuto,
  async load(json, ctx) {
    return loadAuto(json.state, ctx);
  },
};
