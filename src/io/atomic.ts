import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TadpoleError } from '../core/errors.js';

/** Temp name beside the target, so the final rename stays on one filesystem. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${Date.now().toString(36)}`);
}

/** Write, fsync, rename: a reader never sees a half-written file. */
export function writeFileAtomic(path: string, data: string | Buffer): void {
  const tmp = tempPathFor(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      if (typeof data === 'string') writeSync(fd, data);
      else writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new TadpoleError('TADPOLE_IO', `cannot write ${path}: ${(err as Error).message}`, { file: path, cause: err });
  }
}
