import type { Embedder, EmbedderFingerprint } from './embedder.js';
import { FNV_OFFSET, FNV_PRIME } from '../text/ngrams.js';

export interface HashEmbedderOptions {
  dims?: number;
  seed?: number;
  /** Nonzeros per feature in the sparse random projection. */
  nnz?: number;
}

/**
 * Hashed word unigrams + bigrams, sublinear tf (1 + ln tf), projected by a seeded sparse
 * random projection (each feature adds +-1/sqrt(nnz) to `nnz` coordinates), L2-normalised.
 * No weights to download; deterministic for (dims, seed, nnz).
 */
export class HashEmbedder implements Embedder {
  readonly dims: number;
  readonly seed: number;
  readonly nnz: number;
  readonly fingerprint: EmbedderFingerprint;

  constructor(opts: HashEmbedderOptions = {}) {
    this.dims = opts.dims ?? 256;
    this.seed = (opts.seed ?? 0) >>> 0;
    this.nnz = opts.nnz ?? 4;
    this.fingerprint = { kind: 'hash', dims: this.dims, seed: this.seed, nnz: this.nnz, ngrams: 2, version: 1 };
  }

  async embed(sentences: string[]): Promise<Float32Array> {
    return this.embedSync(sentences);
  }

  embedSync(sentences: string[]): Float32Array {
    const out = new Float32Array(sentences.length * this.dims);
    const words: number[] = [];
    let feats = new Uint32Array(256);
    for (let i = 0; i < sentences.length; i++) {
      words.length = 0;
      wordHashes(sentences[i] as string, this.seed, words);
      const nf = words.length === 0 ? 0 : 2 * words.length - 1;
      if (nf > feats.length) feats = new Uint32Array(nf * 2);
      for (let t = 0; t < words.length; t++) {
        const u = words[t] as number;
        feats[t] = u;
        if (t > 0) feats[words.length + t - 1] = mix(Math.imul(words[t - 1] as number, 0x9e3779b1) ^ u ^ 0x5bd1e995);
      }
      // Sorting the feature hashes groups repeats, so tf needs no Map: measured 1.6x faster.
      const f = feats.subarray(0, nf).sort();
      this.project(f, out, i * this.dims);
    }
    return out;
  }

  /** Sorted feature hashes of a sentence into the row at `offset`, L2-normalised. */
  private project(sorted: Uint32Array, out: Float32Array, offset: number): void {
    const scale = 1 / Math.sqrt(this.nnz);
    const dims = this.dims;
    for (let a = 0; a < sorted.length; ) {
      const h = sorted[a] as number;
      let b = a + 1;
      while (b < sorted.length && sorted[b] === h) b++;
      const w = (1 + Math.log(b - a)) * scale;
      a = b;
      let x = h;
      for (let j = 0; j < this.nnz; j++) {
        x = mix(x + 0x6d2b79f5 + j);
        const idx = (x >>> 1) % dims;
        out[offset + idx] = (out[offset + idx] as number) + (x & 1 ? w : -w);
      }
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += (out[offset + d] as number) ** 2;
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let d = 0; d < dims; d++) out[offset + d] = (out[offset + d] as number) * inv;
    }
  }

  async dispose(): Promise<void> {}
}

/** murmur3 finalizer: a cheap, well-mixed 32-bit hash step. */
export function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * FNV-1a hashes of lower-cased word tokens (letters and digits; apostrophes inside words
 * kept), scanning char codes directly: ~4x faster than a Unicode regex here.
 */
export function wordHashes(s: string, seed: number, out: number[]): void {
  let h = 0;
  let inWord = false;
  const start = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    let word: boolean;
    if (c < 128) {
      if (c >= 65 && c <= 90) {
        c += 32;
        word = true;
      } else word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (inWord && c === 39 && i + 1 < s.length && isWordCode(s.charCodeAt(i + 1)));
    } else {
      word = isWordCode(c);
      if (word) c = s[i]!.toLowerCase().charCodeAt(0);
    }
    if (word) {
      if (!inWord) {
        h = start;
        inWord = true;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    } else if (inWord) {
      out.push(mix(h));
      inWord = false;
    }
  }
  if (inWord) out.push(mix(h));
}

const LETTER = /[\p{L}\p{N}]/u;
function isWordCode(c: number): boolean {
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  if (c >= 0xd800 && c <= 0xdfff) return false;
  return LETTER.test(String.fromCharCode(c));
}
