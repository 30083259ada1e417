/**
 * TEST-ONLY REFERENCE: the sentence splitter exactly as it was before it was rewritten
 * for speed (src/text/sentences.ts and src/text/chars.ts at commit 30994e6), kept so that
 * test/text/sentences-identity.test.ts can compare the fast splitter with it on random
 * text. Never import this from src/. If the splitter's RULES change on purpose, change
 * them here too (or retire this file with the property test), and regenerate the digest
 * (node scripts/splitter-digest.mjs --write).
 */
/**
 * English sentence splitter: one left-to-right pass over the text that looks only at a
 * bounded window around each candidate (terminal punctuation, line breaks, bullets,
 * list markers), so it is linear in the length of the text whatever its shape.
 *
 * Returns flat [start0, end0, start1, end1, ...] UTF-16 offsets into `text`; spans are
 * in order, do not overlap, are trimmed of whitespace (JavaScript's `\s`), and together
 * cover every non-whitespace character. The text is never rewritten.
 *
 * Line breaks (rule chosen by measurement; figures from scripts/bench/splitter.js):
 * - a blank line always ends a sentence;
 * - text whose typical line (90th percentile) is shorter than MIN_WRAP_WIDTH is not hard-
 *   wrapped: every line break ends a sentence (short lists, headline-per-line text);
 * - a line ending in final punctuation (. ! ? … possibly followed by closing quotes or
 *   brackets) is decided by the punctuation rules, where the line break counts as a
 *   sentence start even before a lower-case word, unless the word before the period is a
 *   known abbreviation or initial ("Mr.\nSmith" stays together). One-sentence-per-line
 *   corpora keep 98.0% (OHSUMED), 100% (Hallmarks), 97.1% (lower-cased movie reviews) of
 *   their line breaks as boundaries;
 * - a line without final punctuation ends a sentence when it is all capitals (headline),
 *   when it is short or ends in ":" and the next line starts a list item, or when it is
 *   more than SHORT_LINE_SLACK shorter than the typical width, the next line does not
 *   start in lower case and the line does not end in a function word ("of the");
 *   anything else is a hard wrap inside a sentence. BBC paragraphs re-wrapped at 70
 *   columns split identically to the unwrapped text in 99.1% of paragraphs.
 *
 * Speech in quotation marks is kept whole when the closing quote comes within
 * QUOTE_WINDOW characters (Pragmatic Segmenter's convention).
 *
 * Long sentences that run over line breaks are cut at those line breaks (MAX_WRAPPED_LENGTH,
 * see there): for selection, a 600-character sentence of hard-wrapped prose or verse is a
 * worse unit than its lines. The pieces are still verbatim spans of the text.
 */
import {
  AMBIGUOUS, BEFORE_NUMBER, CASED_AMBIGUOUS, CONTINUE, SENTENCE_STARTERS,
} from '../../src/text/abbreviations.js';
import { typicalLineWidth } from '../../src/text/lines.js';

// ---- src/text/chars.ts as it was ----

/** Exactly the code units JavaScript's `\s` and `String.prototype.trim` treat as space. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233
    || c === 8239 || c === 8287 || c === 12288 || c === 65279;
}

/** Horizontal space: space and tab (used when looking for blank lines). */
function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

