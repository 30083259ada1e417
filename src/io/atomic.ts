import { closeSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { TadpoleError, writeFailure, writeFailureWords } from '../core/errors.js';

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

/**
 * Every byte of `data[offset, offset + length)` written at the fd's position. writeSync may
 * write less than it was given (a filesystem that fills up mid-buffer): the rest is written
 * again until the kernel says why it cannot (ENOSPC), so a short write never passes as a full one.
 */
export function writeAllSync(fd: number, data: Uint8Array, offset = 0, length = data.length - offset): void {
  let at = offset;
  const end = offset + length;
  while (at < end) {
    const n = writeSync(fd, data, at, end - at);
    if (n <= 0) throw Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' });
    at += n;
  }
}

/** Write, fsync, rename: a reader never sees a half-written file, and a file that did not fit is never renamed into place. */
export function writeFileAtomic(path: string, data: string | Buffer): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (isDeviceOrPipe(path)) return writeInPlace(path, bytes);
  const tmp = tempPathFor(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeAllSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw writeFailure(path, err, path);
  }
}

/** An existing path that is not a regular file (/dev/full, /dev/stdout, a fifo): renaming over it would replace the node itself. */
function isDeviceOrPipe(path: string): boolean {
  try {
    const st = statSync(path);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/** A device or pipe is written as it is, like a Sink to one: nothing to rename, and its errors (ENOSPC from /dev/full) are the write's. */
function writeInPlace(path: string, bytes: Buffer): void {
  try {
    const fd = openSync(path, 'a');
    try {
      writeAllSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw writeFailure(path, err, path);
  }
}

/**
 * A fresh scratch folder under TMPDIR (removed on exit if still there). A TMPDIR that is
 * full, read-only or missing is an output failure (exit 5) that names it and the way round it.
 */
export function scratchDir(prefix: string): string {
  try {
    return trackTemp(mkdtempSync(join(tmpdir(), prefix)));
  } catch (err) {
    throw new TadpoleError('TADPOLE_IO', `cannot make a scratch folder in ${tmpdir()}: ${writeFailureWords(err, 'it does not exist')}; set TMPDIR to a writable folder${prefix === 'tadpole-' ? ', or give --work-dir DIR' : ''}`, { file: tmpdir(), cause: err });
  }
}
