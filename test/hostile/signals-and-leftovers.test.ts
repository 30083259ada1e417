import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { testDir } from '../helpers/temp.js';

/**
 * Signals at every stage (SIGHUP as SIGTERM, with its own exit code; fit and the completion
 * answer at once, with the one line a filter prints), and what a run killed outright leaves:
 * the next run removes it, and only what belongs to processes that are gone. Every signal is
 * sent once the process shows it has reached the stage (a line on stderr, a file that
 * appears, bytes written), never after a fixed sleep. The text is the built-in corpus.
 */

const dir = testDir('tadpole-signals-');
let task: string;
/** Whole abstracts, about 40 KB: the kNN model's task (a kNN fit and its search grow with it). */
let knnTask: string;
let big: string;
/** Twice the mix (about 3.5 MB): enough for pass 2 of a --keep 0.9 filter, and for a sample that takes a fit or a completion seconds. */
let mid: string;
/** About 100 KB of whole records: a run that must finish, not be caught. */
let small: string;
let model: string;
let deferred: string;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

interface Started {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => number;
  done: Promise<Run>;
}

function start(args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = 0;
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  child.stdout!.on('data', (b: Buffer) => (out += b.length));
  child.stdin!.on('error', () => undefined);
  const done = new Promise<Run>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr: err })));
  return { child, stderr: () => err, stdout: () => out, done };
}

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const s = start(args, env);
  s.child.stdin!.end();
  return s.done;
}

