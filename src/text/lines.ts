/**
 * Line geometry used to tell a hard wrap from a deliberate line break.
 */

/** Lines are bucketed by length up to this cap; longer lines count as this long. */
const LENGTH_CAP = 1024;

/**
 * The typical line width of `text`: the 90th percentile of the lengths of its non-empty
 * lines (UTF-16 units, indentation included, line terminators excluded). A percentile
 * rather than the maximum, so that one over-long line in a hard-wrapped book does not
 * make every wrapped line look short. Returns 0 when the text has no line break.
 * One pass, fixed memory.
 */
export function typicalLineWidth(text: string): number {
  let nl = text.indexOf('\n');
  if (nl < 0) return 0;
  const counts = COUNTS;
  let lines = 0;
  let lo = LENGTH_CAP;
  let hi = 0;
  let start = 0;
  for (;;) {
    const end = nl < 0 ? text.length : nl;
    let len = end - start;
    if (len > 0 && text.charCodeAt(end - 1) === 13) len--;
    if (len > 0) {
      if (len > LENGTH_CAP) len = LENGTH_CAP;
      counts[len]! += 1;
      if (len < lo) lo = len;
      if (len > hi) hi = len;
      lines++;
    }
    if (nl < 0) break;
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  if (lines === 0) return 0;
  const rank = Math.ceil(lines * 0.9);
  let seen = 0;
  let width = hi;
  for (let len = lo; len <= hi; len++) {
    seen += counts[len]!;
    if (seen >= rank) { width = len; break; }
  }
  counts.fill(0, lo, hi + 1); // the table is shared between calls: leave it zeroed
  return width;
}

/** Reused histogram (single-threaded; zeroed after every call). */
const COUNTS = new Uint32Array(LENGTH_CAP + 1);
