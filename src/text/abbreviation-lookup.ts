/**
 * Which abbreviation lists (abbreviations.ts) a word of the text is in, answered without
 * making a string for the common case. The splitter asks this for the word before almost
 * every period; slicing, lower-casing and hashing that word for four Set lookups was most of
 * the cost of deciding a period (profile of BBC + Gutenberg + Reuters).
 *
 * A word of at most PACKED_LENGTH ASCII letters and periods is packed, lower-cased, into a
 * small integer (5 bits a character) and looked up in a Map of integers. A word with an ASCII
 * character that no listed word has is in no list. Anything else (non-ASCII, longer words)
 * takes the string path: slice, toLowerCase, Map of strings. Every path gives the answer
 * the four Sets give for word.toLowerCase() (and, for CASED_AMBIGUOUS, the word itself).
 */
import { AMBIGUOUS, BEFORE_NUMBER, CASED_AMBIGUOUS, CONTINUE } from './abbreviations.js';

/** The lists as bits of one number. */
export const enum Listed {
  BeforeNumber = 1,
  Continue = 2,
  Ambiguous = 4,
  /** Some CASED_AMBIGUOUS entry lower-cases to the word: the caller checks the exact case. */
  CasedAmbiguous = 8,
  /** "a.m" / "p.m" (the time rule). */
  Time = 16,
}

/** 6 characters of 5 bits: 30 bits, a small integer in V8 on every platform. */
const PACKED_LENGTH = 6;
/** KEY_CODE values: 1-26 letters, 27 the period; these two are not characters. */
const NOT_LISTED = 0;
const STRING_PATH = 31;

/** Lower-cased word -> Listed bits. */
const BY_STRING: Map<string, number> = buildByString();
/** Packed lower-cased word -> Listed bits, for every listed word that packs. */
const BY_PACKED: Map<number, number> = buildByPacked();
/** ASCII code -> packing code (letters, period), STRING_PATH (other characters some listed word has), or NOT_LISTED. */
const KEY_CODE: Uint8Array = buildKeyCodes();
/** No listed word is longer (UTF-16 units; lower-casing never shortens a string). */
export const LONGEST_LISTED: number = Math.max(...[...BY_STRING.keys()].map((k) => k.length));

/** Listed bits of text[from, to) (0: in no list). */
export function listedAs(text: string, from: number, to: number): number {
  const len = to - from;
  if (len > LONGEST_LISTED || len <= 0) return 0;
  let key = 0;
  for (let p = from; p < to; p++) {
    const c = text.charCodeAt(p);
    const code = c < 128 ? KEY_CODE[c]! : STRING_PATH;
    if (code === NOT_LISTED) return 0;
    if (code === STRING_PATH) return BY_STRING.get(text.slice(from, to).toLowerCase()) ?? 0;
    key = key * 32 + code;
  }
  if (len > PACKED_LENGTH) return BY_STRING.get(text.slice(from, to).toLowerCase()) ?? 0;
  return BY_PACKED.get(key) ?? 0;
}

function buildByString(): Map<string, number> {
  const map = new Map<string, number>();
  const add = (words: Iterable<string>, bit: number): void => {
    for (const word of words) {
      const key = word.toLowerCase();
      map.set(key, (map.get(key) ?? 0) | bit);
    }
  };
  add(BEFORE_NUMBER, Listed.BeforeNumber);
  add(CONTINUE, Listed.Continue);
  add(AMBIGUOUS, Listed.Ambiguous);
  add(CASED_AMBIGUOUS, Listed.CasedAmbiguous);
  add(['a.m', 'p.m'], Listed.Time);
  return map;
}

function packingCode(c: number): number {
  if (c >= 97 && c <= 122) return c - 96;
  if (c === 46) return 27;
  return NOT_LISTED;
}

function buildByPacked(): Map<number, number> {
  const map = new Map<number, number>();
  for (const [word, bits] of BY_STRING) {
    if (word.length > PACKED_LENGTH) continue;
    let key = 0;
    for (let p = 0; p < word.length && key >= 0; p++) {
      const code = packingCode(word.charCodeAt(p));
      key = code === NOT_LISTED ? -1 : key * 32 + code;
    }
    if (key >= 0) map.set(key, bits);
  }
  return map;
}

function buildKeyCodes(): Uint8Array {
  const t = new Uint8Array(128);
  for (const word of BY_STRING.keys()) {
    for (let p = 0; p < word.length; p++) {
      const c = word.charCodeAt(p);
      if (c < 128 && packingCode(c) === NOT_LISTED) t[c] = STRING_PATH;
    }
  }
  // Letters of either case pack as the lower-case letter (an ASCII word's toLowerCase).
  for (let c = 97; c <= 122; c++) {
    t[c] = packingCode(c);
    t[c - 32] = packingCode(c);
  }
  t[46] = packingCode(46);
  return t;
}
