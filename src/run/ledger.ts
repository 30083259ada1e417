import type Database from 'better-sqlite3';
import type { InputFingerprint } from '../passes/fingerprint.js';
import { sqliteDriver } from './sqlite.js';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { storageFault, TadpoleError, writeFailure } from '../core/errors.js';

/**
 * The run ledger: one SQLite file per run directory (the ONE module importing
 * better-sqlite3). It records what a run is (arguments, model sha256, input
 * fingerprints), where each shard stands (stage, status, latest checkpoint, counts,
 * timings) and what happened (events: start, resume, checkpoint, interrupt, error).
 *
 * Shards on several machines may share the file (Slurm on a shared filesystem): the
 * rollback journal (not WAL, which needs shared memory) plus a busy timeout serialise
 * their rare, small writes. The completion markers on disk, not this file, decide
 * whether `cut` may run, so a ledger on a filesystem without working locks degrades
 * to a display problem, never a wrong cut.
 */
export const LEDGER_FILE = 'ledger.sqlite';


export interface ShardRow {
  shard: number;
  of: number;
  stage: string;
  status: string;
  started: string;
  updated: string;
  finished: string | null;
  docs: number;
  segments: number;
  sentences: number;
  bytes: number;
  bytesConsumed: number;
  checkpoints: number;
  resumes: number;
  seconds: number;
}

export interface CheckpointRow<T> {
  shard: number;
  of: number;
  stage: string;
  seq: number;
  at: string;
  state: T;
}

