/**
 * JSONL told by its first bytes, for inputs whose name says nothing (stdin, `*.txt`,
 * `*.json`, a process substitution): `zcat corpus.jsonl.gz | tadpole filter -` must not
 * filter the JSON syntax as if it were prose. The rule looks only at a prefix, so any
 * reader of the same bytes (stdin now, its spool in pass 2, a shard's planner) decides
 * the same: after an optional BOM and blank lines, `{`, optional spaces (not a line break),
 * then `"`, which is how a JSONL record of objects starts and almost no prose does.
 */

/** Bytes enough to decide (the rule needs a handful; blank lines before the first record are allowed). */
export const JSONL_SNIFF_BYTES = 4096;

export function looksLikeJsonl(head: Buffer): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && isSpace(head[i]!)) i++;
  if (head[i] !== 0x7b) return false; // {
  i++;
  // Spaces only: a record is one line, so `{` and a line break is pretty-printed JSON, not JSONL.
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09)) i++;
  return head[i] === 0x22; // "
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The first bytes of a chunk stream, and the whole stream again (nothing lost): reads
 * chunks until it holds JSONL_SNIFF_BYTES or the stream ends.
 */
export async function peekChunks(chunks: AsyncIterable<Buffer>): Promise<{ head: Buffer; chunks: AsyncIterable<Buffer> }> {
  const it = chunks[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let bytes = 0;
  let done = false;
  while (bytes < JSONL_SNIFF_BYTES) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    held.push(r.value);
    bytes += r.value.length;
  }
  const head = Buffer.concat(held, bytes).subarray(0, JSONL_SNIFF_BYTES);
  async function* again(): AsyncGenerator<Buffer> {
    try {
      yield* held;
      if (done) return;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield r.value;
      }
    } finally {
      // A reader that stops early (a shard's end) closes the input as it would have.
      if (!done) await it.return?.();
    }
  }
  return { head, chunks: again() };
}
