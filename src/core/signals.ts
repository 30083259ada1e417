import { EXIT } from './errors.js';
import { Interrupted } from './interrupt.js';

/**
 * How long a stopping run may take to clean up on its own after SIGINT/SIGTERM before the
 * process exits anyway: the pipeline checks the signal between batches and the fits
 * between their steps, but a phase that is waiting on a big read could take longer.
 */
export const SIGNAL_GRACE_MS = 800;

/** SIGINT/SIGTERM for a long command: the first asks the pipeline to stop at the next batch (checkpoint, cleanup); a second one exits at once. */
export interface SignalTrap {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * CLI only (it touches the process): turns SIGINT/SIGTERM into an AbortSignal. Whatever the
 * phase, the process is gone within SIGNAL_GRACE_MS with 130/143: either the run stopped
 * and cleaned up, or the watchdog removes the temp files still tracked (io/atomic.ts) and
 * exits. A run directory stays resumable either way: it is built to survive kill -9.
 */
export function trapSignals(command: string, after = 'no output written'): SignalTrap {
  const ac = new AbortController();
  let watchdog: NodeJS.Timeout | undefined;
  // process.exit runs io/atomic.ts's 'exit' listener, which removes the tracked temp files.
  const exitNow = (sig: NodeJS.Signals) => process.exit(sig === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint);
  const handler = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) exitNow(sig);
    ac.abort(sig);
    watchdog = setTimeout(() => {
      process.stderr.write(`tadpole ${command}: interrupted (${sig}); ${after}\n`);
      exitNow(sig);
    }, SIGNAL_GRACE_MS);
    watchdog.unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: ac.signal,
    dispose() {
      if (watchdog) clearTimeout(watchdog);
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/** The exit code for an interrupted run (130 SIGINT, 143 SIGTERM), or undefined for other errors. */
export function interruptExit(err: unknown): number | undefined {
  if (!(err instanceof Interrupted)) return undefined;
  return err.signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint;
}
