import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const NATIVE = ['better-sqlite3', 'hnswlib-node', 'onnxruntime-node'];

/**
 * tadpole as `npm install tadpole` lays it out when the optional native packages are not
 * installed: the package's files and its required dependencies only.
 */
function installedWithoutNatives(): string {
  const dir = join(tmp.dir, 'node_modules', 'tadpole');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  for (const f of ['package.json', 'bin', 'dist', join('corpora', 'builtin')]) cpSync(join(ROOT, f), join(dir, f), { recursive: true, filter: (src) => !src.endsWith('.map') });
  for (const dep of Object.keys(pkg.dependencies)) {
    // A scoped package (@scope/name) sits in its scope's folder.
    const at = join(dir, 'node_modules', dep);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), at);
  }
  return dir;
}

describe('the native packages are optional', () => {
  it('package.json: each is an optional peer (not installed with tadpole) and a devDependency (installed in the checkout, for the tests); no install script', () => {
    for (const name of NATIVE) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.optionalDependencies?.[name], name).toBeUndefined();
      expect(pkg.peerDependencies?.[name], name).toBeDefined();
      expect(pkg.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(pkg.devDependencies[name], name).toBe(pkg.peerDependencies![name]);
    }
    // npm lists these of a package installed from a tarball, a folder or git as scripts to approve.
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[s], s).toBeUndefined();
  });

  it('without them the demo runs; a kNN index and a run directory each say in one line what to install', () => {
    const dir = installedWithoutNatives();
    const run = (args: string[]) => spawnSync(process.execPath, [join(dir, 'bin', 'tadpole.js'), ...args], { cwd: tmp.dir, encoding: 'utf8' });
    for (const name of NATIVE) expect(existsSync(join(dir, 'node_modules', name))).toBe(false);

    const demo = run(['demo', '--dir', join(tmp.dir, 'demo'), '--docs', '40']);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/^In-domain precision: /m);

    const task = join(tmp.dir, 'task.txt');
    writeFileSync(task, gunzipSync(readFileSync(join(dir, 'corpora', 'builtin', 'task-bio.txt.gz'))).toString('utf8').slice(0, 30_000));
    const corpus = join(tmp.dir, 'demo', 'corpus.jsonl');
    const knn = run(['fit', '--task', task, '--general', corpus, '--method', 'knn-tapt', '-o', join(tmp.dir, 'knn.json')]);
    expect(knn.status, knn.stderr).toBe(4);
    const knnError = knn.stderr.trim().split('\n').filter((l) => l.includes('error'));
    expect(knnError).toEqual([expect.stringMatching(/^tadpole fit: error: the kNN index needs hnswlib-node, an optional dependency, .*: npm install hnswlib-node/)]);
    expect(existsSync(join(tmp.dir, 'knn.json'))).toBe(false);

    // The model the demo fitted (without the natives) on its corpus.
    const model = join(tmp.dir, 'demo', 'model.json');
    expect(existsSync(model)).toBe(true);
    // Node 20 loads better-sqlite3 12 (an optional peer); Node >= 22 loads 13, an optional dependency left out here too.
    const runDir = run(['filter', '-m', model, corpus, '--run-dir', join(tmp.dir, 'run'), '-o', join(tmp.dir, 'kept.jsonl')]);
    expect(runDir.status, runDir.stderr).toBe(1);
    expect(runDir.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tadpole filter: error: .*cannot load better-sqlite3(-napi)? for the run ledger on Node v\d+.*: (npm install better-sqlite3@12|reinstall tadpole)/)]);
    expect(existsSync(join(tmp.dir, 'kept.jsonl'))).toBe(false);
    expect(existsSync(join(tmp.dir, 'run'))).toBe(false);
    const shard = run(['score', '-m', model, corpus, '--run-dir', join(tmp.dir, 'shards'), '--shard', '0/2']);
    expect(shard.status, shard.stderr).toBe(1);
    expect(shard.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tadpole score: error: .*cannot load better-sqlite3(-napi)? for the run ledger/)]);
    expect(existsSync(join(tmp.dir, 'shards'))).toBe(false);
  });
});
