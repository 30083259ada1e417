/**
 * BERT text normalisation and pre-tokenisation, as Hugging Face `tokenizers` (Rust) does it:
 * BertNormalizer (clean text, pad CJK ideographs with spaces, strip accents, lowercase)
 * followed by BertPreTokenizer (split on whitespace, isolate every punctuation character).
 *
 * Character classes for the BMP live in one Uint8Array built once from Unicode property
 * regexes, so the hot loop is a table look-up per UTF-16 unit, not a regex per character.
 */

export interface BertNormalizeOptions {
  cleanText: boolean;
  handleChineseChars: boolean;
  stripAccents: boolean;
  lowercase: boolean;
}

const PLAIN = 0;
const SPACE = 1; // White_Space (after clean_text it becomes ' ')
const CONTROL = 2; // Unicode "Other" (Cc Cf Cs Co Cn) except \t \n \r, plus U+0000 and U+FFFD: removed
const PUNCT = 3; // ASCII punctuation or Unicode P*: a word of its own
const CJK = 4; // CJK ideograph: padded with spaces

const controlRe = /\p{C}/u;
const spaceRe = /\p{White_Space}/u;
const punctRe = /\p{P}/u;

function isAsciiPunct(cp: number): boolean {
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126);
}

/** The ranges `tokenizers` (Rust, bert normalizer) treats as Chinese characters. */
function isChinese(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

function classify(cp: number): number {
  if (cp === 9 || cp === 10 || cp === 13) return SPACE;
  const ch = String.fromCodePoint(cp);
  if (cp === 0 || cp === 0xfffd || controlRe.test(ch)) return CONTROL;
  if (spaceRe.test(ch)) return SPACE;
  if (isAsciiPunct(cp) || punctRe.test(ch)) return PUNCT;
  if (isChinese(cp)) return CJK;
  return PLAIN;
}

let bmpTable: Uint8Array | undefined;
/** Built lazily: ~65k regex tests, about 15 ms once per process. */
function table(): Uint8Array {
  if (bmpTable) return bmpTable;
  const t = new Uint8Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) {
    // Lone surrogates are category Cs; as pairs they are handled by charClassAt.
    t[cp] = cp >= 0xd800 && cp <= 0xdfff ? PLAIN : classify(cp);
  }
  bmpTable = t;
  return t;
}

const astralCache = new Map<number, number>();
function astralClass(cp: number): number {
  let c = astralCache.get(cp);
  if (c === undefined) {
    c = classify(cp);
    if (astralCache.size < 100_000) astralCache.set(cp, c);
  }
  return c;
}

const nonAsciiRe = /[^\x00-\x7f]/;
const markRe = /\p{Mn}/gu;
const capitalSigma = '\u03a3';

/** Per-code-point lowercase, as Rust's `char::to_lowercase` (no final-sigma rule, unlike String#toLowerCase). */
function lowercasePerChar(s: string): string {
  if (!s.includes(capitalSigma)) return s.toLowerCase();
  let out = '';
  for (const ch of s) out += ch === capitalSigma ? '\u03c3' : ch.toLowerCase();
  return out;
}

export function bertNormalize(text: string, opts: BertNormalizeOptions): string {
  const t = table();
  const ascii = !nonAsciiRe.test(text);
  let s = text;
  if (opts.cleanText || opts.handleChineseChars) {
    let out = '';
    let changed = false;
    let runStart = 0;
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const u = s.charCodeAt(i);
      let cp = u;
      let width = 1;
      if (u >= 0xd800 && u <= 0xdbff && i + 1 < n) {
        const lo = s.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = ((u - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      const c = cp < 0x10000 ? (u >= 0xd800 && u <= 0xdfff ? CONTROL : (t[cp] as number)) : astralClass(cp);
      let rep: string | undefined;
      if (opts.cleanText && c === CONTROL) rep = '';
      else if (opts.cleanText && c === SPACE && u !== 32) rep = ' ';
      else if (opts.handleChineseChars && c === CJK) rep = ` ${s.slice(i, i + width)} `;
      if (rep !== undefined) {
        out += s.slice(runStart, i) + rep;
        runStart = i + width;
        changed = true;
      }
      i += width - 1;
    }
    if (changed) s = out + s.slice(runStart);
  }
  if (opts.stripAccents && !ascii) s = s.normalize('NFD').replace(markRe, '');
  if (opts.lowercase) s = ascii ? s.toLowerCase() : lowercasePerChar(s);
  return s;
}

/**
 * Split normalised text into words: runs of non-space, non-punctuation characters, and
 * each punctuation character alone. Calls `emit(word)` in order.
 */
export function bertPreTokenize(s: string, emit: (word: string) => void): void {
  const t = table();
  const n = s.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    const u = s.charCodeAt(i);
    let c: number;
    let width = 1;
    if (u < 0x80) {
      c = t[u] as number;
    } else if (u >= 0xd800 && u <= 0xdbff && i + 1 < n) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        c = astralClass(((u - 0xd800) << 10) + (lo - 0xdc00) + 0x10000);
        width = 2;
      } else c = PLAIN;
    } else if (u >= 0xd800 && u <= 0xdfff) {
      c = PLAIN;
    } else {
      c = t[u] as number;
    }
    if (c === SPACE) {
      if (start >= 0) emit(s.slice(start, i));
      start = -1;
    } else if (c === PUNCT) {
      if (start >= 0) emit(s.slice(start, i));
      emit(s.slice(i, i + width));
      start = -1;
    } else if (start < 0) {
      start = i;
    }
    i += width - 1;
  }
  if (start >= 0) emit(s.slice(start));
}
