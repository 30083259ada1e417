import { copyFileSync, createWriteStream, existsSync, openSync, closeSync, ftruncateSync, fstatSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { pipeline, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { TadpoleError, writeFailure } from '../core/errors.js';
import { tempPathFor, trackTemp, untrackTemp } from './atomic.js';
import { compressInto, compressorFor } from './compressed-output.js';
import { FifoWriter } from './fifo-writer.js';
import { uploadTo, type RemoteUpload } from './remote/upload.js';

/**
 * Where kept text goes. File output is written to a temp file beside the target and
 * renamed only on success, so a failed run never leaves a file that looks complete.
 * A closed stdout (`| head`) ends the run quietly: `closedEarly` turns true.
 */
export class Sink {
  private pending: string[] = [];
  private pendingLen = 0;
  private error: Error | undefined;
  closedEarly = false;
  bytesWritten = 0;
  private readonly tmp: string | undefined;
  private readonly stream: Writable;
  /** Resumable sinks: the partial file is kept on abort (it is the checkpoint's output). */
  private keepPartialOnAbort = false;
  /** Length of the partial file before this process wrote to it (resume). */
  private base = 0;
  private lastWrite: Promise<void> = Promise.resolve();
  /** An `s3://` output: the object appears when the upload completes, at close. */
  private upload: RemoteUpload | undefined;

  /** File outputs named *.gz / *.zst: `stream` is the compressor, `file` the temp file it feeds. */
  private readonly file: WriteStream | undefined;
  /**
   * Settles when the compressor and its file have both finished or either failed: a failed
   * file destroys the compressor too (stream.pipeline), so nothing waits on a stream that
   * will never end.
   */
  private readonly piped: Promise<void> | undefined;

  private constructor(stream: Writable, readonly target: string | undefined, tmp: string | undefined, file?: WriteStream) {
    this.stream = stream;
    this.tmp = tmp;
    this.file = file;
    if (file) {
      this.piped = new Promise<void>((resolve) =>
        pipeline(stream as unknown as NodeJS.ReadableStream, file, (err) => {
          if (err) this.error ??= err;
          resolve();
        }),
      );
    }
    for (const s of file ? [stream, file] : [stream]) {
      s.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') this.closedEarly = true;
        else this.error ??= err;
      });
    }
  }

  static toFile(path: string): Sink {
    if (/^s3:\/\//i.test(path)) return Sink.toObject(path);
    // A device or pipe (/dev/full, /dev/stdout, a fifo) is written in place: there is
    // nothing to rename, and renaming over a device node would replace it.
    const kind = existsSync(path) ? statSync(path) : undefined;
    if (kind?.isFIFO()) return new Sink(new FifoWriter(path), path, undefined);
    if (kind && !kind.isFile()) return new Sink(createWriteStream(path, { flags: 'a' }), path, undefined);
    const tmp = trackTemp(tempPathFor(path));
    const compressor = compressorFor(path);
    if (!compressor) return new Sink(createWriteStream(tmp), path, tmp);
    return new Sink(compressor, path, tmp, createWriteStream(tmp));
  }

  /** An `s3://bucket/key` output, uploaded as it is written (src/io/remote/upload.ts); compressed by its name as a file is. */
  private static toObject(url: string): Sink {
    const upload = uploadTo(url);
    const compressor = compressorFor(url);
    const sink = compressor ? new Sink(compressor, url, undefined, upload.body as unknown as WriteStream) : new Sink(upload.body, url, undefined);
    sink.upload = upload;
    return sink;
  }

  /**
   * A sink that can be resumed: writes to `partial` (kept on abort), starting at byte
   * `truncateTo` (the last checkpoint's length; later bytes are cut off), and on close
   * moves `partial` to `target`.
   */
  static toResumableFile(partial: string, target: string, truncateTo = 0): Sink {
    const fd = openSync(partial, truncateTo > 0 ? 'r+' : 'w');
    try {
      const size = fstatSync(fd).size;
      if (size < truncateTo) {
        throw new TadpoleError('TADPOLE_RUN', `${partial} is shorter (${size} bytes) than its checkpoint (${truncateTo} bytes): the run directory was damaged; rerun without --resume`);
      }
      ftruncateSync(fd, truncateTo);
    } finally {
      closeSync(fd);
    }
    const sink = new Sink(createWriteStream(partial, { flags: 'a' }), target, partial);
    sink.keepPartialOnAbort = true;
    sink.base = truncateTo;
    return sink;
  }

  /** Every byte written so far is in the file (not fsynced: survives kill -9, not power loss). Returns the file's length. */
  async sync(): Promise<number> {
    await this.flush();
    await this.lastWrite;
    this.check();
    return this.base + this.bytesWritten;
  }

  static toStream(stream: Writable): Sink {
    return new Sink(stream, undefined, undefined);
  }

  /** Buffered; flushes at 256 KB, respecting backpressure. */
  async write(s: string): Promise<void> {
    if (this.closedEarly) return;
    this.pending.push(s);
    this.pendingLen += s.length;
    if (this.pendingLen >= 1 << 18) await this.flush();
  }

  /** Bytes already encoded (a part written by another thread): written as they are, after what is buffered. */
  async writeBytes(b: Buffer): Promise<void> {
    if (this.closedEarly || b.length === 0) return;
    await this.flush();
    if (this.closedEarly) return;
    this.bytesWritten += b.length;
    await this.send(b);
  }

  async flush(): Promise<void> {
    this.check();
    if (this.pending.length === 0 || this.closedEarly) return;
    // Encoded once here: counting the bytes of the string and then writing it encoded it twice.
    const data = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingLen = 0;
    this.bytesWritten += data.length;
    await this.send(data);
  }

  private async send(data: string | Buffer): Promise<void> {
    let ok = true;
    this.lastWrite = new Promise<void>((resolve) => {
      ok = this.stream.write(data, () => resolve());
    });
    if (!ok && !this.closedEarly) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('error', done);
          this.stream.off('close', done);
          resolve();
        };
        this.stream.on('drain', done);
        this.stream.on('error', done);
        this.stream.on('close', done);
      });
    }
    this.check();
  }

  private check(): void {
    if (this.error) throw writeFailure(this.target ?? 'output', this.error, this.target);
  }

  /** Flush and, for files, rename into place. */
  async close(): Promise<void> {
    await this.flush();
    if (this.tmp) {
      await this.end();
      // A resumable output is written plain (a checkpoint truncates it by length) and compressed at the end.
      const compressor = this.keepPartialOnAbort ? compressorFor(this.target as string) : undefined;
      if (compressor) await compressInto(this.tmp, this.target as string, compressor);
      else moveFile(this.tmp, this.target as string);
      untrackTemp(this.tmp);
    } else if (this.target !== undefined && !this.closedEarly) {
      // A device or fifo named by -o (/dev/full), or an object: ended, so that its last write's error is seen.
      await this.end();
      await this.upload?.done();
    } else if (!this.closedEarly) {
      await new Promise<void>((resolve) => {
        // Resolve once everything queued has been handed to the OS (or the stream failed).
        if (!this.stream.writableNeedDrain) return resolve();
        const done = () => resolve();
        this.stream.once('drain', done).once('error', done).once('close', done);
      });
      this.check();
    }
  }

  /**
   * Ends the stream (and the file a compressor feeds) and throws what failed. The wait settles
   * on an error too: a stream that failed (a full disk) never calls end's callback.
   */
  private async end(): Promise<void> {
    this.stream.end();
    if (this.piped) {
      await this.piped;
    } else {
      await finished(this.stream).catch((err: Error) => {
        this.error ??= err;
      });
    }
    this.check();
  }

  /** Failed run: drop the temp file, leave no output that looks complete. */
  async abort(): Promise<void> {
    this.pending = [];
    await this.upload?.abort();
    if (this.tmp || this.target) {
      if (this.file && !this.stream.destroyed) this.stream.destroy();
      const ws = this.file ?? (this.stream as WriteStream);
      if (!ws.destroyed) {
        await new Promise<void>((resolve) => {
          ws.once('close', () => resolve());
          ws.destroy();
        });
      }
      if (this.tmp && !this.keepPartialOnAbort) {
        rmSync(this.tmp, { force: true });
        untrackTemp(this.tmp);
      }
    }
  }
}

/** rename, or copy + rename when the two paths are on different filesystems. */
export function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw new TadpoleError('TADPOLE_IO', `cannot move ${from} to ${to}: ${(err as Error).message}`, { file: to, cause: err });
    const tmp = tempPathFor(to);
    try {
      copyFileSync(from, tmp);
      renameSync(tmp, to);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw new TadpoleError('TADPOLE_IO', `cannot write ${to}: ${(e as Error).message}`, { file: to, cause: e });
    }
    rmSync(from, { force: true });
  }
}
