import { closeSync, fsyncSync, mkdtempSync, openSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
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

/**
 * Where a pid means something: this machine and its pid namespace. A pid in a temp name is
 * checked only by a process that shares both (another container with the same /tmp, another
 * host on a shared disk could find "no such process" for a run that is alive there).
 */
const HOST = createHash('sha256').update(`${hostname()}\0${pidNamespace()}`).digest('hex').slice(0, 6);

function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

/** The scratch folders scratchDir makes, of every kind (tadpole-, tadpole-hnsw-, ...): the pid is group 1. */
const SCRATCH_NAME = new RegExp(`^tadpole-(?:[a-z]+-)?(\\d+)-${HOST}-[A-Za-z0-9]{6}$`);

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

/**
 * Temp name beside the target, so the final rename stays on one filesystem. The first one for
 * a target also removes the temp files beside it that a run which died (kill -9, power loss)
 * left there: their names carry the writer's pid, and a pid that no longer runs wrote nothing
 * that anyone will rename.
 */
export function tempPathFor(path: string): string {
  const dir = dirname(path);
  const name = basename(path);
  if (!swept.has(path)) {
    swept.add(path);
    const own = new RegExp(`^\\.${escapeRegExp(name)}\\.tmp-(\\d+)-${HOST}-[0-9a-z]+$`);
    removeStale(dir, (entry) => own.exec(entry)?.[1]);
  }
  return join(dir, `.${name}.tmp-${process.pid}-${HOST}-${Date.now().toString(36)}`);
}

/** Targets (and scratch folders) already swept by this process: once each is enough. */
const swept = new Set<string>();

/** Told what a sweep removed (the CLI says it in one line); the library stays silent. */
let staleReport: ((removed: string[]) => void) | undefined;

export function onStaleTemps(report: ((removed: string[]) => void) | undefined): void {
  staleReport = report;
}

/**
 * Removes the entries of `dir` whose name `pidOf` reads a pid from, when that pid is gone.
 * A pid that still runs keeps its files, even if it was reused by another program since: a
 * leftover kept is harmless, a live run's file removed is not. Best effort: a folder that
 * cannot be read or an entry that cannot be removed is left as it is.
 */
function removeStale(dir: string, pidOf: (entry: string) => string | undefined): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const pid = Number(pidOf(entry));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue;
    try {
      rmSync(join(dir, entry), { recursive: true, force: true });
      removed.push(join(dir, entry));
    } catch {
      // Someone else's, or on a read-only disk: not this run's to fix.
    }
  }
  if (removed.length) staleReport?.(removed);
}

/** kill(pid, 0): ESRCH says no such process; EPERM says one runs that this user may not signal. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
 * A fresh scratch folder under TMPDIR (removed on exit if still there), named
 * PREFIX<pid>-<host>-XXXXXX: the first one a process makes also removes the scratch folders of
 * tadpole runs whose process is gone (killed with -9, or the machine went down). A TMPDIR that
 * is full, read-only or missing is an output failure (exit 5) that names it and the way round it.
 */
export function scratchDir(prefix: string): string {
  const base = tmpdir();
  if (!swept.has(base)) {
    swept.add(base);
    removeStale(base, (entry) => SCRATCH_NAME.exec(entry)?.[1]);
  }
  try {
    return trackTemp(mkdtempSync(join(base, `${prefix}${process.pid}-${HOST}-`)));
  } catch (err) {
    throw new TadpoleError('TADPOLE_IO', `cannot make a scratch folder in ${tmpdir()}: ${writeFailureWords(err, 'it does not exist')}; set TMPDIR to a writable folder${prefix === 'tadpole-' ? ', or give --work-dir DIR' : ''}`, { file: tmpdir(), cause: err });
  }
}

/** Removes a folder scratchDir made, and forgets it (nothing left for exit to remove). */
export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  untrackTemp(dir);
}