export interface EventRow {
  id: number;
  at: string;
  shard: number | null;
  kind: string;
  detail: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS inputs (
  idx INTEGER PRIMARY KEY, path TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL,
  head_tail_sha256 TEXT NOT NULL, gzip INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS shards (
  shard INTEGER NOT NULL, of INTEGER NOT NULL, stage TEXT NOT NULL, status TEXT NOT NULL,
  started TEXT NOT NULL, updated TEXT NOT NULL, finished TEXT,
  docs INTEGER NOT NULL DEFAULT 0, segments INTEGER NOT NULL DEFAULT 0, sentences INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0, bytes_consumed INTEGER NOT NULL DEFAULT 0,
  checkpoints INTEGER NOT NULL DEFAULT 0, resumes INTEGER NOT NULL DEFAULT 0, seconds REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (shard, of));
CREATE TABLE IF NOT EXISTS checkpoints (
  shard INTEGER NOT NULL, of INTEGER NOT NULL, stage TEXT NOT NULL, seq INTEGER NOT NULL,
  at TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (shard, of, stage));
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, shard INTEGER, kind TEXT NOT NULL, detail TEXT NOT NULL);
`;

function now(): string {
  return new Date().toISOString();
}

export class Ledger {
  private constructor(
    private readonly db: Database.Database,
    private readonly path: string,
  ) {}

  /**
   * A write to the ledger, whose storage may fail under it (a full or read-only disk):
   * SQLite rolls the transaction back, so the ledger still says what the last checkpoint
   * saved and the run resumes once there is room again; the caller gets one exit-5 line.
   */
  private write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw storageFault(err) ? writeFailure(`the run ledger ${this.path}`, err, this.path) : err;
    }
  }

  /** Opens (creating when asked) DIR/ledger.sqlite. */
  static open(dir: string, opts: { create?: boolean; readonly?: boolean } = {}): Ledger {
    const path = join(dir, LEDGER_FILE);
    const existed = existsSync(path);
    let db: Database.Database;
    try {
      db = new (sqliteDriver())(path, { fileMustExist: !opts.create, readonly: !!opts.readonly });
    } catch (err) {
      throw new TadpoleError('TADPOLE_RUN', `cannot open the run ledger ${path}: ${(err as Error).message}`, { file: path, cause: err });
    }
    // Writers wait up to 30 s for one another (shards of one run on one filesystem).
    db.pragma('busy_timeout = 30000');
    const ledger = new Ledger(db, path);
    if (!opts.readonly) {
      try {
        ledger.write(() => {
          db.pragma('journal_mode = DELETE');
          db.pragma('synchronous = NORMAL');
          db.exec(SCHEMA);
        });
      } catch (err) {
        db.close();
        // A ledger this call created but could not give its tables (a full disk) is removed: left
        // empty, it would read as a run directory holding no run. Only then: after any other
        // failure (another shard's writer holding it past the timeout) the file may be that shard's.
        if (!existed && err instanceof TadpoleError && err.code === 'TADPOLE_IO') rmSync(path, { force: true });
        throw err;
      }
    }
    return ledger;
  }

  close(): void {
    this.db.close();
  }

  meta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  allMeta(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const r of this.db.prepare('SELECT key, value FROM meta ORDER BY key').all() as Array<{ key: string; value: string }>) out[r.key] = r.value;
    return out;
  }

  setMeta(values: Record<string, string>): void {
    this.write(() => {
      const st = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
      this.db.transaction(() => {
        for (const [k, v] of Object.entries(values)) st.run(k, v);
      })();
    });
  }

  /** Sets `key` unless already set (atomically across processes); returns the value in force. */
  claim(key: string, value: string): string {
    return this.write(() =>
      this.db
        .transaction(() => {
          const cur = this.meta(key);
          if (cur !== undefined) return cur;
          this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(key, value);
          return value;
        })
        .immediate(),
    );
  }

  /** Records the inputs once; later calls keep the first record (the one to compare against). */
  setInputsOnce(fps: InputFingerprint[]): void {
    this.write(() => {
      const st = this.db.prepare('INSERT OR IGNORE INTO inputs (idx, path, size, mtime_ms, head_tail_sha256, gzip) VALUES (?, ?, ?, ?, ?, ?)');
      this.db.transaction(() => {
        for (const f of fps) st.run(f.idx, f.path, f.size, f.mtimeMs, f.headTailSha256, f.gzip ? 1 : 0);
      })();
    });
  }

  inputs(): InputFingerprint[] {
    const rows = this.db.prepare('SELECT * FROM inputs ORDER BY idx').all() as Array<{ idx: number; path: string; size: number; mtime_ms: number; head_tail_sha256: string; gzip: number }>;
    return rows.map((r) => ({ idx: r.idx, path: r.path, size: r.size, mtimeMs: r.mtime_ms, headTailSha256: r.head_tail_sha256, gzip: r.gzip === 1 }));
  }

  shard(shard: number, of: number): ShardRow | undefined {
    const r = this.db.prepare('SELECT * FROM shards WHERE shard = ? AND of = ?').get(shard, of) as Record<string, unknown> | undefined;
    return r ? toShardRow(r) : undefined;
  }

  shards(): ShardRow[] {
    return (this.db.prepare('SELECT * FROM shards ORDER BY of, shard').all() as Array<Record<string, unknown>>).map(toShardRow);
  }

  /** Marks a shard started (or resumed) in `stage`. */
  startShard(shard: number, of: number, stage: string, resumed: boolean): void {
    const t = now();
    this.write(() =>
      this.db
        .prepare(
        `INSERT INTO shards (shard, of, stage, status, started, updated) VALUES (?, ?, ?, 'running', ?, ?)
         ON CONFLICT(shard, of) DO UPDATE SET stage = excluded.stage, status = 'running', updated = excluded.updated, finished = NULL,
           resumes = resumes + ?`,
        )
        .run(shard, of, stage, t, t, resumed ? 1 : 0),
    );
    this.event(shard, resumed ? 'resume' : 'start', stage);
  }

  updateShard(shard: number, of: number, fields: Partial<Pick<ShardRow, 'stage' | 'status' | 'docs' | 'segments' | 'sentences' | 'bytes' | 'bytesConsumed' | 'seconds'>> & { finished?: boolean }): void {
    const cols: string[] = ['updated = ?'];
    const vals: unknown[] = [now()];
    const map: Record<string, string> = { stage: 'stage', status: 'status', docs: 'docs', segments: 'segments', sentences: 'sentences', bytes: 'bytes', bytesConsumed: 'bytes_consumed', seconds: 'seconds' };
    for (const [k, col] of Object.entries(map)) {
      const v = (fields as Record<string, unknown>)[k];
      if (v !== undefined) {
        cols.push(`${col} = ?`);
        vals.push(v);
      }
    }
    if (fields.finished) {
      cols.push('finished = ?');
      vals.push(now());
    }
    this.write(() => this.db.prepare(`UPDATE shards SET ${cols.join(', ')} WHERE shard = ? AND of = ?`).run(...vals, shard, of));
  }

  /** Saves a shard's latest checkpoint for a stage and its progress, in one transaction. */
  saveCheckpoint<T>(shard: number, of: number, stage: string, state: T, progress: { docs: number; segments: number; bytesConsumed: number; seconds: number }): number {
    let seq = 0;
    const save = this.db.transaction(() => {
      const prev = this.db.prepare('SELECT seq FROM checkpoints WHERE shard = ? AND of = ? AND stage = ?').get(shard, of, stage) as { seq: number } | undefined;
      seq = (prev?.seq ?? 0) + 1;
      this.db
        .prepare('INSERT INTO checkpoints (shard, of, stage, seq, at, state) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(shard, of, stage) DO UPDATE SET seq = excluded.seq, at = excluded.at, state = excluded.state')
        .run(shard, of, stage, seq, now(), JSON.stringify(state));
      this.db
        .prepare('UPDATE shards SET updated = ?, docs = ?, segments = ?, bytes_consumed = ?, seconds = ?, checkpoints = checkpoints + 1 WHERE shard = ? AND of = ?')
        .run(now(), progress.docs, progress.segments, progress.bytesConsumed, progress.seconds, shard, of);
    });
    this.write(() => save());
    return seq;
  }

  checkpoint<T>(shard: number, of: number, stage: string): CheckpointRow<T> | undefined {
    const r = this.db.prepare('SELECT * FROM checkpoints WHERE shard = ? AND of = ? AND stage = ?').get(shard, of, stage) as
      | { shard: number; of: number; stage: string; seq: number; at: string; state: string }
      | undefined;
    return r ? { ...r, state: JSON.parse(r.state) as T } : undefined;
  }

  dropCheckpoint(shard: number, of: number, stage: string): void {
    this.write(() => this.db.prepare('DELETE FROM checkpoints WHERE shard = ? AND of = ? AND stage = ?').run(shard, of, stage));
  }

  event(shard: number | null, kind: string, detail: string): void {
    this.write(() => this.db.prepare('INSERT INTO events (at, shard, kind, detail) VALUES (?, ?, ?, ?)').run(now(), shard, kind, detail));
  }

  /**
   * Records why a shard's stage stopped, on the way out of a failure: best effort, since the
   * ledger's own disk may be what failed, and the error the stage threw is the one to report.
   */
  recordStop(shard: number, of: number, err: unknown): void {
    try {
      this.updateShard(shard, of, { status: stopStatus(err) });
      this.event(shard, 'stop', err instanceof Error ? err.message : String(err));
    } catch {
      // The stage's own error wins; a later --resume reads the last checkpoint, which this does not touch.
    }
  }

  /** Records that the whole run stopped (meta status), at best effort for the same reason as recordStop. */
  recordRunStop(err: unknown): void {
    try {
      this.setMeta({ status: stopStatus(err) });
    } catch {
      // The ledger's disk may be what failed: the error the run threw is the one to report.
    }
  }

  events(limit = 1000): EventRow[] {
    return this.db.prepare('SELECT * FROM events ORDER BY id DESC LIMIT ?').all(limit).reverse() as EventRow[];
  }
}

/** The status a stop leaves: 'interrupted' for a signal or an abort, else 'failed'. */
function stopStatus(err: unknown): string {
  return err instanceof Error && err.name === 'Interrupted' ? 'interrupted' : 'failed';
}

function toShardRow(r: Record<string, unknown>): ShardRow {
  return {
    shard: r.shard as number,
    of: r.of as number,
    stage: r.stage as string,
    status: r.status as string,
    started: r.started as string,
    updated: r.updated as string,
    finished: (r.finished as string | null) ?? null,
    docs: r.docs as number,
    segments: r.segments as number,
    sentences: r.sentences as number,
    bytes: r.bytes as number,
    bytesConsumed: r.bytes_consumed as number,
    checkpoints: r.checkpoints as number,
    resumes: r.resumes as number,
    seconds: r.seconds as number,
  };
}
