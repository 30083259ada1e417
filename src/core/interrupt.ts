/** A run stopped by SIGINT/SIGTERM after saving its checkpoint; the CLI exits 130/143. */
export class Interrupted extends Error {
  constructor(readonly signal: string) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }
}

/** The signal's name once the run is interrupted (its abort reason; SIGINT when it gave none). */
export function abortedBy(signal: AbortSignal | undefined): string | undefined {
  if (!signal?.aborted) return undefined;
  return typeof signal.reason === 'string' ? signal.reason : 'SIGINT';
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  const by = abortedBy(signal);
  if (by) throw new Interrupted(by);
}

/**
 * Test seam for the kill-and-resume tests: when `crashAt` names this point, the process
 * kills itself with SIGKILL (no cleanup runs, exactly as `kill -9`). Set by the CLI from
 * TADPOLE_TEST_CRASH_AT; points: score:K, emit:K (after the K-th checkpoint), cut.
 */
export function crashPoint(crashAt: string | undefined, point: string): void {
  if (crashAt !== undefined && crashAt === point) process.kill(process.pid, 'SIGKILL');
}
