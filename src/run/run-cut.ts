import { existsSync, readFileSync } from 'node:fs';
import { checkKeep } from '../passes/checks.js';
import { TadpoleError } from '../core/errors.js';
import { exactCut, isKept, type Cut, type KeepBy } from '../cut/exact.js';
import { ScoreSketch, type SketchJSON } from '../cut/sketch.js';
import { SpillReader } from '../cut/spill.js';
import { writeFileAtomic } from '../io/atomic.js';
import { crashPoint } from '../core/interrupt.js';
import { readShardSummary, runPaths, shardPaths, type MomentsState, type ShardSummary } from './layout.js';

/** Where each shard's segments and documents sit in the global numbering. */
export interface ShardOffsets {
  shard: number;
  /** Global id of the shard's first segment (ids run in shard order: the cut's tie-break). */
  firstId: number;
  /** Global ordinal of the shard's first document (JSONL output records carry it). */
  firstDoc: number;
  segments: number;
  docs: number;
  keptSegments: number;
  /** Some earlier shard kept text: this shard's first text run starts with a separator. */
  precededByKept: boolean;
}

export interface RunCut extends Cut {
  of: number;
  shards: ShardOffsets[];
  /** Sentence-score moments merged over shards (Chan et al.'s parallel update). */
  moments: MomentsState;
  reader: Record<string, number>;
  seconds: number;
}

/** The shards of an n-way run that have no completion marker. */
export function missingShards(runDir: string, of: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < of; i++) if (!existsSync(shardPaths(runDir, { shard: i, of }).done)) out.push(i);
  return out;
}

/**
 * One exact global cut over every shard: sketches merged, spills scanned in shard order
 * (so segment ids, and the tie-break, are those of a single-process run). Refuses when a
 * shard is missing. Writes cut.json atomically.
 */
export function cutRun(runDir: string, of: number, keep: number, keepBy: KeepBy, crashAt?: string): RunCut {
  const t0 = performance.now();
  checkKeep(keep);
  const missing = missingShards(runDir, of);
  if (missing.length > 0) {
    const list = missing.length > 10 ? `${missing.slice(0, 10).join(', ')}, ... (${missing.length} in all)` : missing.join(', ');
    throw new TadpoleError('TADPOLE_RUN', `cannot cut: shard(s) ${list} of ${of} have not finished scoring (no done marker in ${runDir}/shards); run tadpole score --run-dir ${runDir} --shard I/${of} for them`);
  }
  const sketch = new ScoreSketch();
  const summaries: ShardSummary[] = [];
  const spills: string[] = [];
  for (let i = 0; i < of; i++) {
    const p = shardPaths(runDir, { shard: i, of });
    sketch.merge(ScoreSketch.fromJSON(JSON.parse(readFileSync(p.sketch, 'utf8')) as SketchJSON));
    summaries.push(readShardSummary(runDir, { shard: i, of }) as ShardSummary);
    spills.push(p.spill);
  }
  const cut = exactCut(sketch, spills, keep, keepBy);
  crashPoint(crashAt, 'cut');
  const shards: ShardOffsets[] = [];
  let firstId = 0;
  let firstDoc = 0;
  let anyKept = false;
  for (let i = 0; i < of; i++) {
    const s = summaries[i]!;
    const r = new SpillReader(spills[i]!);
    let kept = 0;
    try {
      let id = firstId;
      for (let rec = r.next(); rec; rec = r.next(), id++) if (isKept(cut, rec.score, id)) kept++;
    } finally {
      r.close();
    }
    shards.push({ shard: i, firstId, firstDoc, segments: s.segments, docs: s.docs, keptSegments: kept, precededByKept: anyKept });
    anyKept ||= kept > 0;
    firstId += s.segments;
    firstDoc += s.docs;
  }
  const moments = summaries.reduce<MomentsState>((a, s) => mergeMoments(a, s.moments), { n: 0, mean: 0, m2: 0 });
  const reader: Record<string, number> = {};
  for (const s of summaries) for (const [k, v] of Object.entries(s.reader)) reader[k] = (reader[k] ?? 0) + v;
  const result: RunCut = { ...cut, of, shards, moments, reader, seconds: (performance.now() - t0) / 1000 };
  writeFileAtomic(runPaths(runDir).cut, JSON.stringify(result, (_k, v: unknown) => (v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : v), 2) + '\n');
  return result;
}

export function readCut(runDir: string): RunCut | undefined {
  const path = runPaths(runDir).cut;
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8'), (_k, v: unknown) => (v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v)) as RunCut;
}

/** Parallel Welford merge; with one side empty it returns the other exactly (a 1-shard run matches filter). */
export function mergeMoments(a: MomentsState, b: MomentsState): MomentsState {
  if (a.n === 0) return { ...b };
  if (b.n === 0) return { ...a };
  const n = a.n + b.n;
  const d = b.mean - a.mean;
  return { n, mean: a.mean + (d * b.n) / n, m2: a.m2 + b.m2 + (d * d * a.n * b.n) / n };
}
