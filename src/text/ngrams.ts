/**
 * Shared tokenization and n-gram hashing for the selectors that count words
 * (moore-lewis, dsir, textgram, the LSA representation).
 *
 * Tokens are lower-cased runs of letters/digits: this also erases the formatting cues of
 * pre-tokenised sources ("( Collins , 1997 )" vs "(Collins, 1997)") and of lower-cased
 * ones, which SOURCES.md warns a domain filter can key on.
 */
const TOKEN_RE = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN_RE) ?? [];
}

/**
 * FNV-1a's offset basis and prime, for every hasher here and those that read words from char
 * codes (fast-ngrams.ts, char-ngrams.ts, style-ngrams.ts), so a word's hash is the same in each
 * and matches FUNCTION_WORD_HASHES (function-words.ts). The offset basis is written as an int32
 * (the same 32 bits, used only by ^ and Math.imul): as the u32 0x811c9dc5 it is a double, and
 * the loops that start a hash from it kept that hash a double throughout.
 */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units, then a murmur3 finalizer: a well-mixed u32. */
export function hashString(s: string, seed = 0): number {
  return hashRange(s, 0, s.length, seed);
}

/**
 * hashString of the string whose code units are bytes[from, to) (an ASCII or Latin-1 text
 * copied out byte for byte): the same hash, and about twice as fast as charCodeAt, which
 * re-checks the string's representation at every character.
 */
export function hashBytes(bytes: Uint8Array, from: number, to: number, seed = 0): number {
  // h starts as an int32 (the same bits as hashRange's u32), so it stays one: from a u32
  // above 2^31 V8 kept it a double through the loop. Four bytes a turn: the chain of
  // multiplies is the whole cost. Together: 5.5 -> 1.5 ns a byte (node 20, a microbench).
  let h = FNV_OFFSET ^ seed;
  let i = from;
  for (const last4 = to - 3; i < last4; i += 4) {
    h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
    h = Math.imul(h ^ bytes[i + 1]!, FNV_PRIME);
    h = Math.imul(h ^ bytes[i + 2]!, FNV_PRIME);
    h = Math.imul(h ^ bytes[i + 3]!, FNV_PRIME);
  }
  for (; i < to; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return fmix32(h);
}

/** hashString(s.slice(from, to), seed), without making the slice. */
export function hashRange(s: string, from: number, to: number, seed = 0): number {
  let h = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return fmix32(h);
}

/** Combine two u32 hashes (order matters): used to hash n-grams from token hashes. */
export function hashPair(a: number, b: number): number {
  return fmix32((Math.imul(a, 0x9e3779b1) ^ b) + 0x7f4a7c15);
}

/**
 * u32 % buckets, computed as h - floor(h / buckets) * buckets: exact for every u32 and bucket
 * count (the quotient's distance to the next integer, >= 1/h > 2^-32, survives a double's
 * 53 bits). V8 compiles `%` on a u32 above 2^31 with a non-constant divisor to a call to
 * fmod: 18 ns against 3.4 ns a reduction (node, 4M reductions), and that `%` was most of the
 * default scorer's time.
 */
export function bucketOf(h: number, buckets: number): number {
  return h - Math.floor(h / buckets) * buckets;
}

/**
 * bucketOf(h, buckets) for `inverse` = 1 / buckets, by a multiply where bucketOf divides: the
 * product's quotient can be one off only where h / buckets lies within 2^-20 of an integer
 * (a double's rounding on a u32), and the remainder's range check puts that back, so it is
 * exact for every u32.
 */
export function bucketByInverse(h: number, buckets: number, inverse: number): number {
  const r = h - Math.floor(h * inverse) * buckets;
  return r < 0 ? r + buckets : r >= buckets ? r - buckets : r;
}

/**
 * For a power-of-two bucket count up to 2^31, the mask whose `h & mask` is bucketOf(h, buckets)
 * for every u32 h (the low bits survive ToInt32); -1 for any other count, whose hot loops keep
 * bucketOf. The AND is a cycle where bucketOf's division is many: the default's classifier
 * (2^18 buckets) reduces every feature of every sentence.
 */
export function bucketMask(buckets: number): number {
  return Number.isInteger(buckets) && buckets >= 1 && buckets <= 2 ** 31 && (buckets & (buckets - 1)) === 0 ? buckets - 1 : -1;
}

export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** u32 hash of each token. */
export function tokenHashes(tokens: string[]): Uint32Array {
  const out = new Uint32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) out[i] = hashString(tokens[i] as string);
  return out;
}

/**
 * Bucket ids of the sentence's unigrams and (when maxOrder >= 2) bigrams, ..., in
 * [0, buckets). Orders are hashed apart so "a" and the bigram "a b" never share a key
 * by construction (only by collision).
 */
export function hashedNgrams(tokens: string[], buckets: number, maxOrder = 2): Uint32Array {
  const t = tokenHashes(tokens);
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) {
    let h = t[i] as number;
    out.push(h % buckets);
    for (let k = 1; k < maxOrder && i + k < t.length; k++) {
      h = hashPair(h, t[i + k] as number);
      out.push(h % buckets);
    }
  }
  return Uint32Array.from(out);
}

/** Adjacent word pairs as "a b" strings (TextGram's bigrams). */
export function bigrams(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) out.push(`${tokens[i]} ${tokens[i + 1]}`);
  return out;
}
