import type { Transform } from 'node:stream';
import { TadpoleError } from '../../core/errors.js';

/** The first chunk(s) of a stream, at least `min` bytes unless the stream is shorter, and the rest. */
export async function peek(source: AsyncIterable<Buffer>, min: number): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  const it = source[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let len = 0;
  while (len < min) {
    const r = await it.next();
    if (r.done) break;
    parts.push(r.value);
    len += r.value.length;
  }
  return { head: parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, len), rest: it };
}

/** `head` then the rest of the iterator, as one iterable. */
export async function* rejoin(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  for (;;) {
    const r = await rest.next();
    if (r.done) return;
    yield r.value;
  }
}

/**
 * Chunks piped through a Node transform (a decompressor), with backpressure. A transform
 * error becomes one TadpoleError line: `${name}: ${damaged} (${reason})`.
 */
export async function* through(chunks: AsyncIterable<Buffer>, transform: Transform, name: string, damaged: string): AsyncGenerator<Buffer> {
  let readError: unknown;
  const feed = (async () => {
    try {
      for await (const chunk of chunks) {
        if (!transform.write(chunk)) await new Promise<void>((r) => transform.once('drain', r));
      }
      transform.end();
    } catch (err) {
      readError = err;
      transform.destroy(err as Error);
    }
  })();
  try {
    for await (const out of transform as AsyncIterable<Buffer>) yield out;
  } catch (err) {
    const cause = readError ?? err;
    if (cause instanceof TadpoleError) throw cause;
    throw new TadpoleError('TADPOLE_INPUT', `${name}: ${damaged} (${(cause as Error).message})`, { file: name, cause });
  } finally {
    if (!transform.destroyed && !transform.writableEnded) transform.destroy();
    await feed;
  }
}
