import { EXIT } from './errors.js';
import { Interrupted } from './interrupt.js';

/**
 * How long a stopping run may take to clean up on its own after SIGINT/SIGTERM before the
 * process exits anyway: the pipeline checks the signal between batches and the fits
 * between their steps, but a phase that is waiting on a big read could take longer.
 */
export const SIGNAL_GRACE_MS = 800;

/** SIGINT/SIGTERM/SIGHUP for a long command: the first asks the pipeline to stop at the next batch (checkpoint, cleanup); a second one exits at once. */
export interface SignalTrap {
  signal: AbortSignal;
  dispose(): void;
}

/** A closed terminal (SIGHUP) stops a run as SIGTERM does, with its own exit code. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The long command's trap, while one runs; otherwise the guard's command, if any. */
let trapped: ((sig: NodeJS.Signals) => void) | undefined;
let guarded: string | undefined;
let listening = false;

function onSignal(sig: NodeJS.Signals): void {
  if (trapped) return trapped(sig);
  if (guarded === undefined) return;
  process.stderr.write(`tadpole ${guarded}: interrupted (${sig})\n`);
  exitNow(sig);
}

function listen(on: boolean): void {
  if (on === listening) return;
  listening = on;
  for (const sig of SIGNALS) {
    if (on) process.on(sig, onSignal);
    else process.off(sig, onSignal);
  }
}

/** process.exit runs io/atomic.ts's 'exit' listener, which removes the tracked temp files. */
function exitNow(sig: NodeJS.Signals): never {
  process.exit(signalExit(sig));
}

/**
 * CLI only: from the moment a command is named until it returns, a signal is never left to
 * Node's default (which kills the process there and then, temp files and all). Outside a
 * trap (loading modules, reading the model, a command that writes whole files at its end)
 * it says so in one line and exits at once, removing the tracked temp files. Returns the undo.
 */
export function guardSignals(command: string): () => void {
  guarded = command;
  listen(true);
  return () => {
    guarded = undefined;
    listen(trapped !== undefined);
  };
}

/**
 * CLI only (it touches the process): turns SIGINT/SIGTERM/SIGHUP into an AbortSignal. Whatever
 * the phase, the process is gone within SIGNAL_GRACE_MS with 130/143/129: either the run
 * stopped and cleaned up, or the watchdog removes the temp files still tracked (io/atomic.ts)
 * and exits. A run directory stays resumable either way: it is built to survive kill -9.
 */
export function trapSignals(command: string, after = 'no output written'): SignalTrap {
  const ac = new AbortController();
  let watchdog: NodeJS.Timeout | undefined;
  const handler = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) exitNow(sig);
    ac.abort(sig);
    watchdog = setTimeout(() => {
      process.stderr.write(`tadpole ${command}: interrupted (${sig}); ${after}\n`);
      exitNow(sig);
    }, SIGNAL_GRACE_MS);
    watchdog.unref();
  };
  trapped = handler;
  listen(true);
  return {
    signal: ac.signal,
    dispose() {
      if (watchdog) clearTimeout(watchdog);
      if (trapped === handler) trapped = undefined;
      listen(guarded !== undefined || trapped !== undefined);
    },
  };
}

/** 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP (128 + the signal's number, as shells report it). */
function signalExit(sig: string): number {
  return sig === 'SIGTERM' ? EXIT.sigterm : sig === 'SIGHUP' ? EXIT.sighup : EXIT.sigint;
}

/** The exit code for an interrupted run (130 SIGINT, 143 SIGTERM, 129 SIGHUP), or undefined for other errors. */
export function interruptExit(err: unknown): number | undefined {
  if (!(err instanceof Interrupted)) return undefined;
  return signalExit(err.signal);
}
