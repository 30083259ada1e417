/**
 * Character classes for the sentence splitter, on UTF-16 code units (never throws on
 * lone surrogates: they are simply "other").
 *
 * Space, terminator, closer, opener and bullet are lists of code units, answered from one
 * table: the splitter asks these for almost every character it looks at, and a chain of up
 * to 14 comparisons per call (an ASCII letter fails them all) cost more than one table load.
 * The table is built from the lists, not by testing all 65,536 code units, so loading the
 * module stays cheap (every CLI process and worker thread loads it).
 */

/** Whether every code unit of s is ASCII (one UTF-8 byte each): then a span's byte count is its length, and its code units fit in bytes. */
export function isAsciiText(s: string): boolean {
  return Buffer.byteLength(s, 'utf8') === s.length;
}

/** Exactly the code units JavaScript's `\s` and `String.prototype.trim` treat as space. */
export const SPACES: readonly number[] = [
  9, 10, 11, 12, 13, 32, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201,
  8202, 8232, 8233, 8239, 8287, 12288, 65279,
];

/** Sentence-final punctuation: . ! ? … ‽ and their full-width / interrobang forms. */
export const TERMINATORS: readonly number[] = [46, 33, 63, 0x2026, 0x203d, 0x3002, 0xff01, 0xff1f, 0xff0e];

/** Characters that close a quotation or bracket and stay with the sentence they end. */
export const CLOSERS: readonly number[] = [34, 39, 41, 93, 125, 0x201d, 0x2019, 0xbb, 0x203a, 0x300d, 0x300f];

/** Characters that open a quotation or bracket before a sentence's first word. */
export const OPENERS: readonly number[] = [
  34, 39, 40, 91, 123, 0x201c, 0x2018, 0xab, 0x2039, 0xbf, 0xa1, 0x300c, 0x300e, 96,
];

/** List bullets that start a new item wherever they follow whitespace. */
export const BULLETS: readonly number[] = [0x2022, 0x2043, 0x25aa, 0x25e6, 0x2023, 0x25cf, 0x25a0, 0x27a2, 0x2713];

const enum Class { Space = 1, Terminator = 2, Closer = 4, Opener = 8, Bullet = 16 }

const CLASSES: Uint8Array = buildClasses();

function buildClasses(): Uint8Array {
  const t = new Uint8Array(65536);
  const add = (members: readonly number[], cls: number): void => {
    for (const c of members) t[c]! |= cls;
  };
  add(SPACES, Class.Space);
  add(TERMINATORS, Class.Terminator);
  add(CLOSERS, Class.Closer);
  add(OPENERS, Class.Opener);
  add(BULLETS, Class.Bullet);
  // U+0000 and U+FFFF are in no class, so `c & 0xffff` answers "no class" for the -1 and NaN
  // that callers pass for positions outside the text (and keeps every load in bounds).
  return t;
}

function has(c: number, cls: number): boolean {
  return (CLASSES[c & 0xffff]! & cls) !== 0;
}

export function isSpace(c: number): boolean {
  return has(c, Class.Space);
}

export function isTerminator(c: number): boolean {
  return has(c, Class.Terminator);
}

export function isCloser(c: number): boolean {
  return has(c, Class.Closer);
}

export function isOpener(c: number): boolean {
  return has(c, Class.Opener);
}

export function isBullet(c: number): boolean {
  return has(c, Class.Bullet);
}

/** Horizontal space: space and tab (used when looking for blank lines). */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

export function isNewline(c: number): boolean {
  return c === 10 || c === 13;
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isUpper(c: number): boolean {
  if (c < 128) return c >= 65 && c <= 90;
  return caseOf(c) === Case.Upper;
}

export function isLower(c: number): boolean {
  if (c < 128) return c >= 97 && c <= 122;
  return caseOf(c) === Case.Lower;
}

const enum Case { Unknown = 0, Upper = 1, Lower = 2, Neither = 3 }

/**
 * Case of code units above ASCII, worked out once each (String case mapping) and cached:
 * computing it per call made isLower about a tenth of the splitter's time on 20 Newsgroups.
 * Filled lazily, so loading the module costs nothing (the whole table takes ~35 ms).
 */
const CASES = new Uint8Array(65536);

function caseOf(c: number): number {
  if (!(c < 65536)) return Case.Neither; // NaN (charCodeAt past the end)
  const known = CASES[c]!;
  if (known !== Case.Unknown) return known;
  let kind: number = Case.Neither;
  if (c < 0xd800 || c > 0xdfff) {
    const s = String.fromCharCode(c);
    const lower = s.toLowerCase();
    const upper = s.toUpperCase();
    if (lower !== s && upper === s) kind = Case.Upper;
    else if (upper !== s && lower === s) kind = Case.Lower;
  }
  CASES[c] = kind;
  return kind;
}

export function isLetter(c: number): boolean {
  return isUpper(c) || isLower(c);
}

