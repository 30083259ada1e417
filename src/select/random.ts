/**
 * `random`: the paper's Random baseline. Score = hash(seed, sentence text): a pure function
 * of the sentence like every other method's score, so shards, resumes and batch sizes
 * cannot change it (a running index did: shard i would restart the count). Repeated
 * sentences share a score, which is harmless for a baseline.
 */
import { fmix32, hashBytes, hashPair, hashRange, hashString } from '../text/ngrams.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';
import { isAsciiText } from '../text/chars.js';

/** Uniform in [0, 1) from (seed, text). */
export function randomScore(seed: number, text: string): number {
  return scoreOfHash(seed, hashString(text));
}

/** randomScore(seed, text.slice(from, to)), read in place. */
export function randomScoreOfRange(seed: number, text: string, from: number, to: number): number {
  return scoreOfHash(seed, hashRange(text, from, to));
}

/** randomScore(seed, s) of the string s whose code units are bytes[from, to). */
function randomScoreOfBytes(seed: number, bytes: Uint8Array, from: number, to: number): number {
  return scoreOfHash(seed, hashBytes(bytes, from, to));
}

function scoreOfHash(seed: number, h: number): number {
  // Two independent 32-bit hashes: 52 bits of score, so distinct sentences practically never tie.
  // The text is hashed once (it was hashed twice: 13% of a --method random filter's time).
  const a = hashPair(fmix32(seed >>> 0), h);
  const b = hashPair(fmix32((seed ^ 0x9e3779b9) >>> 0), h);
  return (a * 2 ** 20 + (b >>> 12)) / 2 ** 52;
}

class RandomScorer implements SentenceScorer {
  readonly method = 'random';
  constructor(private readonly seed: number) {}
  async score(sentences: string[]): Promise<Float64Array> {
    const out = new Float64Array(sentences.length);
    for (let i = 0; i < sentences.length; i++) out[i] = randomScore(this.seed, sentences[i] as string);
    return out;
  }
  async scoreSpans(texts: readonly string[], spans: readonly (readonly number[])[]): Promise<Float64Array> {
    let n = 0;
    for (const s of spans) n += s.length / 2;
    const out = new Float64Array(n);
    let k = 0;
    for (let d = 0; d < texts.length; d++) {
      const text = texts[d]!;
      const s = spans[d]!;
      // An ASCII document is hashed from a copy of its bytes (code units, one a byte).
      if (isAsciiText(text)) {
        if (this.bytes.length < text.length) this.bytes = Buffer.allocUnsafe(Math.max(text.length, 2 * this.bytes.length));
        this.bytes.write(text, 0, 'latin1');
        for (let j = 0; j < s.length; j += 2) out[k++] = randomScoreOfBytes(this.seed, this.bytes, s[j]!, s[j + 1]!);
      } else {
        for (let j = 0; j < s.length; j += 2) out[k++] = randomScoreOfRange(this.seed, text, s[j]!, s[j + 1]!);
      }
    }
    return out;
  }
  /** Scratch for the bytes of an ASCII document. */
  private bytes = Buffer.allocUnsafe(1 << 16);
  async dispose(): Promise<void> {}
}

export const randomSelector: SelectorFactory = {
  method: 'random',
  summary: 'seeded random scores (the Random baseline)',
  needsEmbedder: false,
  explain: 'random: a seeded random score per sentence, the baseline every method should beat.',
  options: [],
  needsGeneral: false,
  async fit(ctx): Promise<SelectorJSON> {
    return { method: 'random', params: { seed: ctx.seed }, state: {} };
  },
  async load(json, ctx): Promise<SentenceScorer> {
    const seed = typeof json.params.seed === 'number' ? json.params.seed : ctx.seed;
    return new RandomScorer(seed);
  },
};
