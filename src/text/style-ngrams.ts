/**
 * Style n-grams: the sentence read as its genre, without its topic. A function word
 * (function-words.ts) is itself; any other word is its shape (a number, short or long; lower
 * case, capitalised or all capitals, each short, medium or long); common punctuation is itself
 * and other symbols are skipped; hashed as 1-3-grams. "I think you" and "?" mark a forum post,
 * "Xx Xx said ." and quotes a news story, whatever the sport or the party. Markup symbols
 * ("<", "@", "#") are left out because they are a corpus's format rather than its genre: with
 * them, a placeholder like "<unk>" in the in-domain text alone sank it (docs/research.md,
 * "A style view").
 */
import { FUNCTION_WORD_HASHES } from './function-words.js';
import { LOWER, TOKEN_UNIT } from './fast-ngrams.js';
import { bucketOf, fmix32, FNV_OFFSET, FNV_PRIME, hashPair, hashString } from './ngrams.js';

const SALT = 0x2f6b1c3d;
/** Punctuation read as itself; every other symbol is skipped. */
const PUNCTUATION = ".,;:?!'\"()-\u2019\u201c\u201d$%";

/** 1: the unit is a digit-like character (\p{N}); 2: a lower-case letter (it has an upper case). */
const KIND = new Uint8Array(65536);
/** The style token of each punctuation unit (0: not read). */
const PUNCT = new Uint32Array(65536);
(() => {
  const numeric = /^\p{N}$/u;
  for (let c = 0; c < 65536; c++) {
    const ch = String.fromCharCode(c);
    if (numeric.test(ch)) KIND[c] = 1;
    else if (ch.toUpperCase() !== ch) KIND[c] = 2;
  }
  for (const ch of PUNCTUATION) PUNCT[ch.charCodeAt(0)] = hashString(ch, SALT) || 1;
})();

function shapeToken(shape: string): number {
  return hashString(shape, SALT);
}
const NUMBER_SHORT = shapeToken('#d');
const NUMBER_LONG = shapeToken('#dd');
/** [lower, all caps, capitalised][short (<= 3), medium (<= 7), long]. */
const WORD_SHAPES = ['#x', '#X', '#Xx'].map((c) => ['s', 'm', 'l'].map((l) => shapeToken(c + l)));

export class StyleHasher {
  ids: Uint32Array = new Uint32Array(1024);
  private prev = 0;
  private prev2 = 0;
  private k = 0;
  private count = 0;

  constructor(readonly buckets: number) {}

  private emit(t: number): void {
    const b = this.buckets;
    const ids = this.ids;
    ids[this.k++] = bucketOf(fmix32(t ^ SALT), b);
    if (this.count > 0) {
      const p = hashPair(this.prev, t);
      ids[this.k++] = bucketOf(p, b);
      if (this.count > 1) ids[this.k++] = bucketOf(hashPair(this.prev2, p), b);
    }
    this.prev2 = this.prev;
    this.prev = t;
    this.count++;
  }

  /** Bucket ids of the style 1-3-grams of `s` into `this.ids`; returns how many. */
  hash(s: string): number {
    const len = s.length;
    // At most 3 ids per token and one token per unit.
    if (this.ids.length < 3 * len + 8) this.ids = new Uint32Array(3 * len + 1024);
    this.k = 0;
    this.count = 0;
    let inWord = false;
    let h = 0;
    let units = 0;
    let numeric = true;
    let upper = false;
    let lower = false;
    for (let i = 0; i <= len; i++) {
      const c = i < len ? s.charCodeAt(i) : 32;
      if (TOKEN_UNIT[c] === 1) {
        if (!inWord) {
          inWord = true;
          h = FNV_OFFSET;
          units = 0;
          numeric = true;
          upper = false;
          lower = false;
        }
        const lo = LOWER[c] as number;
        h = Math.imul(h ^ lo, FNV_PRIME);
        units++;
        const kind = KIND[c];
        if (kind !== 1) numeric = false;
        if (lo !== c) upper = true;
        else if (kind === 2) lower = true;
        continue;
      }
      if (inWord) {
        inWord = false;
        const t = fmix32(h);
        if (FUNCTION_WORD_HASHES.has(t)) this.emit(t);
        else if (numeric) this.emit(units <= 2 ? NUMBER_SHORT : NUMBER_LONG);
        else {
          const size = units <= 3 ? 0 : units <= 7 ? 1 : 2;
          const kase = !upper ? 0 : !lower ? 1 : 2;
          this.emit((WORD_SHAPES[kase] as number[])[size] as number);
        }
      }
      const p = PUNCT[c] as number;
      if (p !== 0) this.emit(p);
    }
    return this.k;
  }
}
