/**
 * Word 1-2-grams plus hashed character n-grams of each word (fastText's subwords: the
 * lower-cased word padded as "<word>", every run of `n` units), in one bucket space.
 * Subwords let "profit", "profits" and "profitable", or "mln" and "mn", share evidence that
 * whole-word features keep apart, and with `foldDigits` every digit reads as "0", so
 * "EUR131m" and "EUR762m" have the same subwords (each number is otherwise a rare word of
 * its own). Same tokens as NgramHasher (letters and digits).
 */
import { CodeUnitCopy } from './code-units.js';
import { LOWER, TOKEN_UNIT } from './fast-ngrams.js';
import { bucketOf, fmix32, FNV_OFFSET, FNV_PRIME, hashPair } from './ngrams.js';

/** Word boundary marks inside the char n-grams (not token units, so never in a word). */
const BEGIN = 0x3c;
const END = 0x3e;
/** Keeps char n-gram ids apart from word ids that hash the same units. */
const CHAR_SALT = 0x5bd1e995;
/** Multiplier of the rolling polynomial hash of a subword (odd, so nothing cancels mod 2^32). */
const ROLL = 0x01000193;
/**
 * The raw bucket space (features.ts RAW_BUCKETS): every u32 hash is already its own bucket, so
 * the hot loops skip bucketOf's division.
 */
const U32_BUCKETS = 2 ** 32;
/** LOWER with every ASCII digit read as "0" (foldDigits). */
const FOLDED = LOWER.map((lo) => (lo >= 0x30 && lo <= 0x39 ? 0x30 : lo));

export interface CharNgramOptions {
  /** Characters per subword (3-5 in fastText); 4 by default. */
  n?: number;
  foldDigits?: boolean;
  /** Word hashes (function-words.ts) to leave out whole: no unigram, no subwords, and the bigram joins the words around them. */
  skip?: ReadonlySet<number>;
}

/**
 * One pass over the sentence: the word ids are NgramHasher's (fast-ngrams.ts) for the same
 * text, in the same order, followed at each word's end by its subword ids.
 */
export class CharNgramHasher {
  ids: Uint32Array = new Uint32Array(1024);
  private readonly n: number;
  /** ROLL^n, to take the unit leaving the window out of the rolling hash. */
  private readonly rollOut: number;
  /** Each unit as a subword reads it: lower-cased, and with foldDigits every ASCII digit "0". */
  private readonly fold: Uint16Array;
  private readonly skip: ReadonlySet<number> | undefined;
  /** The current word, padded: BEGIN, its lower-cased (digit-folded) units. */
  private unit = new Uint16Array(64);
  private readonly copy = new CodeUnitCopy();

  constructor(readonly buckets: number, opts: CharNgramOptions = {}) {
    this.n = opts.n ?? 4;
    let r = 1;
    for (let i = 0; i < this.n; i++) r = Math.imul(r, ROLL);
    this.rollOut = r;
    this.fold = opts.foldDigits ? FOLDED : LOWER;
    this.skip = opts.skip;
  }

  /** Subword ids of the padded word this.unit[0..len) (END included) from ids[k]; returns the new count. */
  private subwords(k: number, len: number): number {
    const u = this.unit;
    const ids = this.ids;
    const buckets = this.buckets;
    const whole = buckets === U32_BUCKETS;
    const n = Math.min(this.n, len);
    let h = 0;
    for (let j = 0; j < n; j++) h = (Math.imul(h, ROLL) + (u[j] as number)) | 0;
    ids[k++] = whole ? fmix32(h ^ CHAR_SALT) : bucketOf(fmix32(h ^ CHAR_SALT), buckets);
    const out = n === this.n ? this.rollOut : 0;
    for (let j = n; j < len; j++) {
      h = (Math.imul(h, ROLL) + (u[j] as number) - Math.imul(u[j - n] as number, out)) | 0;
      ids[k++] = whole ? fmix32(h ^ CHAR_SALT) : bucketOf(fmix32(h ^ CHAR_SALT), buckets);
    }
    return k;
  }

  /** Bucket ids of the word 1-2-grams and subwords of `s` into `this.ids`; returns how many. */
  hash(s: string): number {
    return this.hashUnits(this.copy.of(s), 0, s.length);
  }

  /** `hash` of the text whose code units are units[from..to): a sentence read in place in its document. */
  hashUnits(units: Uint16Array, from: number, to: number): number {
    // At most 2 word ids + (units + 2) subword ids per word: 3 per unit + 4 bounds it.
    if (this.ids.length < 3 * (to - from) + 8) this.ids = new Uint32Array(3 * (to - from) + 1024);
    const ids = this.ids;
    const buckets = this.buckets;
    const whole = buckets === U32_BUCKETS;
    // Tables and the word buffer in locals, the buffer grown once per sentence, and the digit
    // fold one table lookup: V8 reloads imported bindings and fields at every use in the loop
    // (together 13-15% of this loop's time, node 20).
    const tokenUnit = TOKEN_UNIT;
    const lower = LOWER;
    const fold = this.fold;
    if (this.unit.length < to - from + 2) this.unit = new Uint16Array(2 * (to - from) + 2);
    const unit = this.unit;
    let k = 0;
    let prev = -1;
    let h = 0;
    let w = 0;
    for (let i = from; i <= to; i++) {
      const c = i < to ? (units[i] as number) : 32;
      if (tokenUnit[c] === 1) {
        const lo = lower[c] as number;
        if (w === 0) {
          h = FNV_OFFSET;
          unit[w++] = BEGIN;
        }
        h = Math.imul(h ^ lo, FNV_PRIME);
        unit[w++] = fold[c] as number;
      } else if (w > 0) {
        const t = fmix32(h);
        if (this.skip !== undefined && this.skip.has(t)) {
          w = 0;
          continue;
        }
        ids[k++] = whole ? t : bucketOf(t, buckets);
        if (prev >= 0) ids[k++] = whole ? hashPair(prev, t) : bucketOf(hashPair(prev, t), buckets);
        prev = t;
        unit[w++] = END;
        k = this.subwords(k, w);
        w = 0;
      }
    }
    return k;
  }
}
