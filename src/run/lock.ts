import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { TadpoleError } from '../core/errors.js';

/**
 * An exclusive lock on a run directory (or one shard of it): a file created with O_EXCL
 * holding "pid host". A lock left by a process that died (kill -9) on this host is taken
 * over; one held by a live process, or by another host, is refused with a message
 * naming the holder.
 */
export class RunLock {
  private released = false;
  private constructor(readonly path: string) {}

  static acquire(path: string, what: string): RunLock {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        try {
          writeSync(fd, `${process.pid} ${hostname()}\n`);
        } catch (err) {
          // A lock that could not say whose it is (a full disk) would refuse every later run: it goes.
          rmSync(path, { force: true });
          throw err;
        } finally {
          closeSync(fd);
        }
        return new RunLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new TadpoleError('TADPOLE_RUN', `cannot create lock ${path}: ${(err as Error).message}`, { file: path, cause: err });
        }
      }
      const holder = readHolder(path);
      if (holder && holder.host === hostname() && !alive(holder.pid)) {
        rmSync(path, { force: true }); // stale: its process is gone (killed); take it over
        continue;
      }
      const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
      throw new TadpoleError('TADPOLE_RUN', `${what} is in use by ${who} (lock ${path}); wait for it to finish, or remove the lock file if that process is gone`, { file: path });
    }
    throw new TadpoleError('TADPOLE_RUN', `cannot take the lock ${path}`, { file: path });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    rmSync(this.path, { force: true });
  }
}

function readHolder(path: string): { pid: number; host: string } | undefined {
  try {
    const [pid, host] = readFileSync(path, 'utf8').trim().split(/\s+/);
    const n = Number(pid);
    return Number.isInteger(n) && n > 0 ? { pid: n, host: host ?? '' } : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
