import { createReadStream, statSync, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import { decodeInput } from './format/decode.js';

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

export interface OpenOptions {
  /** Where stdin comes from (the CLI passes process.stdin, tests their own stream). */
  stdin?: Readable;
  /** Copy every raw byte read from stdin here, so pass 2 can re-read it. */
  spool?: WriteStream;
  range?: ByteRange;
}

/**
 * The UTF-8 bytes of one input, decoded by what its magic bytes say (src/io/format/decode.ts:
 * gzip, zstd, UTF-16; so `.gz` names are not required and a misnamed file still works), or
 * refused with one line when it is not text. Concatenated gzip members are read as one
 * stream, as gzip(1) does.
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
  const rawChunks = (async function* () {
    for (;;) {
      const chunk = await nextChunk(iterator, name);
      if (chunk === undefined) return;
      if (opts.spool) await writeAll(opts.spool, chunk);
      yield chunk;
    }
  })();
  // A range is only ever asked of plain text (isSeekableText): its bytes are read as they are.
  if (opts.range) yield* rawChunks;
  else yield* decodeInput(rawChunks, name);
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

/** Ends a stdin spool once every byte is on disk (the spool is read back as a file after). */
export function closeSpool(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}
