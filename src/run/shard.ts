import type { ReaderOptions } from '../io/documents.js';
import type { ShardId } from './layout.js';
import type { Ledger } from './ledger.js';

/** One shard of a run directory, as both passes work on it: where its state lives and how the run is watched. */
export interface Shard {
  readonly runDir: string;
  readonly id: ShardId;
  readonly ledger: Ledger;
  readonly reader: ReaderOptions;
  /** Continue from the shard's last checkpoint when there is one (a fresh start otherwise). */
  readonly resume: boolean;
  readonly checkpointSeconds: number;
  readonly signal: AbortSignal | undefined;
  readonly progress: ((line: string) => void) | undefined;
  /** Test seam: the point at which the process kills itself (core/interrupt.ts crashPoint). */
  readonly crashAt: string | undefined;
}

/** Default checkpoint interval: a resumed run loses at most this much work plus one batch. */
export const DEFAULT_CHECKPOINT_SECONDS = 2;
