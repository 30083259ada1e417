/**
 * `moore-lewis` (Moore & Lewis 2010; the TADPOLE paper's LM baseline): interpolated
 * Kneser-Ney n-gram LMs on the task text and on an equal-size general sample;
 * score = H_task(s) - H_general(s), bits per token (lower = more task-like).
 */
import { Rng } from '../core/rng.js';
import { needGeneral, needTask } from './options.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';
import { KneserNeyLm, type KnJSON } from './kneser-ney.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

class MooreLewisScorer implements SentenceScorer {
  readonly method = 'moore-lewis';
  constructor(private readonly task: KneserNeyLm, private readonly general: KneserNeyLm) {}
  async score(sentences: string[]): Promise<Float64Array> {
    return Float64Array.from(sentences, (s) => this.task.crossEntropy(s) - this.general.crossEntropy(s));
  }
  async dispose(): Promise<void> {}
}

/** An equal-size (in sentences) seeded sample of the general text, as Moore-Lewis prescribes. */
export function equalSizeSample(general: string[], size: number, seed: number): string[] {
  if (general.length <= size) return general;
  return new Rng(seed).sample(general.length, size).map((i) => general[i] as string);
}

const MOORE_LEWIS_OPTIONS: readonly OptionDecl[] = [{ name: 'order', type: 'int', default: 3, min: 1, max: 4, help: 'n-gram order of the two Kneser-Ney language models' }];

export const mooreLewisSelector: SelectorFactory = {
  method: 'moore-lewis',
  summary: 'cross-entropy difference of task and general n-gram LMs (Moore & Lewis 2010)',
  needsEmbedder: false,
  explain: 'moore-lewis (Moore & Lewis 2010): n-gram language models of the task and of an\nequal-sized general sample; a sentence scores by how much better the task model predicts it.',
  options: MOORE_LEWIS_OPTIONS,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'moore-lewis');
    needGeneral(ctx.general, 'moore-lewis');
    const order = optionReader({ label: 'method moore-lewis', options: MOORE_LEWIS_OPTIONS }, ctx.options).number('order');
    const task = KneserNeyLm.fit(ctx.task, order);
    const general = KneserNeyLm.fit(equalSizeSample(ctx.general, ctx.task.length, ctx.seed), order);
    return { method: 'moore-lewis', params: { order }, state: { task: task.toJSON(), general: general.toJSON() } };
  },
  async load(json): Promise<SentenceScorer> {
    return new MooreLewisScorer(KneserNeyLm.fromJSON(json.state.task as KnJSON), KneserNeyLm.fromJSON(json.state.general as KnJSON));
  },
};
