/**
 * A model file in words: what `tadpole model show` prints. A model holds the fit's choices and
 * figures (the candidates' held-out AUROC, the self-training moves, the corpus sample it was
 * completed from); a user auditing a nightly job should not have to read base64-laden JSON.
 */
import { describeArtefacts, type TaskArtefact } from '../select/artefacts.js';
import { autoChoiceOf, describeChoice, describeChoiceInWords, heldOutOf } from '../select/auto.js';
import { describeAvoid, type AvoidRecord } from '../select/avoid.js';
import { describeBoundary, type BoundaryRecord } from '../select/boundary.js';
import type { SelfTrainingRecord } from '../select/self-training.js';
import { describeFunctionWords, type FunctionWordFigures } from '../select/telegraphic.js';
import { SAMPLE_FULL_KEEP } from './complete.js';
import { readModel, type ModelFile } from './file.js';
import { describeTaskShare, taskShareOf, type TaskShareReading } from '../cut/share-estimate.js';
import { explainModel, modelMethod } from './explain.js';

export interface ModelSummary {
  method: string;
  /** The method under its current name, where the file uses an older one (auto, tadpole with detector auto). */
  current?: string;
  /** What the method does, in words (model/explain.ts). */
  explain: string[];
  version: number;
  /** `waiting`: fitted without a general sample, completed by `filter` from its corpus. */
  state: 'fitted' | 'waiting' | 'completed';
  seed: number;
  options: Record<string, unknown>;
  params?: Record<string, unknown>;
  counts: ModelFile['counts'];
  embedder: string | null;
  sample?: { fingerprint: string; sentences: number; sampler: string; bytesRead: number };
  sampleSize?: number | undefined;
  choice?: ReturnType<typeof autoChoiceOf>;
  selfTraining?: SelfTrainingRecord;
  functionWords?: FunctionWordFigures;
  avoid?: AvoidRecord;
  /** The second self-training on the first cut's boundary, where the keep is small (select/boundary.ts). */
  boundary?: BoundaryRecord;
  /** Tokens stripped from the task before the fit (artefacts.ts). */
  artefacts?: TaskArtefact[];
  /** How much of the sample looks like the task, as the fit read it (cut/share-estimate.ts). */
  taskShare?: TaskShareReading;
}

export function summarizeModel(model: ModelFile): ModelSummary {
  const sel = model.selector;
  const state = sel ? (model.completion?.sample ? 'completed' : 'fitted') : 'waiting';
  const st = (sel?.state ?? {}) as Record<string, unknown>;
  const sample = model.completion?.sample;
  const choice = sel ? autoChoiceOf(sel) : undefined;
  const current = modelMethod(model).method;
  const taskShare = taskShareOf(model);
  return {
    method: model.method,
    ...(current !== model.method ? { current } : {}),
    explain: explainModel(model),
    version: model.version,
    state,
    seed: model.fit.seed,
    options: model.fit.options,
    ...(sel ? { params: sel.params } : {}),
    counts: model.counts,
    embedder: model.embedder ? `${model.embedder.kind}, ${model.embedder.dims} dims${typeof model.embedder.sha256 === 'string' ? `, model sha256 ${model.embedder.sha256.slice(0, 12)}` : ''}` : null,
    ...(sample ? { sample: { fingerprint: sample.fingerprint, sentences: sample.sentences, sampler: sample.sampler, bytesRead: sample.bytesRead } } : {}),
    ...(state === 'waiting' ? { sampleSize: model.completion?.sampleSize } : {}),
    ...(choice ? { choice } : {}),
    ...(st.selfTraining ? { selfTraining: st.selfTraining as SelfTrainingRecord } : {}),
    ...(st.functionWords ? { functionWords: st.functionWords as FunctionWordFigures } : {}),
    ...(st.avoid ? { avoid: st.avoid as AvoidRecord } : {}),
    ...(st.boundary ? { boundary: st.boundary as BoundaryRecord } : {}),
    ...(Array.isArray(st.artefacts) && st.artefacts.length > 0 ? { artefacts: st.artefacts as TaskArtefact[] } : {}),
    ...(taskShare ? { taskShare } : {}),
  };
}

/** The held-out AUROC of a model's chosen scorer and the sentences set aside for it (`--stats` → `heldOut`). */
export interface HeldOut {
  auroc: number;
  task: number;
  general: number;
}

/** `{ heldOut }` for a model whose fit measured one (the default), else nothing: spread into stats. */
export function heldOutEntry(model: ModelFile): { heldOut?: HeldOut } {
  const choice = model.selector ? autoChoiceOf(model.selector) : undefined;
  const h = choice ? heldOutOf(choice) : undefined;
  return h ? { heldOut: h } : {};
}

