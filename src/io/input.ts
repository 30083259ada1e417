import { constants, createReadStream, createWriteStream, openSync, statSync, type WriteStream } from 'node:fs';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { TadpoleError, writeFailure } from '../core/errors.js';
import { decodeInput } from './format/decode.js';
import type { FormatKind } from './format/magic.js';
import { readRemote } from './remote/read.js';
import { remoteObject } from './remote/registry.js';
import { isRemote } from './remote/url.js';

/** The input name that stands for standard input: every module compares with this, not with a literal. */
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
  /**
   * The input's kind when already resolved (an InputKind, src/io/input-kind.ts, which imports
   * this file): its first bytes are not judged again.
   */
  kind?: { seekable: boolean; size: number; bytes: FormatKind };
}

/** An input that cannot be stat'ed or opened, as one line naming it and the errno code (exit 3). */
export function unreadable(name: string, err: unknown): TadpoleError {
  return new TadpoleError('TADPOLE_INPUT', `${name}: cannot read input (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { file: name, cause: err });
}

/** An input file opened to be read at byte positions (its fingerprint, its read digest), or unreadable. */
export function openForRead(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (err) {
    throw unreadable(path, err);
  }
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
  } else if (isRemote(input)) {
    // Range GETs of the object as first seen (its ETag and size), from the range's start or the object's.
    const o = remoteObject(input);
    const start = opts.range?.start ?? 0;
    const end = Math.min(o.size, opts.range ? opts.range.end : o.size);
    if (end <= start) return;
    raw = Readable.from(readRemote(input, start, end, o), { objectMode: false, highWaterMark: 1 << 20 });
  } else {
    let fifo = false;
    try {
      const st = statSync(input);
      if (st.isDirectory()) throw new TadpoleError('TADPOLE_INPUT', `${name}: is a directory; give the files inside it`, { file: name });
      fifo = st.isFIFO();
    } catch (err) {
      if (err instanceof TadpoleError) throw err;
      throw unreadable(name, err);
    }
    raw = fifo
      ? openFifo(input, name)
      : opts.range
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
  try {
    // A range is only ever asked of plain text (InputKind.seekable): its bytes are read as they are.
    if (opts.range || opts.kind?.seekable) yield* rawChunks;
    else yield* decodeInput(rawChunks, name, undefined, opts.kind && opts.kind.size >= 0 && opts.kind.bytes !== 'text' ? opts.kind.bytes : undefined);
  } finally {
    // A file refused by its known kind, or left early by its reader, is closed now, not at GC.
    if (input !== STDIN) raw.destroy();
  }
}

/**
 * A named pipe, read as stdin is (by a command that reads its input once: split, score, fit,
 * filter --threshold). Opened without blocking, then read through the event loop: a plain
 * open(2) of a pipe with no writer yet waits in a libuv thread, and the process could then
 * never exit, not even on SIGTERM (exit waits for that thread). Here a writer that never
 * comes is a wait that a signal ends.
 */
function openFifo(input: string, name: string): Readable {
  let fd: number;
  try {
    fd = openSync(input, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw unreadable(name, err);
  }
  return new Socket({ fd, readable: true, writable: false });
}

/**
 * Copies every byte of stdin to its spool, as it comes (nothing decoded), and returns how
 * many: the spool is then read as the file it is (the completion samples it as it samples
 * a file, so a pipe and a file give the same sample).
 */
export async function spoolStdin(stdin: Readable, spool: WriteStream): Promise<number> {
  let bytes = 0;
  const it = stdin[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    const chunk = await nextChunk(it, displayName(STDIN));
    if (chunk === undefined) break;
    await writeAll(spool, chunk);
    bytes += chunk.length;
  }
  // Every write has reached the file; an empty stdin still leaves an (empty) file to read.
  if (spool.pending) await new Promise<void>((resolve, reject) => spool.once('ready', () => resolve()).once('error', reject));
  return bytes;
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

/**
 * A file that stdin is copied into, to be read again. Its failures (a full or vanished scratch
 * folder) reach the writes that wait on it and closeSpool, as exit-5 errors naming it; the
 * listener keeps them from also ending the process as an unhandled 'error' event.
 */
export function openSpool(path: string): WriteStream {
  return createWriteStream(path).on('error', () => {});
}

function spoolFailure(out: WriteStream, err: Error): TadpoleError {
  return writeFailure(`the stdin spool ${String(out.path)}`, err, String(out.path));
}

function writeAll(out: WriteStream, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (err) => (err ? reject(spoolFailure(out, err)) : resolve()));
  });
}

/** Ends a stdin spool once every byte is on disk (the spool is read back as a file after). */
export function closeSpool(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => out.end((err?: Error | null) => (err ? reject(spoolFailure(out, err)) : resolve())));
}
