import { readFileSync } from 'node:fs';

/**
 * The process's soft resource limits that tadpole plans around (Linux /proc/self/limits; on
 * other systems, or unlimited: undefined). Read fresh each time: a test lowers them in a child.
 */
export interface ProcessLimits {
  /** `ulimit -n`: file descriptors open at once. */
  openFiles?: number;
  /** `ulimit -v`, in bytes: the address space, which V8 reserves far ahead of what it uses. */
  addressSpace?: number;
}

export function processLimits(): ProcessLimits {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return {};
  }
  const soft = (name: string): number | undefined => {
    const m = new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(text);
    return m && /^\d+$/.test(m[1]!) ? Number(m[1]) : undefined;
  };
  const openFiles = soft('Max open files');
  const addressSpace = soft('Max address space');
  return { ...(openFiles !== undefined ? { openFiles } : {}), ...(addressSpace !== undefined ? { addressSpace } : {}) };
}

/** Bytes of address space this process holds now (VmSize), or undefined where /proc is absent. */
export function addressSpaceInUse(): number | undefined {
  try {
    const m = /^VmSize:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** `ulimit -v` takes and shows KiB. */
export function ulimitV(bytes: number): string {
  return `ulimit -v ${Math.floor(bytes / 1024)}`;
}

/**
 * An error (or any error in its `cause` chain) that says a limit of the machine or of the
 * process was reached, as one line that names the limit and what to change; undefined for
 * any other error. Such a fault is the run's circumstances, not its input or a bug: exit 6.
 */
export function limitFault(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const words = limitWords(e);
    if (words) return words;
  }
  return undefined;
}

function limitWords(err: unknown): string | undefined {
  const { code, message = '', path } = err as { code?: unknown; message?: string; path?: string };
  const limits = processLimits();
  const memory = `give fewer threads (--workers N) or smaller batches (--batch-sentences N)${limits.addressSpace !== undefined ? `, or raise the address-space limit (${ulimitV(limits.addressSpace)} now)` : ', or free memory'}`;
  switch (code) {
    case 'EMFILE':
      return `too many open files${path ? ` (opening ${path})` : ''}: this process may hold ${limits.openFiles ?? 'only so many'} at once (ulimit -n); raise it (ulimit -n 4096) or give fewer threads (--workers N)`;
    case 'ENFILE':
      return `too many open files on this system${path ? ` (opening ${path})` : ''}: the system-wide limit (fs.file-max) is reached; close other programs or give fewer threads (--workers N)`;
    case 'ENOMEM':
      return `out of memory: ${memory}`;
    case 'ERR_WORKER_OUT_OF_MEMORY':
      return `a scoring thread ran out of memory: ${memory}`;
    case 'ERR_WORKER_INIT_FAILED':
      return `a thread could not start (${message.split('\n')[0]}): give fewer threads (--workers N), or raise the limit on threads or memory (ulimit -u, ulimit -v)`;
    default:
      // V8's words when an ArrayBuffer (a batch, a spill buffer) cannot be had.
      return err instanceof RangeError && /Array buffer allocation failed/.test(message) ? `out of memory: ${memory}` : undefined;
  }
}