/** Polls `ready` until it holds; fails if the process ends first or the deadline passes (a loaded machine is slow, not wrong). */
async function until(s: Started, what: string, ready: () => boolean, ms = 120_000): Promise<void> {
  const t = Date.now();
  while (!ready()) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`the run ended before ${what}: ${s.stderr()}`);
    if (Date.now() - t > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The lines on stderr that are not progress or warnings: an interrupted run has exactly one. */
function errorLines(stderr: string): string[] {
  return stderr
    .trimEnd()
    .split('\n')
    .filter((l) => /interrupted|error/.test(l));
}

function tempsIn(at: string): string[] {
  return readdirSync(at).filter((f) => f.includes('.tmp-'));
}

function freshDir(name: string): string {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  return at;
}

const EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

beforeAll(async () => {
  const mix = gunzipSync(readFileSync(join(ROOT, 'corpora', 'builtin', 'mix.jsonl.gz')));
  // About 7 MB: pass 1 and the writing of a killed run last long enough to be caught in them, on a fast machine too.
  big = join(dir, 'big.jsonl');
  writeFileSync(big, Buffer.concat([mix, mix, mix, mix]));
  mid = join(dir, 'mid.jsonl');
  writeFileSync(mid, Buffer.concat([mix, mix]));
  small = join(dir, 'small.jsonl');
  writeFileSync(small, mix.subarray(0, mix.indexOf(0x0a, 100_000) + 1));
  task = join(dir, 'task.txt');
  const bio = gunzipSync(readFileSync(join(ROOT, 'corpora', 'builtin', 'task-bio.txt.gz')));
  writeFileSync(task, bio);
  knnTask = join(dir, 'knn-task.txt');
  writeFileSync(knnTask, bio.subarray(0, bio.indexOf('\n\n', 40_000) + 1));
  // A model that needs no general text (fitted at once), and one that filter completes from the corpus.
  model = join(dir, 'knn.json');
  deferred = join(dir, 'deferred.json');
  const fits = await Promise.all([run(['fit', '-q', '--task', knnTask, '--detector', 'task-knn', '-o', model]), run(['fit', '-q', '--task', task, '-o', deferred])]);
  for (const f of fits) if (f.code !== 0) throw new Error(`fit failed: ${f.stderr}`);
}, 180_000);

describe('leftovers of a run killed with -9', () => {
  const sleepers: ChildProcess[] = [];
  const out = join(dir, 'killed');
  const tmp = join(dir, 'killed-tmpdir');
  const target = join(out, 'x.jsonl.gz');
  let deadPid: number;
  /** The scratch folder's tag for this machine and its pid namespace: tadpole-PID-HOST-XXXXXX. */
  let host: string;

  beforeAll(async () => {
    mkdirSync(out);
    mkdirSync(tmp);
    const killed = start(['filter', '-q', '-m', model, big, '-o', target], { TMPDIR: tmp });
    // Writing has begun: the output's temp file is beside it and the run's scratch folder in TMPDIR.
    await until(killed, 'the temp output and the scratch folder', () => tempsIn(out).length > 0 && readdirSync(tmp).some((f) => f.startsWith('tadpole-')));
    killed.child.kill('SIGKILL');
    expect((await killed.done).signal).toBe('SIGKILL');
    deadPid = killed.child.pid!;
    host = new RegExp(`^tadpole-${deadPid}-([0-9a-f]{6})-`).exec(readdirSync(tmp)[0]!)![1]!;
  }, 120_000);

  afterAll(() => {
    for (const s of sleepers) s.kill('SIGKILL');
  });

  it('the next run to the same -o removes the dead run\'s temp files and scratch folders, and nothing of a live process', async () => {
    expect(tempsIn(out)).toEqual([expect.stringMatching(new RegExp(`^\\.x\\.jsonl\\.gz\\.tmp-${deadPid}-${host}-`))]);
    // What must stay: a live process's scratch folders and temp file (a sleeping child's pid, and
    // this test's own), and a dead pid's folder from another machine or pid namespace.
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    sleepers.push(sleeper);
    const live = [`tadpole-${sleeper.pid}-${host}-AAAAAA`, `tadpole-hnsw-${process.pid}-${host}-BBBBBB`, `tadpole-${deadPid}-${host === 'ffffff' ? 'eeeeee' : 'ffffff'}-CCCCCC`];
    for (const name of live) mkdirSync(join(tmp, name));
    const liveTemp = `.x.jsonl.gz.tmp-${sleeper.pid}-${host}-zz`;
    writeFileSync(join(out, liveTemp), 'a live run is writing this');
    // Also a dead run's temp file beside --stats, and another kind of its scratch folders.
    const stats = join(out, 'stats.json');
    const deadStats = `.stats.json.tmp-${deadPid}-${host}-zz`;
    writeFileSync(join(out, deadStats), '');
    const deadHnsw = `tadpole-hnsw-${deadPid}-${host}-DDDDDD`;
    mkdirSync(join(tmp, deadHnsw));
    const [deadTemp] = tempsIn(out).filter((f) => f.includes(`-${deadPid}-`) && f.startsWith('.x.'));
    const [deadScratch] = readdirSync(tmp).filter((f) => f.startsWith(`tadpole-${deadPid}-${host}-`));

    const again = await run(['filter', '-m', model, small, '-o', target, '--stats', stats], { TMPDIR: tmp });
    expect(again.code, again.stderr).toBe(0);
    const said = again.stderr.split('\n').flatMap((l) => /^tadpole: removed \d+ leftovers? of runs that died: (.*)$/.exec(l)?.[1]?.split(', ') ?? []);
    expect(said.map((p) => p.split('/').pop()).sort()).toEqual([deadTemp, deadScratch, deadStats, deadHnsw].sort());
    expect(readdirSync(out).sort()).toEqual([liveTemp, 'stats.json', 'x.jsonl.gz'].sort());
    expect(readdirSync(tmp).sort()).toEqual(live.sort());
    expect(statSync(target).size).toBeGreaterThan(0);
  }, 180_000);

  it('fit -o under -q: a dead run\'s temp file beside the model is removed without a word', async () => {
    const at = freshDir('fit-leftover');
    const stale = `.model.json.tmp-${deadPid}-${host}-zz`;
    writeFileSync(join(at, stale), '{"half": ');
    const r = await run(['fit', '-q', '--task', knnTask, '--detector', 'task-knn', '-o', join(at, 'model.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(readdirSync(at)).toEqual(['model.json']);
  }, 120_000);
});

describe('SIGHUP is handled as SIGTERM is, with exit 129', () => {
  it('in pass 1: exit 129, one line, no output, no temp file, the scratch files removed', async () => {
    const out = freshDir('hup-pass1');
    const work = freshDir('hup-pass1-work');
    const s = start(['filter', '-q', '-m', model, big, '-o', join(out, 'kept.jsonl'), '--work-dir', work, '--batch-sentences', '100']);
    await until(s, 'pass 1 (its spill)', () => existsSync(join(work, 'segments.spill')));
    s.child.kill('SIGHUP');
    const r = await s.done;
    expect(r.code, r.stderr).toBe(129);
    expect(r.stderr).toBe('tadpole filter: interrupted (SIGHUP); no output written\n');
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(work)).toEqual([]);
  }, 120_000);

  it('in pass 2 (after the cut, while the kept text is written): exit 129, one line, no output, no temp file', async () => {
    const out = freshDir('hup-pass2');
    const tmp = freshDir('hup-pass2-tmpdir');
    const s = start(['filter', '-q', '-m', model, mid, '-o', join(out, 'kept.jsonl'), '--keep', '0.9', '--batch-sentences', '100'], { TMPDIR: tmp });
    await until(s, 'pass 2 (bytes in the temp output)', () => tempsIn(out).some((f) => statSync(join(out, f)).size > 0));
    s.child.kill('SIGHUP');
    const r = await s.done;
    expect(r.code, r.stderr).toBe(129);
    expect(r.stderr).toBe('tadpole filter: interrupted (SIGHUP); no output written\n');
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);
});

describe('fit and the completion answer a signal at once, with the one line', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s during fit: exit 130/143/129 within seconds, one line, no model, no temp file', async (sig) => {
    const out = freshDir(`fit-${sig}`);
    const m = join(out, 'model.json');
    const s = start(['fit', '--task', task, '--general', mid, '-o', m]);
    // The sample is drawn; the fit (seconds of self-training) is under way.
    await until(s, 'the general sample', () => /general sample:/.test(s.stderr()));
    const t = Date.now();
    s.child.kill(sig);
    const r = await s.done;
    expect(r.code, r.stderr).toBe(EXIT[sig]);
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(errorLines(r.stderr)).toEqual([`tadpole fit: interrupted (${sig}); no model written`]);
    expect(readdirSync(out)).toEqual([]);
  }, 120_000);

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s during the completion of a model fitted without --general: exit 130/143/129, one line, no output, no temp file', async (sig) => {
    const out = freshDir(`completion-${sig}`);
    const tmp = freshDir(`completion-${sig}-tmpdir`);
    const s = start(['filter', '-m', deferred, mid, '-o', join(out, 'kept.jsonl')], { TMPDIR: tmp });
    await until(s, 'the completion', () => /completing/.test(s.stderr()));
    const t = Date.now();
    s.child.kill(sig);
    const r = await s.done;
    expect(r.code, r.stderr).toBe(EXIT[sig]);
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(errorLines(r.stderr)).toEqual([`tadpole filter: interrupted (${sig}); no output written`]);
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);
});

describe('a command with no stage of its own to stop still answers with its exit code and one line', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s while score streams stdin: exit 143/129, "interrupted" on stderr (Node\'s default would kill it silently)', async (sig) => {
    // Small batches: the first scores come out after a few hundred sentences, not thousands.
    const s = start(['score', '-q', '-m', model, '--batch-sentences', '200', '-']);
    // Enough for whole batches to come out while stdin stays open (a few MB).
    s.child.stdin!.write(readFileSync(mid));
    // Scores are coming out: the command is running, its stdin still open.
    await until(s, 'the first scores', () => s.stdout() > 0);
    s.child.kill(sig);
    const r = await s.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(EXIT[sig]);
    expect(r.stderr).toBe(`tadpole score: interrupted (${sig})\n`);
  }, 120_000);
});
