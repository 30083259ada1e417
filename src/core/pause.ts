import { throwIfAborted } from '../shard/interrupt.js';

/**
 * A point where long synchronous work (a fit, a self-training round) lets the event loop
 * run: a SIGINT/SIGTERM handler only runs between macrotasks, so without these a Ctrl-C
 * during a fit waits for the whole fit. Throws Interrupted once `signal` is aborted.
 */
export async function pausePoint(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfAborted(signal);
}