function isNewline(c: number): boolean {
  return c === 10 || c === 13;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isUpper(c: number): boolean {
  if (c < 128) return c >= 65 && c <= 90;
  if (c >= 0xd800 && c <= 0xdfff) return false;
  const s = String.fromCharCode(c);
  return s.toLowerCase() !== s && s.toUpperCase() === s;
}

function isLower(c: number): boolean {
  if (c < 128) return c >= 97 && c <= 122;
  if (c >= 0xd800 && c <= 0xdfff) return false;
  const s = String.fromCharCode(c);
  return s.toUpperCase() !== s && s.toLowerCase() === s;
}

function isLetter(c: number): boolean {
  return isUpper(c) || isLower(c);
}

/** Sentence-final punctuation: . ! ? … ‽ and their full-width / interrobang forms. */
function isTerminator(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 0x2026 || c === 0x203d
    || c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0xff0e;
}

/** Characters that close a quotation or bracket and stay with the sentence they end. */
function isCloser(c: number): boolean {
  return c === 34 || c === 39 || c === 41 || c === 93 || c === 125 || c === 0x201d
    || c === 0x2019 || c === 0xbb || c === 0x203a || c === 0x300d || c === 0x300f;
}

/** Characters that open a quotation or bracket before a sentence's first word. */
function isOpener(c: number): boolean {
  return c === 34 || c === 39 || c === 40 || c === 91 || c === 123 || c === 0x201c
    || c === 0x2018 || c === 0xab || c === 0x2039 || c === 0xbf || c === 0xa1
    || c === 0x300c || c === 0x300e || c === 96;
}

/** List bullets that start a new item wherever they follow whitespace. */
function isBullet(c: number): boolean {
  return c === 0x2022 || c === 0x2043 || c === 0x25aa || c === 0x25e6 || c === 0x2023
    || c === 0x25cf || c === 0x25a0 || c === 0x27a2 || c === 0x2713;
}

// ---- src/text/sentences.ts as it was ----

/** Longest word (UTF-16 units) the rules look at on either side of a candidate. */
const WINDOW = 40;
/**
 * Typical line widths below this are not hard wraps (Reuters and Gutenberg wrap near
 * 65-75). 40 made BBC paragraphs wrapped at 40 columns split like the flat text in only
 * 58.9% of paragraphs; 30 gives 94.2% and still treats short list lines as sentences.
 */
const MIN_WRAP_WIDTH = 30;
/** A line this much shorter than the typical width ended on purpose (fraction of width). */
const SHORT_LINE_SLACK = 0.25;

/**
 * A sentence longer than this (UTF-16 units) that contains line breaks is cut at each of
 * them. Whole sentences of hard-wrapped text are long (Gutenberg: 108 characters on
 * average, Reuters 116; with the cap 68 and 78), and where lines carry no final
 * punctuation (tables, lists of full-width lines, verse) the line rules glue them into
 * one "sentence" of thousands of characters (a 20 Newsgroups table: 0.6% of that corpus's
 * text sat in such pieces, none with the cap). Measured with
 * scripts/research/line-structure.js (five 1.5 MB mixes, in-domain source 30%:
 * hard-wrapped forum posts, Gutenberg books, leaflets, Reuters, BBC re-wrapped at 70
 * columns; keep 20% of bytes; mean of 5 seeds, share of kept text that is in-domain):
 *   DSIR         whole sentences 94.2% (worst mix 82.9%), every line break 91.9% (81.9%),
 *                cap 200 93.9% (83.6%), cap 300 94.5% (83.8%), cap 400 94.2% (83.8%);
 *   Moore-Lewis  whole 84.2% (75.6%), every line break 88.0% (77.5%), cap 200 85.4%
 *                (78.4%), cap 300 84.8% (77.6%), cap 400 85.8% (77.1%).
 * 300 is best for DSIR and better than whole sentences for both; it changes fewer
 * sentences than 200 (on the hash-embedder rank test, ChemProt vs BBC + Gutenberg, kNN
 * AUROC is 0.688 with whole sentences, 0.647 with cap 200, 0.747 with cap 300).
 */
const MAX_WRAPPED_LENGTH = 300;

interface SplitOptions {
  /** Cut sentences longer than this at their line breaks (Infinity: never). */
  maxWrappedLength?: number;
}

const enum Cand { None = 0, Terminator = 1, Newline = 2, Paren = 3, Bullet = 4, Quote = 5 }

/**
 * Longest quotation (UTF-16 units) whose inner punctuation is not a boundary: the golden
 * cases quote up to ~300 characters of speech ("'Well!' thought Alice ... house!'"); the
 * bound keeps an unmatched quote from swallowing a whole document.
 */
const QUOTE_WINDOW = 400;

const CANDIDATES: Uint8Array = buildCandidates();

function buildCandidates(): Uint8Array {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 65536; c++) {
    if (isTerminator(c)) t[c] = Cand.Terminator;
    else if (isNewline(c)) t[c] = Cand.Newline;
    else if (c === 41) t[c] = Cand.Paren;
    else if (isBullet(c)) t[c] = Cand.Bullet;
    else if (c === 34 || c === 39 || c === 0x201c || c === 0x2018) t[c] = Cand.Quote;
  }
  return t;
}

