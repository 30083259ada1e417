/**
 * Binary or text, judged on the first block of an input (as file(1) and git do).
 *
 * Two signals, either one enough:
 * - control bytes (C0 other than tab, LF, VT, FF, CR, ESC): text has almost none; an
 *   executable, image or unknown compressed format is full of them (random bytes: 10.2%);
 * - bytes that are not valid UTF-8: Latin-1 text has a few percent (accented letters),
 *   random bytes ~42% (measured on 64 KiB of crypto.randomBytes: U+FFFD per byte).
 * The thresholds (10% control, 30% invalid) sit between the two, so a stray NUL or a
 * few Latin-1 letters in real text are kept (counted as invalid UTF-8 by the reader)
 * while a binary file is refused before a single "sentence" of it is scored.
 */
const CONTROL_SHARE = 0.1;
const INVALID_UTF8_SHARE = 0.3;

export function looksBinary(block: Buffer): boolean {
  const n = block.length;
  if (n === 0) return false;
  let control = 0;
  let invalid = 0;
  let i = 0;
  while (i < n) {
    const c = block[i] as number;
    if (c < 0x80) {
      if (c < 0x20 && c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13 && c !== 27) control++;
      i++;
      continue;
    }
    const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (need < 0) {
      invalid++;
      i++;
      continue;
    }
    // A sequence cut by the end of the block is not held against the input.
    if (i + need >= n) break;
    let ok = true;
    for (let k = 1; k <= need; k++) if (((block[i + k] as number) & 0xc0) !== 0x80) ok = false;
    if (ok) i += need + 1;
    else {
      invalid++;
      i++;
    }
  }
  return control > n * CONTROL_SHARE || invalid > n * INVALID_UTF8_SHARE;
}
