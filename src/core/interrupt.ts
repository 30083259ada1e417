/** A run stopped by SIGINT/SIGTERM after saving its checkpoint; the CLI exits 130/143. */
export class Interrupted extends Error {
  constructor(readonly signal: string) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Interrupted(typeof signal.reason === 'string' ? signal.reason : 'SIGINT');
}

/**
 * Test seam for the kill-and-resume tests: when `crashAt` names this point, the process
 * kills itself with SIGKILL (no cleanup runs, exactly as `kill -9`). Set by the CLI from
 * TADPOLE_TEST_CRASH_AT; points: score:K, emit:K (after the K-th checkpoint), cut.
 */
export function crashPoint(crashAt: string | undefined, point: string): void {
  if (crashAt !== undefined && crashAt === point) process.kill(process.pid, 'SIGKILL');
}