export function referenceSplitSentences(text: string, opts: SplitOptions = {}): number[] {
  if (text.length === 0) return [];
  const splitter = new Splitter(text);
  splitter.scan();
  const spans = splitter.spans();
  return capWrappedSentences(text, spans, opts.maxWrappedLength ?? MAX_WRAPPED_LENGTH);
}

/**
 * Spans longer than `max` that contain line breaks become one span per non-blank line
 * (trimmed); shorter spans pass unchanged. Returns `spans` itself when nothing is cut.
 */
function capWrappedSentences(text: string, spans: number[], max: number): number[] {
  let out: number[] | undefined;
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i]!;
    const end = spans[i + 1]!;
    const long = end - start > max && hasNewline(text, start, end);
    if (!long) {
      out?.push(start, end);
      continue;
    }
    out ??= spans.slice(0, i);
    let from = start;
    for (let p = start; p <= end; p++) {
      if (p < end && !isNewline(text.charCodeAt(p))) continue;
      let a = from;
      let b = p;
      while (a < b && isSpace(text.charCodeAt(a))) a++;
      while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
      if (b > a) out.push(a, b);
      from = p + 1;
    }
  }
  return out ?? spans;
}

function hasNewline(text: string, start: number, end: number): boolean {
  for (let p = start; p < end; p++) if (isNewline(text.charCodeAt(p))) return true;
  return false;
}

interface ListMarker { kind: number; style: number; value: number }

class Splitter {
  private readonly text: string;
  private readonly n: number;
  private readonly cuts: number[] = [];
  private lastCut = 0;
  /** No ASCII capital anywhere (lower-cased corpora): case says nothing about starts. */
  private readonly caseless: boolean;
  private readonly lineWidth: number;
  private lineStart = 0;
  private marker: ListMarker | undefined;
  /** Position of the closing quote of the quotation being scanned (-1: none). */
  private quoteEnd = -1;

  constructor(text: string) {
    this.text = text;
    this.n = text.length;
    this.caseless = !/[A-Z]/.test(text);
    this.lineWidth = typicalLineWidth(text);
  }

  scan(): void {
    const text = this.text;
    const n = this.n;
    let i = 0;
    while (i < n) {
      const kind = CANDIDATES[text.charCodeAt(i)]!;
      if (kind === Cand.None) { i++; continue; }
      switch (kind) {
        case Cand.Terminator: i = this.terminator(i); break;
        case Cand.Newline: i = this.newline(i); break;
        case Cand.Paren: this.parenMarker(i); i++; break;
        case Cand.Quote: this.quote(i); i++; break;
        default:
          if (i === 0 || isSpace(text.charCodeAt(i - 1))) this.cut(i);
          i++;
      }
    }
  }

  spans(): number[] {
    const out: number[] = [];
    let prev = 0;
    for (const c of this.cuts) { this.emit(out, prev, c); prev = c; }
    this.emit(out, prev, this.n);
    return out;
  }

  private emit(out: number[], from: number, to: number): void {
    const text = this.text;
    while (from < to && isSpace(text.charCodeAt(from))) from++;
    while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
    if (to > from) out.push(from, to);
  }

