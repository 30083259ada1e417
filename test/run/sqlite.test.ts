import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR, sqliteDriver } from '../../src/run/sqlite.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('sqlite driver by Node major', () => {
  it('loads the build this Node can use and runs a statement', () => {
    const Database = sqliteDriver();
    const db = new Database(':memory:');
    expect(db.prepare('SELECT 40 + 2 AS x').get()).toEqual({ x: 42 });
    db.close();
  });

  it('a process that prepared statements exits cleanly (better-sqlite3 12 aborts at exit on Node 24)', () => {
    const script = `import('${join(ROOT, 'dist', 'run', 'sqlite.js')}').then(({ sqliteDriver }) => {
      const db = new (sqliteDriver())(':memory:');
      for (let i = 0; i < 50; i++) db.prepare('SELECT ' + i + ' AS x').get();
      console.log('done');
    });`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/Assertion failed/);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('done');
    expect(NODE_MAJOR).toBe(Number(process.versions.node.split('.')[0]));
  });
});
