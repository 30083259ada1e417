import { crashPoint } from '../core/interrupt.js';
import type { Shard } from './shard.js';

/** What the ledger's shard row shows of a checkpoint. */
export interface CheckpointProgress {
  docs: number;
  segments: number;
  bytesConsumed: number;
}

/**
 * A pass's checkpoints kept in the run directory's ledger: after a batch, once
 * `checkpointSeconds` have passed since the last (or at once, before an interrupt stops the
 * pass), `snapshot` makes what was written durable and says the state to save (with the pass's seconds so far); the ledger
 * keeps it for --resume. `t0` and `secondsBefore`: the pass's time, a resumed one's included.
 */
export function ledgerCheckpoints<S, T>(s: Shard, stage: 'score' | 'emit', t0: number, secondsBefore: number, snapshot: (state: S, seconds: number) => Promise<{ state: T; progress: CheckpointProgress }> | { state: T; progress: CheckpointProgress }) {
  const interval = s.checkpointSeconds * 1000;
  let last = performance.now();
  let saved = 0;
  return {
    /** Checkpoints saved by this attempt. */
    get saved(): number {
      return saved;
    },
    async after(current: S, now: boolean): Promise<void> {
      if (!now && performance.now() - last < interval) return;
      const seconds = secondsBefore + (performance.now() - t0) / 1000;
      const { state, progress } = await snapshot(current, seconds);
      s.ledger.saveCheckpoint(s.id.shard, s.id.of, stage, state, { ...progress, seconds });
      saved++;
      last = performance.now();
      crashPoint(s.crashAt, `${stage}:${saved}`);
    },
  };
}