  private cut(pos: number): void {
    if (pos > this.lastCut && pos < this.n) { this.cuts.push(pos); this.lastCut = pos; }
  }

  private code(i: number): number {
    return i < this.n ? this.text.charCodeAt(i) : -1;
  }

  /** Start of the whitespace-delimited token that ends at `end` (bounded by WINDOW). */
  private tokenStart(end: number): number {
    let s = end;
    const stop = Math.max(0, end - WINDOW);
    while (s > stop && !isSpace(this.text.charCodeAt(s - 1))) s--;
    return s;
  }

  /** Skip openers and bullets at the front of a token. */
  private wordStart(s: number, end: number): number {
    while (s < end) {
      const c = this.text.charCodeAt(s);
      if (!isOpener(c) && !isBullet(c)) break;
      s++;
    }
    return s;
  }

  /** True when only whitespace, bullets and openers lie between the last cut and `pos`. */
  private atSentenceStart(pos: number): boolean {
    let p = pos - 1;
    while (p >= this.lastCut) {
      const c = this.text.charCodeAt(p);
      if (!isSpace(c) && !isBullet(c) && !isOpener(c)) return false;
      p--;
    }
    return true;
  }

  /** "1." "1.)" "1)" "a." "B)": a list item label; returns false when it is not one. */
  private listMarker(tokStart: number, wordStart: number, end: number, style: number): boolean {
    const len = end - wordStart;
    if (len < 1 || len > 3) return false;
    const text = this.text;
    let kind: number;
    let value: number;
    const c0 = text.charCodeAt(wordStart);
    if (isDigit(c0)) {
      value = 0;
      for (let p = wordStart; p < end; p++) {
        const c = text.charCodeAt(p);
        if (!isDigit(c)) return false;
        value = value * 10 + (c - 48);
      }
      kind = 0;
    } else if (len === 1 && c0 < 128 && isLetter(c0)) {
      kind = isUpper(c0) ? 2 : 1;
      value = (c0 | 32) - 97;
    } else {
      return false;
    }
    const prev = this.marker;
    if (this.atSentenceStart(wordStart)) {
      this.marker = { kind, style, value };
      return true;
    }
    if (prev && prev.kind === kind && prev.style === style && prev.value + 1 === value) {
      this.cut(tokStart);
      this.marker = { kind, style, value };
      return true;
    }
    return false;
  }

  private parenMarker(i: number): void {
    const next = this.code(i + 1);
    if (next >= 0 && !isSpace(next)) return;
    const s = this.tokenStart(i);
    const w = this.wordStart(s, i);
    if (w !== s && !isBullet(this.text.charCodeAt(s))) return; // "(1)" is not a label here
    this.listMarker(s, w, i, 2);
  }

  /** At an opening quote, find its closing quote within QUOTE_WINDOW (not past a blank line). */
  private quote(i: number): void {
    if (i < this.quoteEnd) return;
    const text = this.text;
    const c = text.charCodeAt(i);
    const before = this.code(i - 1);
    if (before >= 0 && !isSpace(before) && !isOpener(before) && before !== 45 && before !== 0x2014) return;
    const after = this.code(i + 1);
    if (after < 0 || isSpace(after)) return;
    const single = c === 39 || c === 0x2018;
    const close = c === 0x201c ? 0x201d : c === 0x2018 ? 0x2019 : c;
    const stop = Math.min(this.n, i + QUOTE_WINDOW);
    let sawNewline = false;
    let last = c; // last non-space character
    for (let p = i + 1; p < stop; p++) {
      const d = text.charCodeAt(p);
      if (d === 10) {
        // Give up at a blank line, or at a line break after final punctuation (one sentence
        // per line text: the break is the stronger evidence).
        if (sawNewline || isTerminator(last) || isCloser(last)) return;
        sawNewline = true;
      } else if (!isSpace(d)) {
        sawNewline = false;
        last = d;
      }
      // Another quotation opening before this one closed: unbalanced, protect nothing.
      if (d === c && c !== 39 && isSpace(this.code(p - 1)) && isLetter(this.code(p + 1))) return;
      if (d !== close && !(single && d === 39) && !(c === 34 && d === 0x201d)) continue;
      // A closing quote follows a non-space and is not glued to a word ("don't", '"I' at a
      // paragraph start re-opening an unclosed quotation).
      if (isSpace(this.code(p - 1)) || isLetter(this.code(p + 1)) || isDigit(this.code(p + 1))) continue;
      this.quoteEnd = p;
      return;
    }
  }

