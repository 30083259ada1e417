/** `random`: the paper's Random baseline. Score = hash(seed, sentence text, running index). */
import { fmix32, hashPair, hashString } from '../text/ngrams.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

/** Uniform in [0, 1) from (seed, text, index): the same position gets the same score however the stream is batched. */
export function randomScore(seed: number, text: string, index: number): number {
  const h = hashPair(hashPair(fmix32(seed >>> 0), hashString(text)), fmix32((index >>> 0) ^ Math.floor(index / 4294967296)));
  return h / 4294967296;
}

class RandomScorer implements SentenceScorer {
  readonly method = 'random';
  private index = 0;
  constructor(private readonly seed: number) {}
  async score(sentences: string[]): Promise<Float64Array> {
    const out = new Float64Array(sentences.length);
    for (let i = 0; i < sentences.length; i++) out[i] = randomScore(this.seed, sentences[i] as string, this.index++);
    return out;
  }
  async dispose(): Promise<void> {}
}

export const randomSelector: SelectorFactory = {
  method: 'random',
  summary: 'seeded random scores (the Random baseline)',
  needsEmbedder: false,
  needsGeneral: false,
  async fit(ctx): Promise<SelectorJSON> {
    return { method: 'random', params: { seed: ctx.seed }, state: {} };
  },
  async load(json, ctx): Promise<SentenceScorer> {
    const seed = typeof json.params.seed === 'number' ? json.params.seed : ctx.seed;
    return new RandomScorer(seed);
  },
};
