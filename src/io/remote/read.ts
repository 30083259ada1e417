import { setTimeout as sleep } from 'node:timers/promises';
import { TadpoleError } from '../../core/errors.js';
import { SNIFF_BYTES } from '../format/magic.js';
import { getRange, headObject, RemoteStatus, retryableStatus } from './backends.js';
import { locate, safe } from './url.js';

/** What one remote object is when first seen: the identity every later read must still match. */
export interface RemoteObject {
  size: number;
  etag: string;
  /** Its first bytes (up to SNIFF_BYTES), to judge its format without another request. */
  head: Buffer;
}

/** Tries per request; the waits double from 100 ms, so six tries wait about 3 s in all. */
function maxTries(): number {
  const n = Number(process.env.TADPOLE_REMOTE_TRIES);
  return Number.isInteger(n) && n > 0 ? n : 6;
}

function backoff(attempt: number): Promise<void> {
  const ms = Math.min(5000, 100 * 2 ** attempt);
  return sleep(ms * (0.75 + Math.random() / 2));
}

/** The one line an object changed between reads gives: the same exit 3 a changed local file gives. */
export function changedError(name: string, why: string): TadpoleError {
  return new TadpoleError('TADPOLE_INPUT_CHANGED', `the input changed while tadpole read it (${safe(name)}: ${why}); inputs must not change during a run`, { file: safe(name) });
}

function failure(name: string, err: unknown): TadpoleError {
  if (err instanceof TadpoleError) return err;
  const why = err instanceof RemoteStatus ? err.message : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message);
  return new TadpoleError('TADPOLE_INPUT', safe(`${name}: cannot read input (${why})`), { file: safe(name) });
}

function retryable(err: unknown): boolean {
  if (err instanceof TadpoleError) return false;
  if (err instanceof RemoteStatus) return retryableStatus(err.status);
  return true; // refused, reset or cut connections, DNS hiccups: worth another try
}

/**
 * Bytes [start, end) of a remote object, as they arrive. A failed request or a cut stream is
 * tried again (from the byte reached, with backoff); an object whose ETag or size is no longer
 * `expect`'s is refused as changed: `If-Match` asks the server to refuse it, and the answer's
 * own ETag and size are checked too, for servers that ignore If-Match.
 */
export async function* readRemote(name: string, start: number, end: number, expect: RemoteObject | undefined): AsyncGenerator<Buffer> {
  const loc = locate(name);
  let pos = start;
  let failures = 0;
  while (pos < end) {
    let answer;
    try {
      answer = await getRange(loc, pos, end, expect?.etag || undefined);
    } catch (err) {
      if (err instanceof RemoteStatus && err.status === 412) throw changedError(name, 'its ETag is no longer the one first read');
      if (!retryable(err) || ++failures >= maxTries()) throw failure(name, err);
      await backoff(failures);
      continue;
    }
    let done = false;
    try {
      if (expect && answer.etag && expect.etag && answer.etag !== expect.etag) throw changedError(name, `ETag ${expect.etag} -> ${answer.etag}`);
      if (expect && answer.size >= 0 && answer.size !== expect.size) throw changedError(name, `size ${expect.size} -> ${answer.size} bytes`);
      let at = answer.from;
      for await (const piece of answer.body) {
        const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
        const from = Math.max(pos, at);
        const to = Math.min(end, at + chunk.length);
        at += chunk.length;
        if (to > from) {
          const part = chunk.subarray(from - (at - chunk.length), to - (at - chunk.length));
          pos = to;
          failures = 0;
          yield part;
        }
        if (pos >= end) break;
      }
      done = true;
    } catch (err) {
      if (!retryable(err) || ++failures >= maxTries()) throw failure(name, err);
      await backoff(failures);
    } finally {
      if (!done || pos < end) answer.abort();
    }
    if (done && pos < end) {
      // The body ended early without an error (a server closed the connection): read on from pos.
      if (answer.size >= 0 && answer.size <= pos) throw changedError(name, `it ends at byte ${answer.size}`);
      if (++failures >= maxTries()) throw failure(name, new Error(`the body ended at byte ${pos} of ${end}`));
      await backoff(failures);
    }
  }
}

/** Reads [start, end) whole: a Parquet page or footer, a sampler's window. */
export async function readRemoteBytes(name: string, start: number, end: number, expect: RemoteObject | undefined): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of readRemote(name, start, end, expect)) parts.push(p);
  return Buffer.concat(parts);
}

/** The object's size, ETag and first SNIFF_BYTES, in one ranged GET (a HEAD for an empty object). */
export async function statRemote(name: string): Promise<RemoteObject> {
  const loc = locate(name);
  for (let failures = 0; ; ) {
    try {
      const answer = await getRange(loc, 0, SNIFF_BYTES, undefined);
      const parts: Buffer[] = [];
      let have = 0;
      try {
        for await (const piece of answer.body) {
          parts.push(Buffer.from(piece));
          have += piece.byteLength;
          if (have >= SNIFF_BYTES) break;
        }
      } finally {
        answer.abort();
      }
      const head = Buffer.concat(parts).subarray(0, SNIFF_BYTES);
      const size = answer.size >= 0 ? answer.size : head.length;
      return { size, etag: answer.etag, head: head.subarray(0, Math.min(head.length, size)) };
    } catch (err) {
      if (err instanceof RemoteStatus && err.status === 416) {
        const h = await headObject(loc).catch((e: unknown) => {
          throw failure(name, e);
        });
        return { size: h.size, etag: h.etag, head: Buffer.alloc(0) };
      }
      if (!retryable(err) || ++failures >= maxTries()) throw failure(name, err);
      await backoff(failures);
    }
  }
}