  private terminator(i: number): number {
    const text = this.text;
    const n = this.n;
    let j = i;
    let dots = 0;
    let strong = 0; // ! ? and the like
    let ellipsis = 0;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (!isTerminator(c)) break;
      if (c === 46) dots++;
      else if (c === 0x2026) ellipsis++;
      else strong++;
      j++;
    }
    // Spaced ellipsis ". . ." (only from a single period).
    let spaced = 1;
    if (j === i + 1 && dots === 1) {
      let q = j;
      while (q + 1 < n && text.charCodeAt(q) === 32 && text.charCodeAt(q + 1) === 46) {
        q += 2;
        spaced++;
      }
      if (spaced >= 3) j = q;
      else spaced = 1;
    }
    let k = j;
    for (;;) {
      if (k < n && isCloser(text.charCodeAt(k))) { k++; continue; }
      // Tokenised text: "case . )" / "hardcore . \"" (a bracket, or the quotation's own end).
      if (this.code(k) === 32 && k + 1 < n) {
        const d = text.charCodeAt(k + 1);
        const after = this.code(k + 2);
        if ((d === 41 || d === 93 || k + 1 === this.quoteEnd || (d === 34 && isNewline(after)))
          && (after < 0 || isSpace(after))) {
          k += 2;
          continue;
        }
      }
      break;
    }
    let m = k;
    let newline = false;
    while (m < n) {
      const c = text.charCodeAt(m);
      if (!isSpace(c)) break;
      if (c === 10 || c === 13) newline = true;
      m++;
    }
    const s = Math.max(this.tokenStart(i), this.lastCut);
    const w = this.wordStart(s, i);
    const attached = w < i;
    if (i < this.quoteEnd && k <= this.quoteEnd && !newline) return k; // inside a quotation

    if (m === k) {
      if (m >= n) return k;
      if (text.charCodeAt(j - 1) >= 0x3000) { this.cut(k); return k; } // full-width: no space used
      if (strong + dots === j - i && (strong > 0 || dots === 1)) {
        if (k === j && this.missingSpace(i, j)) { this.cut(j); return k; }
        const refs = this.footnoteEnd(i, k);
        if (refs > k && refs < n && isSpace(text.charCodeAt(refs))) {
          let r = refs;
          while (r < n && isSpace(text.charCodeAt(r))) r++;
          if (r < n && this.startsSentence(r)) this.cut(refs);
          return refs;
        }
      }
      return k;
    }

