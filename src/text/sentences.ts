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
 *
 * Speed: the rules above were kept exactly while the code was rewritten for speed
 * (1.55-2.2x, scripts/bench/splitter.js); test/text/sentences-identity.test.ts holds every
 * span to those of the splitter it replaced, on every shared corpus and on random text.
 */
import { listedAs, Listed } from './abbreviation-lookup.js';
import { CASED_AMBIGUOUS, SENTENCE_STARTERS } from './abbreviations.js';
import {
  BULLETS, isBlank, isBullet, isCloser, isDigit, isLetter, isLower, isNewline, isOpener, isSpace,
  isTerminator, isUpper, TERMINATORS,
} from './chars.js';
import { typicalLineWidth } from './lines.js';
import { CodeUnitCopy } from './code-units.js';

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
export const MAX_WRAPPED_LENGTH = 300;

export interface SplitOptions {
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

/** One bit per kind of quotation, by its opening mark. */
const enum Mark { Straight = 1, Apostrophe = 2, Curly = 4, CurlySingle = 8 }

/**
 * The kinds of quotation whose closing search a character can end: the line break (all),
 * the closing marks, and the opening mark itself (an unbalanced re-opening). The search
 * skips every other character.
 */
const QUOTE_MARKS: Uint8Array = buildQuoteMarks();

function buildQuoteMarks(): Uint8Array {
  const t = new Uint8Array(65536);
  t[10] = Mark.Straight | Mark.Apostrophe | Mark.Curly | Mark.CurlySingle;
  t[34] = Mark.Straight;
  t[39] = Mark.Apostrophe | Mark.CurlySingle;
  t[0x201c] = Mark.Curly;
  t[0x201d] = Mark.Curly | Mark.Straight;
  t[0x2018] = Mark.CurlySingle;
  t[0x2019] = Mark.CurlySingle;
  return t;
}

function quotationKind(open: number): number {
  return open === 34 ? Mark.Straight : open === 39 ? Mark.Apostrophe : open === 0x201c ? Mark.Curly : Mark.CurlySingle;
}

/** The characters the scan stops at, by what they may start. */
const CANDIDATE_KINDS: ReadonlyArray<[Cand, readonly number[]]> = [
  [Cand.Terminator, TERMINATORS],
  [Cand.Newline, [10, 13]],
  [Cand.Paren, [41]],
  [Cand.Bullet, BULLETS],
  [Cand.Quote, [34, 39, 0x201c, 0x2018]],
];

const CANDIDATES: Uint8Array = buildCandidates();

function buildCandidates(): Uint8Array {
  const t = new Uint8Array(65536);
  for (const [kind, members] of CANDIDATE_KINDS) for (const c of members) t[c] = kind;
  return t;
}

function indexOrEnd(text: string, ch: string, from: number): number {
  const at = text.indexOf(ch, from);
  return at < 0 ? text.length : at;
}

export function splitSentences(text: string, opts: SplitOptions = {}): number[] {
  if (text.length === 0) return [];
  return new Splitter(text, opts.maxWrappedLength ?? MAX_WRAPPED_LENGTH).split();
}

/**
 * Spans longer than `max` that contain line breaks become one span per non-blank line
 * (trimmed); shorter spans pass unchanged. Returns `spans` itself when nothing is cut.
 * (splitSentences applies the same rule to each sentence as it emits it.)
 */
export function capWrappedSentences(text: string, spans: number[], max: number): number[] {
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
    pushLines(text, out, start, end);
  }
  return out ?? spans;
}

