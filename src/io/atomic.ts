import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TadpoleError } from '../core/errors.js';

/**
 * Temp files and folders this process made and has not yet renamed or removed. An exit that
 * skips the normal cleanup (a second Ctrl-C, the signal watchdog, process.exit anywhere)
 * still removes them: nothing half-written is left beside an output, no scratch in /tmp.
 */
const TEMPS = new Set<string>();
/** One 'exit' listener for the process's life: adding one each time the set refills piled them up. */
let exitHooked = false;

export function trackTemp(path: string): string {
  if (!exitHooked) {
    process.on('exit', removeTrackedTemps);
    exitHooked = true;
  }
  TEMPS.add(path);
  return path;
}

export function untrackTemp(path: string): void {
  TEMPS.delete(path);
}

/** Synchronous: it runs from process 'exit'. */
export function removeTrackedTemps(): void {
  for (const path of TEMPS) rmSync(path, { recursive: true, force: true });
  TEMPS.clear();
}

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
