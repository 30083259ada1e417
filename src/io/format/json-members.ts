/**
 * Where the top-level members of a one-line JSON object lie in its bytes, so that the fields
 * a JSONL record carries to the output are written as the input wrote them: parsing and
 * stringifying a value loses what a JavaScript number cannot hold (ids above 2^53, `1e400`,
 * `-0.0`, `1.0`), its escapes and duplicate keys.
 *
 * Structural only: strings are skipped by their closing quote (found with Buffer.indexOf, a
 * native memchr, so the long text field costs little), nested values by their brackets; what
 * is inside a string or a number is not checked. The reader runs it on lines JSON.parse has
 * already accepted; on anything else it answers undefined rather than guess.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/**
 * The members of the object in buf[from, to) as flat byte offsets [keyStart, keyEnd,
 * valueStart, valueEnd, ...], in input order (duplicates included); keys with their quotes.
 * A UTF-8 BOM and JSON whitespace around the object are allowed. undefined: not an object.
 */
export function jsonMembers(buf: Buffer, from: number, to: number): number[] | undefined {
  if (buf[from] === 0xef && buf[from + 1] === 0xbb && buf[from + 2] === 0xbf) from += 3;
  let p = skipSpace(buf, from, to);
  if (p >= to || buf[p] !== LBRACE) return undefined;
  p = skipSpace(buf, p + 1, to);
  const out: number[] = [];
  if (p < to && buf[p] === RBRACE) return skipSpace(buf, p + 1, to) === to ? out : undefined;
  for (;;) {
    if (p >= to || buf[p] !== QUOTE) return undefined;
    const keyEnd = stringEnd(buf, p, to);
    if (keyEnd < 0) return undefined;
    const keyStart = p;
    p = skipSpace(buf, keyEnd, to);
    if (p >= to || buf[p] !== COLON) return undefined;
    const valueStart = skipSpace(buf, p + 1, to);
    const valueEnd = valueEndAt(buf, valueStart, to);
    if (valueEnd < 0) return undefined;
    out.push(keyStart, keyEnd, valueStart, valueEnd);
    p = skipSpace(buf, valueEnd, to);
    if (p >= to) return undefined;
    if (buf[p] === COMMA) p = skipSpace(buf, p + 1, to);
    else if (buf[p] === RBRACE) return skipSpace(buf, p + 1, to) === to ? out : undefined;
    else return undefined;
  }
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipSpace(buf: Buffer, p: number, to: number): number {
  while (p < to && isSpace(buf[p])) p++;
  return p;
}

/** Just past the string whose opening quote is at p; -1 when it does not close before `to`. */
function stringEnd(buf: Buffer, p: number, to: number): number {
  let from = p + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, from);
    if (q < 0 || q >= to) return -1;
    let b = q - 1;
    while (b > p && buf[b] === BACKSLASH) b--;
    // An even run of backslashes escapes itself, not the quote.
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

function valueEndAt(buf: Buffer, p: number, to: number): number {
  if (p >= to) return -1;
  const c = buf[p];
  if (c === QUOTE) return stringEnd(buf, p, to);
  if (c === LBRACE || c === LBRACKET) return nestedEnd(buf, p, to);
  // A number or a literal: up to the next delimiter.
  let i = p;
  while (i < to) {
    const d = buf[i];
    if (d === COMMA || d === RBRACE || d === RBRACKET || isSpace(d) || d === QUOTE || d === LBRACE || d === LBRACKET || d === COLON) break;
    i++;
  }
  return i > p ? i : -1;
}

function nestedEnd(buf: Buffer, p: number, to: number): number {
  const closers: number[] = [];
  let i = p;
  while (i < to) {
    const c = buf[i];
    if (c === QUOTE) {
      i = stringEnd(buf, i, to);
      if (i < 0) return -1;
      continue;
    }
    if (c === LBRACE) closers.push(RBRACE);
    else if (c === LBRACKET) closers.push(RBRACKET);
    else if (c === RBRACE || c === RBRACKET) {
      if (closers.pop() !== c) return -1;
      if (closers.length === 0) return i + 1;
    }
    i++;
  }
  return -1;
}