    if (dots === 1 && strong === 0 && ellipsis === 0 && spaced === 1) {
      const style = k > j && text.charCodeAt(j) === 41 && k === j + 1 ? 1 : 0;
      if (this.listMarker(s, w, i, style)) return k;
      if (m >= n) return k;
      if (this.periodEnds(s, w, i, m, newline)) this.cut(k);
      return k;
    }
    if (m >= n) return k;
    if (strong > 0) {
      if (dots === 0 && ellipsis === 0 && STRONG_NAMES.has(text.slice(w, i)) && !newline) return k;
      if (newline || this.startsSentence(m)) this.cut(k);
      return k;
    }
    if (spaced >= 3) {
      if (newline) { this.cut(k); return k; }
      if (!this.startsSentence(m)) return k;
      if (spaced >= 4 && attached) this.cut(i + 1);
      else if (spaced >= 4 || attached) this.cut(k);
      return k;
    }
    // Unspaced ellipsis "..." "...." "…": a boundary after a word when a sentence follows.
    if (attached && (this.startsSentence(m) || newline)) this.cut(k);
    else if (!attached && newline && this.startsSentence(m)) this.cut(k);
    return k;
  }

  /** The next sentence-like start at `m`: anything but a lower-case letter (after openers). */
  private startsSentence(m: number): boolean {
    const c = this.code(m);
    if (isTerminator(c) || isDash(c)) return false; // "Fig. ??", "voila! -- you"
    if (this.caseless || this.enumeratorAt(m)) return true;
    let p = m;
    const stop = Math.min(this.n, m + 4);
    while (p < stop && isOpener(this.text.charCodeAt(p))) p++;
    return !isLower(this.code(p));
  }

  /** "a. " "b) " "(c) " "[iv] " "12. ": an item label that starts a new sentence. */
  private enumeratorAt(m: number): boolean {
    let p = m;
    const open = this.code(p);
    const bracketed = open === 40 || open === 91;
    if (bracketed) p++;
    const start = p;
    while (p < start + 4 && p < this.n) {
      const c = this.text.charCodeAt(p);
      if (!(c < 128 && (isLetter(c) || isDigit(c)))) break;
      p++;
    }
    const len = p - start;
    if (len === 0) return false;
    const close = this.code(p);
    if (!isSpace(this.code(p + 1))) return false;
    if (bracketed) return close === (open === 40 ? 41 : 93);
    if (close !== 41 && close !== 46) return false;
    return len === 1 || isDigit(this.text.charCodeAt(start));
  }

  /** Footnote references glued to a period: "martyr.[1][2]", "consultation.11 12", "(type 2).10". */
  private footnoteEnd(i: number, k: number): number {
    const text = this.text;
    const before = this.code(i - 1);
    if (!(isLetter(before) && isLetter(this.code(i - 2))) && before !== 41) return k;
    let p = k;
    if (this.code(p) === 91) {
      while (this.code(p) === 91) {
        let q = p + 1;
        while (q < p + 9 && q < this.n && (isDigit(text.charCodeAt(q)) || text.charCodeAt(q) === 44
          || text.charCodeAt(q) === 45 || text.charCodeAt(q) === 0x2013)) q++;
        if (q === p + 1 || this.code(q) !== 93) return p;
        p = q + 1;
      }
      return p;
    }
    let groups = 0;
    for (;;) {
      let q = p;
      while (q < p + 3 && isDigit(this.code(q))) q++;
      if (q === p || isDigit(this.code(q))) return groups === 0 ? k : p - 1;
      groups++;
      p = q;
      if (this.code(p) !== 32 || !isDigit(this.code(p + 1))) return p;
      p++;
    }
  }

  /** Does a single period at `dot` (word text[w, dot)) end a sentence, next word at `m`? */
  private periodEnds(s: number, w: number, dot: number, m: number, newline: boolean): boolean {
    const text = this.text;
    const word = text.slice(w, dot);
    const lower = word.toLowerCase();
    let p = m;
    const stop = Math.min(this.n, m + 4);
    while (p < stop && isOpener(text.charCodeAt(p))) p++;
    const nc = this.code(p);
    if (isDigit(nc) && BEFORE_NUMBER.has(lower)) return false;
    if (CONTINUE.has(lower)) return false;
    const plain = newline || this.startsSentence(m);
    if (dot - s >= WINDOW) return plain;
    const single = word.length === 1 && isLetter(word.charCodeAt(0));
    if (single && word === 'I' && this.previousWordIsLower(s)) return plain;
    if (lower === 'a.m' || lower === 'p.m') return this.starterAt(p) || this.capitalisedWordAt(p);
    if (AMBIGUOUS.has(lower) || CASED_AMBIGUOUS.has(word) || single || isDotted(word)) {
      return this.starterAt(p);
    }
    return plain;
  }

  /** A capitalised word ("Travelers") that is not a weekday, month or title after a time. */
  private capitalisedWordAt(p: number): boolean {
    if (!isUpper(this.code(p)) || !isLower(this.code(p + 1))) return false;
    let e = p;
    const stop = Math.min(this.n, p + 16);
    while (e < stop && isLetter(this.text.charCodeAt(e))) e++;
    return !NOT_AFTER_TIME.has(this.text.slice(p, e));
  }

  /** A typical sentence-initial word at `p`, not itself an initial ("J. R. R."). */
  private starterAt(p: number): boolean {
    const text = this.text;
    let e = p;
    const stop = Math.min(this.n, p + 16);
    while (e < stop && isLetter(text.charCodeAt(e))) e++;
    if (e === p) return false;
    if (e - p === 1 && this.code(e) === 46) return false;
    let word = text.slice(p, e);
    if (this.caseless) word = word.charAt(0).toUpperCase() + word.slice(1);
    return SENTENCE_STARTERS.has(word);
  }

  /** The word before the token starting at `s` is lower case ("you and I."). */
  private previousWordIsLower(s: number): boolean {
    let p = s - 1;
    const stop = Math.max(0, s - WINDOW);
    while (p >= stop && isSpace(this.text.charCodeAt(p))) p--;
    if (p < stop) return false;
    while (p > stop && isLetter(this.text.charCodeAt(p - 1))) p--;
    return isLower(this.text.charCodeAt(p));
  }

  /**
   * "end.Next" with no space: a boundary when a capitalised word follows a word of two or
   * more letters or a number, outside e-mail addresses, URLs and dotted names.
   */
  private missingSpace(i: number, j: number): boolean {
    const text = this.text;
    if (!isUpper(this.code(j)) || !isLower(this.code(j + 1))) return false;
    let b = i;
    const stop = Math.max(0, i - WINDOW);
    while (b > stop) {
      const c = text.charCodeAt(b - 1);
      if (!isLetter(c) && !isDigit(c) && c !== 44) break;
      b--;
    }
    if (i - b < 2) return false;
    const before = this.code(b - 1);
    if (before === 46 || before === 64 || before === 47) return false;
    let e = j;
    const end = Math.min(this.n, j + WINDOW);
    while (e < end) {
      const c = text.charCodeAt(e);
      if (isSpace(c)) break;
      if (c === 64 || c === 47) return false;
      e++;
    }
    let t = b;
    while (t > stop && !isSpace(text.charCodeAt(t - 1))) {
      const c = text.charCodeAt(t - 1);
      if (c === 64 || c === 47) return false;
      t--;
    }
    return true;
  }

  private newline(i: number): number {
    const text = this.text;
    const n = this.n;
    const c = text.charCodeAt(i);
    const after = c === 13 && this.code(i + 1) === 10 ? i + 2 : i + 1;
    const lineStart = this.lineStart;
    this.lineStart = after;
    let q = after;
    while (q < n && isBlank(text.charCodeAt(q))) q++;
    if (q >= n) return after;
    const next = text.charCodeAt(q);
    if (isNewline(next)) { this.cut(i); return after; }
    let e = i;
    while (e > lineStart && isSpace(text.charCodeAt(e - 1))) e--;
    if (e === lineStart) { this.cut(i); return after; }
    if (this.lineWidth < MIN_WRAP_WIDTH) { this.cut(i); return after; }
    if (this.endsWithTerminator(lineStart, e)) return after;
    if (this.isHeading(lineStart, e)) { this.cut(i); return after; }
    const width = i - lineStart;
    const short = width < this.lineWidth * (1 - SHORT_LINE_SLACK);
    // A wrapped line may start with "- 17%" or "75."; a list item follows a short line or ":".
    if ((short || text.charCodeAt(e - 1) === 58) && this.startsListItem(q)) { this.cut(i); return after; }
    if (short && this.startsSentence(q) && !this.endsWithFunctionWord(lineStart, e)) this.cut(i);
    return after;
  }

  private endsWithTerminator(lineStart: number, e: number): boolean {
    let p = e - 1;
    const stop = Math.max(lineStart, e - 4);
    while (p > stop && (isCloser(this.text.charCodeAt(p)) || this.text.charCodeAt(p) === 32)) p--;
    return isTerminator(this.text.charCodeAt(p));
  }

  /** "... members of the" : a line that cannot end a sentence (Reuters first lines are short). */
  private endsWithFunctionWord(lineStart: number, e: number): boolean {
    let b = e;
    const stop = Math.max(lineStart, e - 8);
    while (b > stop && isLower(this.text.charCodeAt(b - 1))) b--;
    if (b === e || (b > lineStart && !isSpace(this.text.charCodeAt(b - 1)))) return false;
    return FUNCTION_WORDS.has(this.text.slice(b, e));
  }

  /** A line of capitals (two or more, no lower-case letter): a headline or title. */
  private isHeading(start: number, end: number): boolean {
    let upper = 0;
    for (let p = start; p < end; p++) {
      const c = this.text.charCodeAt(p);
      if (isLower(c)) return false;
      if (isUpper(c)) upper++;
    }
    return upper >= 2;
  }

  /** "- item", "* item", "• item", "1. item", "2) item" at `q`. */
  private startsListItem(q: number): boolean {
    const c = this.code(q);
    if (isBullet(c)) return true;
    if ((c === 45 || c === 42) && isSpace(this.code(q + 1))) return true;
    let p = q;
    while (p < q + 3 && isDigit(this.code(p))) p++;
    if (p === q) return false;
    const d = this.code(p);
    return (d === 46 || d === 41) && isSpace(this.code(p + 1));
  }
}

