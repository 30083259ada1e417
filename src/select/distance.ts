/**
 * `distance` (Wang et al. 2017, the TADPOLE paper's Distance baseline): Euclidean distance
 * to the task centroid minus distance to the general-sample centroid, on unit vectors.
 */
import { b64ToF32, f32ToB64 } from '../core/b64.js';
import { needGeneral, needTask } from './options.js';
import { optionReader } from '../core/option-decl.js';
import { fitRepresentation, loadRepresentation, parseRepresentation, REPRESENTATION_OPTIONS, type Representation } from './representation.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

export function centroid(X: Float32Array, n: number, d: number): Float32Array {
  const c = new Float32Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) c[j] = (c[j] as number) + (X[i * d + j] as number) / n;
  return c;
}

function dist(X: Float32Array, i: number, c: Float32Array, d: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) s += ((X[i * d + j] as number) - (c[j] as number)) ** 2;
  return Math.sqrt(s);
}

class DistanceScorer implements SentenceScorer {
  readonly method = 'distance';
  constructor(private readonly rep: Representation, private readonly cTask: Float32Array, private readonly cGen: Float32Array) {}
  async score(sentences: string[]): Promise<Float64Array> {
    const X = await this.rep.embed(sentences);
    const d = this.rep.dims;
    const out = new Float64Array(sentences.length);
    for (let i = 0; i < sentences.length; i++) out[i] = dist(X, i, this.cTask, d) - dist(X, i, this.cGen, d);
    return out;
  }
  async dispose(): Promise<void> {}
}

export const distanceSelector: SelectorFactory = {
  method: 'distance',
  summary: 'distance to the task centroid minus to the general one (Wang et al. 2017)',
  needsEmbedder: false,
  explain: 'distance (Wang et al. 2017): sentence vectors (LSA or an embedder); a sentence scores\nby how much nearer it lies to the task centroid than to the general one.',
  options: REPRESENTATION_OPTIONS,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'distance');
    needGeneral(ctx.general, 'distance');
    const read = optionReader({ label: 'method distance', options: REPRESENTATION_OPTIONS }, ctx.options);
    const kind = parseRepresentation(read.string('representation'));
    const rep = fitRepresentation({ kind, embedder: ctx.embedder, text: [...ctx.task, ...ctx.general], dims: read.number('dims'), seed: ctx.seed });
    const d = rep.dims;
    const cTask = centroid(await rep.embed(ctx.task), ctx.task.length, d);
    const cGen = centroid(await rep.embed(ctx.general), ctx.general.length, d);
    return { method: 'distance', params: { representation: rep.kind }, state: { representation: rep.toJSON(), taskCentroid: f32ToB64(cTask), generalCentroid: f32ToB64(cGen) } };
  },
  async load(json, ctx): Promise<SentenceScorer> {
    const rep = loadRepresentation(json.state.representation as Record<string, unknown>, ctx.embedder);
    return new DistanceScorer(rep, b64ToF32(json.state.taskCentroid, 'distance "taskCentroid"', rep.dims), b64ToF32(json.state.generalCentroid, 'distance "generalCentroid"', rep.dims));
  },
};
