import { closeSync, createReadStream, openSync, readSync, statSync, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { TadpoleError } from '../core/errors.js';

export const STDIN = '-';

export function displayName(input: string): string {
  return input === STDIN ? '<stdin>' : input;
}

/** Byte range of an uncompressed file: [start, end). Used by shards and resume. */
export interface ByteRange {
  start: number;
  end: number;
  /** 1-based line number at `start`, when known (resume); shards start counting at 1. */
  line?: number;
}

/** True when the file starts with the gzip magic bytes (such a file cannot be split or seeked). */
export function isGzipFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const b = Buffer.alloc(2);
    return readSync(fd, b, 0, 2, 0) === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export interface OpenOptions {
  /** Where stdin comes from (the CLI passes process.stdin, tests their own stream). */
  stdin?: Readable;
  /** Copy every raw byte read from stdin here, so pass 2 can re-read it. */
  spool?: WriteStream;
  range?: ByteRange;
}

/**
 * Raw chunks of one input, gunzipped when it starts with the gzip magic bytes (so
 * `.gz` names are not required and a misnamed file still works). Concatenated gzip
 * members are read as one stream, as gzip(1) does.
 */
export async function* openInput(input: string, opts: OpenOptions = {}): AsyncGenerator<Buffer> {
  const name = displayName(input);
  let raw: Readable;
  if (input === STDIN) {
    if (!opts.stdin) throw new TadpoleError('TADPOLE_INPUT', 'stdin is not available to this command');
    raw = opts.stdin;
  } else {
    try {
      const st = statSync(input);
      if (st.isDirectory()) throw new TadpoleError('TADPOLE_INPUT', `${name}: is a directory; give the files inside it`, { file: name });
    } catch (err) {
      if (err instanceof TadpoleError) throw err;
      throw new TadpoleError('TADPOLE_INPUT', `${name}: cannot read input (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { file: name, cause: err });
    }
    raw = opts.range
      ? createReadStream(input, { start: opts.range.start, end: Math.max(opts.range.start, opts.range.end) - 1, highWaterMark: 1 << 20 })
      : createReadStream(input, { highWaterMark: 1 << 20 });
    if (opts.range && opts.range.end <= opts.range.start) {
      raw.destroy();
      return;
    }
  }
  const iterator = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await nextChunk(iterator, name);
  if (first === undefined) return;
  if (opts.spool) await writeAll(opts.spool, first);
  const gzipped = !opts.range && first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b;
  if (!gzipped) {
    yield first;
    for (;;) {
      const chunk = await nextChunk(iterator, name);
      if (chunk === undefined) return;
      if (opts.spool) await writeAll(opts.spool, chunk);
      yield chunk;
    }
  }
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  const feed = (async () => {
    try {
      let chunk: Buffer | undefined = first;
      while (chunk !== undefined) {
        if (!gunzip.write(chunk)) await new Promise<void>((r) => gunzip.once('drain', r));
        chunk = await nextChunk(iterator, name);
        if (chunk !== undefined && opts.spool) await writeAll(opts.spool, chunk);
      }
      gunzip.end();
    } catch (err) {
      gunzip.destroy(err as Error);
    }
  })();
  try {
    for await (const out of gunzip as AsyncIterable<Buffer>) yield out;
  } catch (err) {
    if (err instanceof TadpoleError) throw err;
    const msg = (err as Error).message;
    throw new TadpoleError('TADPOLE_INPUT', `${name}: gzip data is damaged or truncated (${msg})`, { file: name, cause: err });
  } finally {
    await feed;
  }
}

async function nextChunk(it: AsyncIterator<Buffer>, name: string): Promise<Buffer | undefined> {
  try {
    const r = await it.next();
    if (r.done) return undefined;
    return typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
  } catch (err) {
    throw new TadpoleError('TADPOLE_INPUT', `${name}: read failed (${(err as Error).message})`, { file: name, cause: err });
  }
}

function writeAll(out: WriteStream, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (err) => (err ? reject(new TadpoleError('TADPOLE_IO', `cannot write stdin spool: ${err.message}`, { cause: err })) : resolve()));
  });
}
