/**
 * Word 1-2-grams plus hashed character n-grams of each word (fastText's subwords: the
 * lower-cased word padded as "<word>", every run of `n` units), in one bucket space.
 * Subwords let "profit", "profits" and "profitable", or "mln" and "mn", share evidence that
 * whole-word features keep apart, and with `foldDigits` every digit reads as "0", so
 * "EUR131m" and "EUR76m" are one shape. Same tokens as NgramHasher (letters and digits).
 */
import { NgramHasher } from './fast-ngrams.js';
import { fmix32 } from './ngrams.js';

const TOKEN_UNIT = new Uint8Array(65536);
const LOWER = new Uint16Array(65536);
(() => {
  const re = /^[\p{L}\p{N}]$/u;
  for (let c = 0; c < 65536; c++) {
    const ch = String.fromCharCode(c);
    TOKEN_UNIT[c] = (c >= 0xd800 && c <= 0xdfff) || re.test(ch) ? 1 : 0;
    const lo = ch.toLowerCase();
    LOWER[c] = lo.length === 1 ? lo.charCodeAt(0) : c;
  }
})();

/** Word boundary marks inside the char n-grams (not token units, so never in a word). */
const BEGIN = 0x3c;
const END = 0x3e;
/** Keeps char n-gram ids apart from word ids that hash the same units. */
const CHAR_SALT = 0x5bd1e995;

export interface CharNgramOptions {
  /** Characters per subword (3-5 in fastText); 4 by default. */
  n?: number;
  foldDigits?: boolean;
}

export class CharNgramHasher {
  ids: Uint32Array = new Uint32Array(1024);
  private readonly words: NgramHasher;
  private readonly n: number;
  private readonly foldDigits: boolean;
  private readonly unit = new Uint16Array(256);

  constructor(readonly buckets: number, opts: CharNgramOptions = {}) {
    this.words = new NgramHasher(buckets);
    this.n = opts.n ?? 4;
    this.foldDigits = opts.foldDigits ?? false;
  }

  private push(k: number, id: number): number {
    if (k === this.ids.length) {
      const grown = new Uint32Array(k * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[k] = id;
    return k + 1;
  }

  /** Subword ids of the padded word held in this.unit[0..len). */
  private subwords(k: number, len: number): number {
    const n = Math.min(this.n, len);
    for (let start = 0; start + n <= len; start++) {
      let h = CHAR_SALT;
      for (let j = start; j < start + n; j++) h = Math.imul(h ^ (this.unit[j] as number), 0x01000193);
      k = this.push(k, fmix32(h) % this.buckets);
    }
    return k;
  }

  hash(s: string): number {
    const nw = this.words.hash(s);
    if (nw > this.ids.length) this.ids = new Uint32Array(nw * 2);
    this.ids.set(this.words.ids.subarray(0, nw));
    let k = nw;
    let len = 0;
    const cap = this.unit.length - 1;
    for (let i = 0; i <= s.length; i++) {
      const c = i < s.length ? s.charCodeAt(i) : 32;
      if (TOKEN_UNIT[c] === 1) {
        if (len === 0) this.unit[len++] = BEGIN;
        const lo = LOWER[c] as number;
        if (len < cap) this.unit[len++] = this.foldDigits && lo >= 0x30 && lo <= 0x39 ? 0x30 : lo;
      } else if (len > 0) {
        this.unit[len++] = END;
        k = this.subwords(k, len);
        len = 0;
      }
    }
    return k;
  }
}
