import { EXIT } from '../core/errors.js';
import { Interrupted } from './interrupt.js';

/** SIGINT/SIGTERM for a long command: the first asks the pipeline to stop at the next batch (checkpoint, cleanup); a second one exits at once. */
export interface SignalTrap {
  signal: AbortSignal;
  dispose(): void;
}

/** CLI only (it touches the process): turns SIGINT/SIGTERM into an AbortSignal. */
export function trapSignals(): SignalTrap {
  const ac = new AbortController();
  const handler = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) process.exit(sig === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint);
    ac.abort(sig);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: ac.signal,
    dispose() {
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
