/**
 * Hashed unigram + bigram bucket ids straight from char codes: no regex, no lower-cased
 * copy of the sentence, no per-token strings, one reusable Uint32Array. Produces the same
 * bucket ids as `hashedNgrams(tokenize(s), buckets, 2)` (ngrams.ts) for every text whose
 * lower-casing maps one UTF-16 unit to one (all but a few letters such as "İ"), so models
 * fitted either way score alike. This is the scorer's inner loop for dsir and the
 * classifier: on the Figure-5 mix it is what keeps their cost near `--method random`'s.
 */
import { CodeUnitCopy } from './code-units.js';
import { bucketOf, fmix32, FNV_OFFSET, FNV_PRIME, hashPair } from './ngrams.js';

/** 1 = the UTF-16 unit is part of a token ([\p{L}\p{N}], surrogate halves included); char-ngrams.ts shares it. */
export const TOKEN_UNIT = new Uint8Array(65536);
/** The unit's lower case, when that is one unit (else the unit itself). */
export const LOWER = new Uint16Array(65536);
(() => {
  const re = /^[\p{L}\p{N}]$/u;
  for (let c = 0; c < 65536; c++) {
    const ch = String.fromCharCode(c);
    const surrogate = c >= 0xd800 && c <= 0xdfff;
    TOKEN_UNIT[c] = surrogate || re.test(ch) ? 1 : 0;
    const lo = ch.toLowerCase();
    LOWER[c] = lo.length === 1 ? lo.charCodeAt(0) : c;
  }
})();

export class NgramHasher {
  /** Bucket ids of the last `hash` call, in [0, count). */
  ids: Uint32Array = new Uint32Array(1024);
  private readonly copy = new CodeUnitCopy();
  constructor(readonly buckets: number) {}

  private push(n: number, id: number): number {
    if (n === this.ids.length) {
      const grown = new Uint32Array(n * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[n] = id;
    return n + 1;
  }

  /** Bucket ids of the unigrams and bigrams of `s` into `this.ids`; returns how many. */
  hash(s: string): number {
    return this.hashUnits(this.copy.of(s), 0, s.length);
  }

  /** `hash` of the text whose code units are units[from..to): a sentence read in place in its document. */
  hashUnits(units: Uint16Array, from: number, to: number): number {
    const buckets = this.buckets;
    let n = 0;
    let prev = -1;
    let h = 0;
    let inToken = false;
    for (let i = from; i <= to; i++) {
      const c = i < to ? (units[i] as number) : 32;
      if (TOKEN_UNIT[c] === 1) {
        if (!inToken) {
          inToken = true;
          h = FNV_OFFSET;
        }
        h ^= LOWER[c] as number;
        h = Math.imul(h, FNV_PRIME);
      } else if (inToken) {
        inToken = false;
        const t = fmix32(h);
        n = this.push(n, bucketOf(t, buckets));
        if (prev >= 0) n = this.push(n, bucketOf(hashPair(prev, t), buckets));
        prev = t;
      }
    }
    return n;
  }
}
