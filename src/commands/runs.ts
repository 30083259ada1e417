import { TadpoleError } from '../core/errors.js';
import { Ledger } from '../run/ledger.js';
import { readCut } from '../run/run-cut.js';

/** A run directory as `tadpole runs` shows it: its ledger's settings, inputs, shards, latest checkpoints, cut and events. */
export interface RunDescription {
  dir: string;
  /** The ledger's settings as written (kind, status, stage, created, completion, ...), and the run's identity read. */
  meta: { [key: string]: string | Record<string, unknown> | undefined; identity: Record<string, unknown> | undefined };
  inputs: ReturnType<Ledger['inputs']>;
  shards: ReturnType<Ledger['shards']>;
  checkpoints: Array<{ shard: number; of: number; stage: 'score' | 'emit'; seq: number; at: string; position: { input: number; offset: number } | undefined; spillRecords: number | undefined; outputBytes: number | undefined }>;
  cut: { keep: number; keepBy: string; threshold: number; tieId: number; keptSegments: number; totalSegments: number } | null;
  /** The latest 200. */
  events: ReturnType<Ledger['events']>;
}

/** `tadpole runs DIR` as a library call: what the run directory's ledger holds (TADPOLE_RUN when it has none). */
export function describeRun(dir: string): RunDescription {
  let ledger: Ledger;
  try {
    // read-write: a ledger left by kill -9 may hold a hot journal that must be rolled back first
    ledger = Ledger.open(dir);
  } catch {
    throw new TadpoleError('TADPOLE_RUN', `${dir} is not a tadpole run directory (no readable ledger.sqlite)`);
  }
  try {
    const meta = ledger.allMeta();
    const identity = meta.identity ? (JSON.parse(meta.identity) as Record<string, unknown>) : undefined;
    const shards = ledger.shards();
    const checkpoints = shards.flatMap((s) =>
      (['score', 'emit'] as const).flatMap((stage) => {
        const c = ledger.checkpoint<{ at?: { input: number; offset: number }; spillRecords?: number; outputBytes?: number }>(s.shard, s.of, stage);
        return c ? [{ shard: s.shard, of: s.of, stage, seq: c.seq, at: c.at, position: c.state.at, spillRecords: c.state.spillRecords, outputBytes: c.state.outputBytes }] : [];
      }),
    );
    const cut = readCut(dir);
    return { dir, meta: { ...meta, identity }, inputs: ledger.inputs(), shards, checkpoints, cut: cut ? { keep: cut.keep, keepBy: cut.keepBy, threshold: cut.threshold, tieId: cut.tieId, keptSegments: cut.keptSegments, totalSegments: cut.totalSegments } : null, events: ledger.events(200) };
  } finally {
    ledger.close();
  }
}