/** Words whose "!" belongs to a name ("Yahoo! Research"). */
const STRONG_NAMES = new Set<string>(['Yahoo', 'Jeopardy']);

/** Capitalised words that continue a sentence after "a.m." / "p.m." ("5 p.m. Monday"). */
const NOT_AFTER_TIME = new Set<string>([
  'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'January',
  'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December', 'Mr', 'Mrs', 'Ms', 'Dr', 'Eastern', 'Pacific', 'Central',
  'Mountain', 'Greenwich', 'local', 'Moscow', 'London', 'Tokyo', 'GMT', 'EST', 'EDT',
]);

/** Lower-case words that never end an English sentence. */
const FUNCTION_WORDS = new Set<string>([
  'the', 'a', 'an', 'of', 'and', 'or', 'to', 'in', 'for', 'with', 'on', 'at', 'by', 'from',
  'that', 'which', 'as', 'its', 'their', 'his', 'her', 'our', 'is', 'are', 'was', 'were',
  'be', 'has', 'have', 'had', 'will', 'would', 'said', 'but', 'than', 'into', 'about',
]);

function isDash(c: number): boolean {
  return c === 45 || c === 0x2013 || c === 0x2014;
}

/** "U.S", "e.g", "a.m", "Ph.D": letters (one or two) joined by periods. */
function isDotted(word: string): boolean {
  if (word.length < 3 || word.length > 12) return false;
  let run = 0;
  let periods = 0;
  for (let p = 0; p < word.length; p++) {
    const c = word.charCodeAt(p);
    if (c === 46) {
      if (run === 0) return false;
      periods++;
      run = 0;
    } else if (isLetter(c)) {
      run++;
      if (run > 2) return false;
    } else {
      return false;
    }
  }
  return periods > 0 && run > 0;
}

// The character classes as they were, for test/text/chars.test.ts.
export {
  isBullet as referenceIsBullet, isCloser as referenceIsCloser, isLower as referenceIsLower,
  isOpener as referenceIsOpener, isSpace as referenceIsSpace, isTerminator as referenceIsTerminator,
  isUpper as referenceIsUpper,
};