/** filter's line for a model it completed: the model file holds no measure, the run does. */
export function describeHeldOut(h: HeldOut): string {
  return `the completed model tells ${h.task} held-out task sentences from ${h.general} corpus sentences with AUROC ${h.auroc.toFixed(3)} (1 apart, 0.5 chance)`;
}

export interface DescribeOptions {
  /** Also the internal names: each scorer's spec and the method's raw parameters (`model show -v`). */
  verbose?: boolean;
}

/**
 * `tadpole model show`: a model file read (and verified: readModel), summarized, and unless
 * only its summary is asked for (`json`), in lines of words.
 */
export function showModel(file: string, how: DescribeOptions & { json?: boolean } = {}): { summary: ModelSummary; lines?: string[] } {
  const summary = summarizeModel(readModel(file));
  return how.json ? { summary } : { summary, lines: describeModel(summary, how) };
}

/** `tadpole model show`: a model file (or its summary) in lines of words. */
export function describeModel(model: ModelFile | ModelSummary, how: DescribeOptions = {}): string[] {
  const s = 'explain' in model ? model : summarizeModel(model);
  const opts = Object.entries(s.options).map(([k, v]) => `${k}=${String(v)}`).join(' ');
  const lines = [`method: ${s.method}${s.current ? ` (the default, now named ${s.current})` : ''} (model version ${s.version}), seed ${s.seed}${opts ? `, options ${opts}` : ''}`, ...s.explain.map((l) => `  ${l}`)];
  const files = (f: string[]) => (f.length ? ` from ${f.join(', ')}` : '');
  lines.push(`task: ${s.counts.taskSentences} sentences${files(s.counts.taskFiles)}`);
  if (s.state === 'waiting') {
    lines.push(`general sample: none yet: filter completes the model from a seeded sample of ${s.sampleSize} sentences of the corpus it filters (more when its --keep is under ${SAMPLE_FULL_KEEP * 100}%)`);
    // The completed model lives in the filter run, not in this file: say where its figures are.
    lines.push("held-out AUROC and self-training: measured by each filter when it completes the model (filter prints the AUROC; --stats records it as heldOut, -v every step)");
  } else if (s.sample) {
    lines.push(`general sample: ${s.sample.sentences} sentences of the corpus filtered (${s.sample.sampler}, ${(s.sample.bytesRead / 1e6).toFixed(1)} MB read), fingerprint ${s.sample.fingerprint}`);
  } else {
    lines.push(`general sample: ${s.counts.generalSentences} sentences${files(s.counts.generalFiles)}`);
  }
  if (s.counts.avoidSentences) lines.push(`avoid: ${s.counts.avoidSentences} sentences${files(s.counts.avoidFiles ?? [])}`);
  if (s.embedder) lines.push(`embedder: ${s.embedder}`);
  if (s.params && !s.choice && how.verbose) lines.push(`params: ${JSON.stringify(s.params)}`);
  if (s.artefacts) lines.push(describeArtefacts(s.artefacts));
  if (s.functionWords) lines.push(describeFunctionWords(s.functionWords));
  if (s.choice) {
    if (!how.verbose) lines.push(describeChoiceInWords(s.choice));
    else lines.push(s.choice.candidates.length ? describeChoice(s.choice) : `contrast: using ${s.choice.chosen}, unmeasured`);
    if (s.choice.warning) lines.push(`warning: ${s.choice.warning}`);
  }
  if (s.avoid && s.counts.generalSentences) lines.push(describeAvoid(s.avoid, s.counts.generalSentences));
  if (s.taskShare) lines.push(describeTaskShare(s.taskShare, s.sample ? 'the corpus filtered' : 'the general sample'));
  if (s.selfTraining) {
    const t = s.selfTraining;
    const moves = t.moved.map((m, i) => `round ${i + 1}: ${m.segments} segments (${m.sentences} sentences)`).join('; ');
    const of = `${t.expand} of the sample${t.unit === 'bytes' ? "'s bytes" : ''}`;
    lines.push(
      !t.bySegments
        ? 'self-training: skipped (the general sample had no segments)'
        : t.skipped
          ? `self-training: skipped: ${t.skipped}`
          : `self-training: ${t.rounds} rounds of ${of}, moved by ${t.moveBy ?? 'mean'}${moves ? `: ${moves}` : ': nothing moved'}`,
    );
  }
  if (s.boundary) lines.push(describeBoundary(s.boundary));
  return lines;
}
