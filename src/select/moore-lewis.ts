/**
 * `moore-lewis` (Moore & Lewis 2010; the TADPOLE paper's LM baseline): interpolated
 * Kneser-Ney n-gram LMs on the task text and on an equal-size general sample;
 * score = H_task(s) - H_general(s), bits per token (lower = more task-like).
 */
import { Rng } from '../core/rng.js';
import { intOpt, needGeneral, needTask } from './options.js';
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

export const mooreLewisSelector: SelectorFactory = {
  method: 'moore-lewis',
  summary: 'cross-entropy difference of task and general Kneser-Ney n-gram LMs (Moore & Lewis 2010)',
  needsEmbedder: false,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'moore-lewis');
    needGeneral(ctx.general, 'moore-lewis');
    const order = intOpt(ctx.options, 'order', 3, 1);
    if (order > 4) throw new Error(`moore-lewis: order ${order} > 4 is not supported`);
    const task = KneserNeyLm.fit(ctx.task, order);
    const general = KneserNeyLm.fit(equalSizeSample(ctx.general, ctx.task.length, ctx.seed), order);
    return { method: 'moore-lewis', params: { order }, state: { task: task.toJSON(), general: general.toJSON() } };
  },
  async load(json): Promise<SentenceScorer> {
    return new MooreLewisScorer(KneserNeyLm.fromJSON(json.state.task as KnJSON), KneserNeyLm.fromJSON(json.state.general as KnJSON));
  },
};
