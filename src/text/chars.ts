/**
 * Character classes for the sentence splitter, on UTF-16 code units (never throws on
 * lone surrogates: they are simply "other").
 *
 * Space, terminator, closer, opener and bullet are defined by the *Definition functions
 * below and answered from a table built from them: the splitter asks these for almost every
 * character it looks at, and a chain of up to 14 comparisons per call (an ASCII letter fails
 * them all) cost more than one table load.
 */

const enum Class { Space = 1, Terminator = 2, Closer = 4, Opener = 8, Bullet = 16 }

const CLASSES: Uint8Array = buildClasses();

function buildClasses(): Uint8Array {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 65536; c++) {
    t[c] = (isSpaceDefinition(c) ? Class.Space : 0) | (isTerminatorDefinition(c) ? Class.Terminator : 0)
      | (isCloserDefinition(c) ? Class.Closer : 0) | (isOpenerDefinition(c) ? Class.Opener : 0)
      | (isBulletDefinition(c) ? Class.Bullet : 0);
  }
  // U+0000 and U+FFFF are in no class, so `c & 0xffff` answers "no class" for the -1 and NaN
  // that callers pass for positions outside the text (and keeps every load in bounds).
  if (t[0] !== 0 || t[0xffff] !== 0) throw new Error('chars.ts: U+0000 and U+FFFF must be in no class');
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

/** Exactly the code units JavaScript's `\s` and `String.prototype.trim` treat as space. */
function isSpaceDefinition(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233
    || c === 8239 || c === 8287 || c === 12288 || c === 65279;
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

/** Sentence-final punctuation: . ! ? … ‽ and their full-width / interrobang forms. */
function isTerminatorDefinition(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 0x2026 || c === 0x203d
    || c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0xff0e;
}

/** Characters that close a quotation or bracket and stay with the sentence they end. */
function isCloserDefinition(c: number): boolean {
  return c === 34 || c === 39 || c === 41 || c === 93 || c === 125 || c === 0x201d
    || c === 0x2019 || c === 0xbb || c === 0x203a || c === 0x300d || c === 0x300f;
}

/** Characters that open a quotation or bracket before a sentence's first word. */
function isOpenerDefinition(c: number): boolean {
  return c === 34 || c === 39 || c === 40 || c === 91 || c === 123 || c === 0x201c
    || c === 0x2018 || c === 0xab || c === 0x2039 || c === 0xbf || c === 0xa1
    || c === 0x300c || c === 0x300e || c === 96;
}

/** List bullets that start a new item wherever they follow whitespace. */
function isBulletDefinition(c: number): boolean {
  return c === 0x2022 || c === 0x2043 || c === 0x25aa || c === 0x25e6 || c === 0x2023
    || c === 0x25cf || c === 0x25a0 || c === 0x27a2 || c === 0x2713;
}