/** Each non-blank line of text[start, end), trimmed, as a span. */
function pushLines(text: string, out: number[], start: number, end: number): void {
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

function hasNewline(text: string, start: number, end: number): boolean {
  for (let p = start; p < end; p++) if (isNewline(text.charCodeAt(p))) return true;
  return false;
}

/** Reused between documents: the splitter runs one document at a time on a thread. */
const units = new CodeUnitCopy();

interface ListMarker { kind: number; style: number; value: number }

class Splitter {
  private readonly text: string;
  /**
   * The text's UTF-16 code units, read by index: charCodeAt re-checks the string's
   * representation at every call, and reading a typed array instead made the splitter
   * faster (docs/benchmarks/speed-and-memory.md, "The bare pipeline"). Slices and indexOf
   * use `text`.
   */
  private readonly codes: Uint16Array;
  private readonly n: number;
  /** Sentences cut longer than this that contain line breaks are emitted line by line. */
  private readonly maxWrapped: number;
  /** Finished spans, pushed as each cut is made (cuts only move forward). */
  private readonly out: number[] = [];
  private lastCut = 0;
  /** No ASCII capital anywhere (lower-cased corpora): case says nothing about starts. */
  private readonly caseless: boolean;
  private readonly lineWidth: number;
  private lineStart = 0;
  /** First character of the current line that is not a space or tab. */
  private lineBody = 0;
  private marker: ListMarker | undefined;
  /** Position of the closing quote of the quotation being scanned (-1: none). */
  private quoteEnd = -1;
  /** First "\n" / "\r" at or after the last span checked for line breaks (n: none left). */
  private nextLf = -1;
  private nextCr = -1;

  constructor(text: string, maxWrapped: number) {
    this.text = text;
    this.n = text.length;
    this.codes = units.of(text);
    this.maxWrapped = maxWrapped;
    this.caseless = !/[A-Z]/.test(text);
    this.lineWidth = typicalLineWidth(text);
  }

  split(): number[] {
    this.scan();
    this.emit(this.lastCut, this.n);
    return this.out;
  }

  /**
   * Visit each candidate character in order, found by a table lookup per code unit of the
   * typed-array copy. Over strings, with charCodeAt, that loop was about a third of the
   * splitter's time and a native regular-expression search beat it; over the copy, the loop
   * split the bench mix in 0.89-0.91 of the search's time on node 20 and the same time on
   * node 24 (30 MB, same spans).
   */
  private scan(): void {
    const codes = this.codes;
    const n = this.n;
    const kinds = CANDIDATES;
    let i = 0;
    while (i < n) {
      while (i < n && kinds[codes[i]!] === 0) i++;
      if (i >= n) return;
      switch (kinds[codes[i]!]!) {
        case Cand.Terminator: i = this.terminator(i); break;
        case Cand.Newline: i = this.newline(i); break;
        case Cand.Paren: this.parenMarker(i); i++; break;
        case Cand.Quote: this.quote(i); i++; break;
        default:
          if (i === 0 || isSpace(codes[i - 1]!)) this.cut(i);
          i++;
      }
    }
  }

  /** text[from, to) trimmed, as one span, or line by line when it is long and wrapped. */
  private emit(from: number, to: number): void {
    const codes = this.codes;
    while (from < to && isSpace(codes[from]!)) from++;
    while (to > from && isSpace(codes[to - 1]!)) to--;
    if (to <= from) return;
    if (to - from > this.maxWrapped && this.hasNewline(from, to)) this.emitLines(from, to);
    else this.out.push(from, to);
  }

  /** Each non-blank line of text[from, to), trimmed (pushLines, finding breaks natively). */
  private emitLines(from: number, to: number): void {
    const text = this.text;
    const codes = this.codes;
    const out = this.out;
    for (;;) {
      const p = Math.min(this.nextLf, this.nextCr, to);
      let a = from;
      let b = p;
      while (a < b && isSpace(codes[a]!)) a++;
      while (b > a && isSpace(codes[b - 1]!)) b--;
      if (b > a) out.push(a, b);
      if (p >= to) return;
      from = p + 1;
      if (p === this.nextLf) this.nextLf = indexOrEnd(text, '\n', from);
      else this.nextCr = indexOrEnd(text, '\r', from);
    }
  }

  /** A line break in text[from, to); `from` never decreases between calls. */
  private hasNewline(from: number, to: number): boolean {
    if (this.nextLf < from) this.nextLf = indexOrEnd(this.text, '\n', from);
    if (this.nextCr < from) this.nextCr = indexOrEnd(this.text, '\r', from);
    return this.nextLf < to || this.nextCr < to;
  }

  private cut(pos: number): void {
    if (pos > this.lastCut && pos < this.n) { this.emit(this.lastCut, pos); this.lastCut = pos; }
  }

  private code(i: number): number {
    return i < this.n ? this.codes[i]! : -1;
  }

  /** Start of the whitespace-delimited token that ends at `end` (bounded by WINDOW and `floor`). */
  private tokenStart(end: number, floor = 0): number {
    let s = end;
    const stop = Math.max(floor, end - WINDOW);
    while (s > stop && !isSpace(this.codes[s - 1]!)) s--;
    return s;
  }

  /** Skip openers and bullets at the front of a token. */
  private wordStart(s: number, end: number): number {
    while (s < end) {
      const c = this.codes[s]!;
      if (!isOpener(c) && !isBullet(c)) break;
      s++;
    }
    return s;
  }

  /** True when only whitespace, bullets and openers lie between the last cut and `pos`. */
  private atSentenceStart(pos: number): boolean {
    let p = pos - 1;
    while (p >= this.lastCut) {
      const c = this.codes[p]!;
      if (!isSpace(c) && !isBullet(c) && !isOpener(c)) return false;
      p--;
    }
    return true;
  }

  /** "1." "1.)" "1)" "a." "B)": a list item label; returns false when it is not one. */
  private listMarker(tokStart: number, wordStart: number, end: number, style: number): boolean {
    const len = end - wordStart;
    if (len < 1 || len > 3) return false;
    const codes = this.codes;
    let kind: number;
    let value: number;
    const c0 = codes[wordStart]!;
    if (isDigit(c0)) {
      value = 0;
      for (let p = wordStart; p < end; p++) {
        const c = codes[p]!;
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
    if (w !== s && !isBullet(this.codes[s]!)) return; // "(1)" is not a label here
    this.listMarker(s, w, i, 2);
  }

  /** At an opening quote, find its closing quote within QUOTE_WINDOW (not past a blank line). */
  private quote(i: number): void {
    if (i < this.quoteEnd) return;
    const codes = this.codes;
    const c = codes[i]!;
    const before = this.code(i - 1);
    if (before >= 0 && !isSpace(before) && !isOpener(before) && before !== 45 && before !== 0x2014) return;
    const after = this.code(i + 1);
    if (after < 0 || isSpace(after)) return;
    const single = c === 39 || c === 0x2018;
    const close = c === 0x201c ? 0x201d : c === 0x2018 ? 0x2019 : c;
    const stop = Math.min(this.n, i + QUOTE_WINDOW);
    const kind = quotationKind(c);
    for (let p = i + 1; p < stop; p++) {
      const d = codes[p]!;
      // Only line breaks and this quotation's own marks can end the search.
      if ((QUOTE_MARKS[d]! & kind) === 0) continue;
      if (d === 10) {
        if (this.quotationBrokenAt(p)) return;
        continue;
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

  /**
   * At a line break inside a quotation: give up at a blank line, or at a line break after
   * final punctuation (one sentence per line text: the break is the stronger evidence).
   * Looks back over the whitespace before `nl`; it stops at the opening quote at the latest.
   */
  private quotationBrokenAt(nl: number): boolean {
    const codes = this.codes;
    let q = nl - 1;
    let blankLine = false;
    for (;;) {
      const c = codes[q]!;
      if (!isSpace(c)) return blankLine || isTerminator(c) || isCloser(c);
      if (c === 10) blankLine = true;
      q--;
    }
  }

  private terminator(i: number): number {
    const text = this.text;
    const codes = this.codes;
    const n = this.n;
    let j = i;
    let dots = 0;
    let strong = 0; // ! ? and the like
    let ellipsis = 0;
    while (j < n) {
      const c = codes[j]!;
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
      while (q + 1 < n && codes[q]! === 32 && codes[q + 1]! === 46) {
        q += 2;
        spaced++;
      }
      if (spaced >= 3) j = q;
      else spaced = 1;
    }
    let k = j;
    for (;;) {
      if (k < n && isCloser(codes[k]!)) { k++; continue; }
      // Tokenised text: "case . )" / "hardcore . \"" (a bracket, or the quotation's own end).
      if (this.code(k) === 32 && k + 1 < n) {
        const d = codes[k + 1]!;
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
      const c = codes[m]!;
      if (!isSpace(c)) break;
      if (c === 10 || c === 13) newline = true;
      m++;
    }
    if (i < this.quoteEnd && k <= this.quoteEnd && !newline) return k; // inside a quotation

    if (m === k) {
      if (m >= n) return k;
      if (codes[j - 1]! >= 0x3000) { this.cut(k); return k; } // full-width: no space used
      if (strong + dots === j - i && (strong > 0 || dots === 1)) {
        if (k === j && this.missingSpace(i, j)) { this.cut(j); return k; }
        const refs = this.footnoteEnd(i, k);
        if (refs > k && refs < n && isSpace(codes[refs]!)) {
          let r = refs;
          while (r < n && isSpace(codes[r]!)) r++;
          if (r < n && this.startsSentence(r)) this.cut(refs);
          return refs;
        }
      }
      return k;
    }

    // The word before the punctuation (not before the last cut), without openers.
    const s = this.tokenStart(i, this.lastCut);
    const w = this.wordStart(s, i);
    const attached = w < i;
    if (dots === 1 && strong === 0 && ellipsis === 0 && spaced === 1) {
      const style = k > j && codes[j]! === 41 && k === j + 1 ? 1 : 0;
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
    if (this.caseless) return true;
    let p = m;
    const stop = Math.min(this.n, m + 4);
    while (p < stop && isOpener(this.codes[p]!)) p++;
    // Only a lower-case start needs the (rarer) list-label test.
    return !isLower(this.code(p)) || this.enumeratorAt(m);
  }

  /** "a. " "b) " "(c) " "[iv] " "12. ": an item label that starts a new sentence. */
  private enumeratorAt(m: number): boolean {
    let p = m;
    const open = this.code(p);
    const bracketed = open === 40 || open === 91;
    if (bracketed) p++;
    const start = p;
    while (p < start + 4 && p < this.n) {
      const c = this.codes[p]!;
      if (!(c < 128 && (isLetter(c) || isDigit(c)))) break;
      p++;
    }
    const len = p - start;
    if (len === 0) return false;
    const close = this.code(p);
    if (!isSpace(this.code(p + 1))) return false;
    if (bracketed) return close === (open === 40 ? 41 : 93);
    if (close !== 41 && close !== 46) return false;
    return len === 1 || isDigit(this.codes[start]!);
  }

  /** Footnote references glued to a period: "martyr.[1][2]", "consultation.11 12", "(type 2).10". */
  private footnoteEnd(i: number, k: number): number {
    const codes = this.codes;
    const before = this.code(i - 1);
    if (!(isLetter(before) && isLetter(this.code(i - 2))) && before !== 41) return k;
    let p = k;
    if (this.code(p) === 91) {
      while (this.code(p) === 91) {
        let q = p + 1;
        while (q < p + 9 && q < this.n && (isDigit(codes[q]!) || codes[q]! === 44
          || codes[q]! === 45 || codes[q]! === 0x2013)) q++;
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
    const codes = this.codes;
    const lists = listedAs(text, w, dot);
    let p = m;
    const stop = Math.min(this.n, m + 4);
    while (p < stop && isOpener(codes[p]!)) p++;
    const nc = this.code(p);
    if ((lists & Listed.BeforeNumber) !== 0 && isDigit(nc)) return false;
    if ((lists & Listed.Continue) !== 0) return false;
    const plain = newline || this.startsSentence(m);
    if (dot - s >= WINDOW) return plain;
    const single = dot - w === 1 && isLetter(codes[w]!);
    if (single && codes[w]! === 73 && this.previousWordIsLower(s)) return plain; // "I"
    if ((lists & Listed.Time) !== 0) return this.starterAt(p) || this.capitalisedWordAt(p);
    if ((lists & Listed.Ambiguous) !== 0
      || ((lists & Listed.CasedAmbiguous) !== 0 && CASED_AMBIGUOUS.has(text.slice(w, dot)))
      || single || isDotted(text, w, dot)) {
      return this.starterAt(p);
    }
    return plain;
  }

  /** A capitalised word ("Travelers") that is not a weekday, month or title after a time. */
  private capitalisedWordAt(p: number): boolean {
    if (!isUpper(this.code(p)) || !isLower(this.code(p + 1))) return false;
    let e = p;
    const stop = Math.min(this.n, p + 16);
    while (e < stop && isLetter(this.codes[e]!)) e++;
    return !NOT_AFTER_TIME.has(this.text.slice(p, e));
  }

  /** A typical sentence-initial word at `p`, not itself an initial ("J. R. R."). */
  private starterAt(p: number): boolean {
    const text = this.text;
    const codes = this.codes;
    let e = p;
    const stop = Math.min(this.n, p + 16);
    while (e < stop && isLetter(codes[e]!)) e++;
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
    while (p >= stop && isSpace(this.codes[p]!)) p--;
    if (p < stop) return false;
    while (p > stop && isLetter(this.codes[p - 1]!)) p--;
    return isLower(this.codes[p]!);
  }

  /**
   * "end.Next" with no space: a boundary when a capitalised word follows a word of two or
   * more letters or a number, outside e-mail addresses, URLs and dotted names.
   */
  private missingSpace(i: number, j: number): boolean {
    const codes = this.codes;
    if (!isUpper(this.code(j)) || !isLower(this.code(j + 1))) return false;
    let b = i;
    const stop = Math.max(0, i - WINDOW);
    while (b > stop) {
      const c = codes[b - 1]!;
      if (!isLetter(c) && !isDigit(c) && c !== 44) break;
      b--;
    }
    if (i - b < 2) return false;
    const before = this.code(b - 1);
    if (before === 46 || before === 64 || before === 47) return false;
    let e = j;
    const end = Math.min(this.n, j + WINDOW);
    while (e < end) {
      const c = codes[e]!;
      if (isSpace(c)) break;
      if (c === 64 || c === 47) return false;
      e++;
    }
    let t = b;
    while (t > stop && !isSpace(codes[t - 1]!)) {
      const c = codes[t - 1]!;
      if (c === 64 || c === 47) return false;
      t--;
    }
    return true;
  }

  private newline(i: number): number {
    const codes = this.codes;
    const n = this.n;
    const c = codes[i]!;
    const after = c === 13 && this.code(i + 1) === 10 ? i + 2 : i + 1;
    const lineStart = this.lineStart;
    const lineBody = this.lineBody;
    this.lineStart = after;
    let q = after;
    while (q < n && isBlank(codes[q]!)) q++;
    this.lineBody = q;
    if (q >= n) return after;
    const next = codes[q]!;
    if (isNewline(next)) { this.cut(i); return after; }
    let e = i;
    while (e > lineStart && isSpace(codes[e - 1]!)) e--;
    if (e === lineStart) { this.cut(i); return after; }
    if (this.lineWidth < MIN_WRAP_WIDTH) { this.cut(i); return after; }
    if (this.endsWithTerminator(lineStart, e)) return after;
    // (The indentation before lineBody has no letters: skipping it changes nothing.)
    if (this.isHeading(Math.min(lineBody, e), e)) { this.cut(i); return after; }
    const width = i - lineStart;
    const short = width < this.lineWidth * (1 - SHORT_LINE_SLACK);
    // A wrapped line may start with "- 17%" or "75."; a list item follows a short line or ":".
    if ((short || codes[e - 1]! === 58) && this.startsListItem(q)) { this.cut(i); return after; }
    if (short && this.startsSentence(q) && !this.endsWithFunctionWord(lineStart, e)) this.cut(i);
    return after;
  }

  private endsWithTerminator(lineStart: number, e: number): boolean {
    let p = e - 1;
    const stop = Math.max(lineStart, e - 4);
    while (p > stop && (isCloser(this.codes[p]!) || this.codes[p]! === 32)) p--;
    return isTerminator(this.codes[p]!);
  }

  /** "... members of the" : a line that cannot end a sentence (Reuters first lines are short). */
  private endsWithFunctionWord(lineStart: number, e: number): boolean {
    let b = e;
    const stop = Math.max(lineStart, e - 8);
    while (b > stop && isLower(this.codes[b - 1]!)) b--;
    if (b === e || (b > lineStart && !isSpace(this.codes[b - 1]!))) return false;
    return FUNCTION_WORDS.has(this.text.slice(b, e));
  }

  /** A line of capitals (two or more, no lower-case letter): a headline or title. */
  private isHeading(start: number, end: number): boolean {
    let upper = 0;
    for (let p = start; p < end; p++) {
      const c = this.codes[p]!;
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

/** text[from, to) is "U.S", "e.g", "a.m", "Ph.D": letters (one or two) joined by periods. */
function isDotted(text: string, from: number, to: number): boolean {
  const len = to - from;
  if (len < 3 || len > 12) return false;
  let run = 0;
  let periods = 0;
  for (let p = from; p < to; p++) {
    const c = text.charCodeAt(p);
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

