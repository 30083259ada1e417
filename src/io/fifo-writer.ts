import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';

/** How often a named pipe with no reader yet is tried again. */
const RETRY_MS = 50;

/**
 * A named pipe given as an output, written through the event loop. A plain open(2) of a pipe
 * that nobody reads yet waits in a libuv thread, and the process can then never exit, not even
 * on SIGTERM (exit waits for that thread). Here the pipe is opened without blocking, tried again
 * until a reader comes, and a signal or an abort ends the wait.
 */
export class FifoWriter extends Writable {
  private socket: Socket | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly path: string) {
    super();
  }

  override _construct(callback: (err?: Error | null) => void): void {
    this.tryOpen(callback);
  }

  private tryOpen(callback: (err?: Error | null) => void): void {
    if (this.destroyed) return callback();
    let fd: number;
    try {
      fd = openSync(this.path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      // ENXIO: no reader has opened the pipe yet.
      if ((err as NodeJS.ErrnoException).code === 'ENXIO') this.retry = setTimeout(() => this.tryOpen(callback), RETRY_MS);
      else callback(err as Error);
      return;
    }
    this.socket = new Socket({ fd, readable: false, writable: true });
    this.socket.on('error', (err) => this.destroy(err));
    callback();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    (this.socket as Socket).write(chunk, callback);
  }

  override _final(callback: (err?: Error | null) => void): void {
    (this.socket as Socket).end(() => callback());
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    clearTimeout(this.retry);
    this.socket?.destroy();
    callback(err);
  }
}
