import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import { tempPathFor } from './atomic.js';

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

  private constructor(stream: Writable, readonly target: string | undefined, tmp: string | undefined) {
    this.stream = stream;
    this.tmp = tmp;
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') this.closedEarly = true;
      else this.error ??= err;
    });
  }

  static toFile(path: string): Sink {
    const tmp = tempPathFor(path);
    return new Sink(createWriteStream(tmp), path, tmp);
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

  async flush(): Promise<void> {
    this.check();
    if (this.pending.length === 0 || this.closedEarly) return;
    const data = this.pending.join('');
    this.pending = [];
    this.pendingLen = 0;
    this.bytesWritten += Buffer.byteLength(data);
    const ok = this.stream.write(data);
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
    if (this.error) {
      const e = this.error as NodeJS.ErrnoException;
      const what = e.code === 'ENOSPC' ? 'no space left on the device' : e.message;
      throw new TadpoleError('TADPOLE_IO', `cannot write ${this.target ?? 'output'}: ${what}`, { cause: e });
    }
  }

  /** Flush and, for files, rename into place. */
  async close(): Promise<void> {
    await this.flush();
    if (this.tmp) {
      const ws = this.stream as WriteStream;
      await new Promise<void>((resolve) => ws.end(resolve));
      this.check();
      renameSync(this.tmp, this.target as string);
    } else if (!this.closedEarly) {
      await new Promise<void>((resolve) => {
        // Resolve once everything queued has been handed to the OS.
        if (this.stream.writableNeedDrain) this.stream.once('drain', () => resolve());
        else resolve();
      });
      this.check();
    }
  }

  /** Failed run: drop the temp file, leave no output that looks complete. */
  async abort(): Promise<void> {
    this.pending = [];
    if (this.tmp) {
      const ws = this.stream as WriteStream;
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.destroy();
      });
      rmSync(this.tmp, { force: true });
    }
  }
}
