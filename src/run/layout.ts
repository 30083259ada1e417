import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';

/**
 * Run directory layout (every file a step needs from an earlier one):
 *   ledger.sqlite                 the ledger (src/run/ledger.ts)
 *   lock                          filter/cut: one process at a time
 *   stdin.spool                   stdin's raw bytes, for pass 2
 *   shards/I-of-N/lock            score/emit of one shard: one process at a time
 *   shards/I-of-N/segments.spill  pass 1 records (score, sentences, bytes per segment)
 *   shards/I-of-N/sketch.json     the shard's score sketch
 *   shards/I-of-N/stats.json      the shard's counts and reader counters
 *   shards/I-of-N/done            completion marker, written last
 *   completed-model.json          a model fitted without --general, completed from the inputs
 *                                 (its sample fingerprint is the ledger's `completion`)
 *   cut.json                      the global cut and each shard's offsets
 *   parts/part-IIIII-of-NNNNN     emit's default outputs (cat parts/part-* = filter output)
 *   output.partial / output       filter's output while written / when sent to stdout
 */
export interface ShardId {
  shard: number;
  of: number;
}

export function parseShard(spec: string): ShardId {
  const m = /^(\d+)\/(\d+)$/.exec(spec.trim());
  const shard = m ? Number(m[1]) : NaN;
  const of = m ? Number(m[2]) : NaN;
  if (!m || !(of >= 1) || !(shard >= 0 && shard < of)) {
    throw new TadpoleError('TADPOLE_USAGE', `--shard must be I/N with 0 <= I < N (0-based, e.g. 0/4 .. 3/4), got "${spec}"`);
  }
  return { shard, of };
}

export const runPaths = (dir: string) => ({
  lock: join(dir, 'lock'),
  spool: join(dir, 'stdin.spool'),
  cut: join(dir, 'cut.json'),
  completedModel: join(dir, 'completed-model.json'),
  partial: join(dir, 'output.partial'),
  output: join(dir, 'output'),
  parts: join(dir, 'parts'),
});

export function shardDir(dir: string, id: ShardId): string {
  return join(dir, 'shards', `${id.shard}-of-${id.of}`);
}

export const shardPaths = (dir: string, id: ShardId) => {
  const d = shardDir(dir, id);
  return { dir: d, lock: join(d, 'lock'), spill: join(d, 'segments.spill'), docIndex: join(d, 'docs.index'), sketch: join(d, 'sketch.json'), stats: join(d, 'stats.json'), done: join(d, 'done') };
};

export function partPath(dir: string, id: ShardId): string {
  const w = 5;
  return join(dir, 'parts', `part-${String(id.shard).padStart(w, '0')}-of-${String(id.of).padStart(w, '0')}`);
}

export interface MomentsState {
  n: number;
  mean: number;
  m2: number;
}

/** What one scored shard leaves behind (stats.json); the cut merges these. */
export interface ShardSummary {
  shard: number;
  of: number;
  docs: number;
  segments: number;
  sentences: number;
  bytes: number;
  moments: MomentsState;
  reader: Record<string, number>;
  seconds: number;
  checkpoints: number;
  resumes: number;
  /** The shard left a doc index (docs.index) that its emit reads instead of splitting again; absent in runs scored before it existed. */
  docIndex?: boolean;
  /** sha256 of every plain-text input byte the shard read (read-digest.ts): emit reads the same bytes or refuses. */
  readSha256?: string;
}

export function readShardSummary(runDir: string, id: ShardId): ShardSummary | undefined {
  const p = shardPaths(runDir, id);
  if (!existsSync(p.done)) return undefined;
  return JSON.parse(readFileSync(p.stats, 'utf8')) as ShardSummary;
}
