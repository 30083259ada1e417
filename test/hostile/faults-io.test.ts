import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBuiltinSlice } from '../helpers/builtin.js';
import { BIN, ROOT } from '../helpers/cli.js';
import { fileDigest } from '../helpers/files.js';
import { testDir } from '../helpers/temp.js';

/**
 * Faults of the machine under a run, made to happen: a full filesystem (a small tmpfs, when
 * this process may mount one: root, as in CI), a read-only one, a scratch folder that is
 * gone, a device that refuses every write (a copy of /dev/full), named pipes with and without
 * a writer, a Parquet file whose footer is damaged. Each run must end with its documented
 * exit code and one line on stderr, leave no output or temp file, and leave its inputs as
 * they were. The text is the built-in corpus that ships with the checkout.
 */

const dir = testDir('tadpole-faults-');
const mounts: string[] = [];

function mountTmpfs(at: string, options: string): boolean {
  mkdirSync(at, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at]).status === 0;
}

// Whether this process may mount (root with the capability, as in CI), tried once as the file is
// collected and undone at once: the mounts themselves are made in beforeAll, which runs only
// when a test runs, so that a filtered run leaves nothing mounted.
const canMount = (() => {
  const probe = join(dir, 'probe');
  if (!mountTmpfs(probe, 'size=4k')) return false;
  spawnSync('umount', [probe]);
  return true;
})();

/** A tmpfs at a new folder under the test's folder, unmounted after the file's last test. */
function tmpfs(name: string, options: string): string {
  const at = join(dir, name);
  if (!mountTmpfs(at, options)) throw new Error(`mount -t tmpfs -o ${options} failed at ${at}, though a probe mount worked`);
  mounts.push(at);
  return at;
}

let full: string;
let roomy: string;
let readOnly: string;

beforeAll(() => {
  if (!canMount) return;
  full = tmpfs('full', 'size=256k');
  roomy = tmpfs('roomy', 'size=1m');
  readOnly = tmpfs('ro', 'size=64k,ro');
});

afterAll(() => {
  for (const m of mounts.splice(0)) spawnSync('umount', ['-l', m]);
});

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

function cli(args: string[], opts: { env?: Record<string, string>; input?: Buffer } = {}): Run {
  // SIGKILL at the timeout: a run stuck in open(2) on a pipe ignores SIGTERM, and the test must fail, not hang.
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, ...opts.env }, input: opts.input, timeout: 60_000, killSignal: 'SIGKILL', maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

/** The error is one line (besides warnings about the model and the data), and not an internal error. */
function oneLine(r: Run, pattern: RegExp): void {
  const lines = r.stderr
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith('tadpole: warning:'));
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
}

/** Empties a mounted folder and fills it up to `leave` bytes of free space. */
function fill(at: string, leave: number): void {
  for (const f of readdirSync(at)) rmSync(join(at, f), { recursive: true, force: true });
  const s = statfsSync(at);
  const free = Number(s.bavail) * Number(s.bsize);
  if (free > leave) writeFileSync(join(at, '.filler'), Buffer.alloc(free - leave));
}

let task: string;
let corpus: string;
/** The first 50 KB or so of the corpus and 15 KB of the task (whole records, whole abstracts): the kNN fits', whose index only needs to exist. */
let general: string;
let knnTask: string;
let model: string;
let corpusSha: string;
let reference: Buffer;

beforeAll(() => {
  // About 200 KB of real documents (MEDLINE, news, finance, ...), and a biomedical task.
  ({ corpus, task } = writeBuiltinSlice(dir));
  general = join(dir, 'general.jsonl');
  const whole = readFileSync(corpus);
  writeFileSync(general, whole.subarray(0, whole.indexOf(0x0a, 50_000) + 1));
  knnTask = join(dir, 'knn-task.txt');
  const bio = readFileSync(task, 'utf8');
  writeFileSync(knnTask, bio.slice(0, bio.indexOf('\n\n', 15_000)) + '\n');
  model = join(dir, 'model.json');
  const fit = cli(['fit', '-q', '--task', task, '--general', corpus, '-o', model]);
  if (fit.code !== 0) throw new Error(`fit failed: ${fit.stderr}`);
  corpusSha = fileDigest(corpus);
  reference = cli(['filter', '-q', '-m', model, corpus]).stdout;
  expect(reference.length).toBeGreaterThan(20_000);
});

afterAll(() => {
  // Every run read the same corpus: none of them changed it.
  if (corpusSha) expect(fileDigest(corpus)).toBe(corpusSha);
});

describe.skipIf(!canMount)('a full filesystem', () => {

  // --keep 0.9: an output many times the free space (the gzip stream that fails is still busy
  // when its file does; a run that waited on it for ever exited 0 with nothing written).
  it.each([
    ['filter', 'kept.jsonl.gz'],
    ['filter', 'kept.jsonl'],
    ['score', 'scores.jsonl.gz'],
  ])('%s -o FULL/%s: exit 5, one line naming the output, nothing left', (command, name) => {
    fill(full, 4096);
    const out = join(full, name);
    const r = cli([command, '-q', '-m', model, corpus, '-o', out, ...(command === 'filter' ? ['--keep', '0.9', '--stats', join(full, 'stats.json')] : [])]);
    expect(r.code).toBe(5);
    oneLine(r, new RegExp(`cannot write ${out.replace(/[.]/g, '\\.')}: no space left on the device`));
    expect(readdirSync(full)).toEqual(['.filler']);
  });

  it('fit -o FULL/model.json (a task-only model bigger than the free space): exit 5, no model file, no temp file', () => {
    fill(full, 16 * 1024);
    const out = join(full, 'model.json');
    const r = cli(['fit', '-q', '--task', task, '-o', out]);
    expect(r.code).toBe(5);
    oneLine(r, /cannot write .*model\.json: no space left on the device/);
    expect(readdirSync(full)).toEqual(['.filler']);
  });

  it('--work-dir FULL: exit 5, one line naming the scratch file; the spill and the doc index are removed', () => {
    fill(full, 4096);
    const out = join(dir, 'work-kept.jsonl');
    const r = cli(['filter', '-q', '-m', model, corpus, '-o', out, '--work-dir', full]);
    expect(r.code).toBe(5);
    oneLine(r, /cannot write the (spill file|doc index) .*: no space left on the device/);
    expect(readdirSync(full)).toEqual(['.filler']);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('stdin spooled into a full --work-dir: exit 5, one line, nothing left', () => {
    fill(full, 4096);
    const r = cli(['filter', '-q', '-m', model, '-', '-o', join(dir, 'spool-kept.jsonl'), '--work-dir', full], { input: readFileSync(corpus) });
    expect(r.code).toBe(5);
    oneLine(r, /cannot write the stdin spool .*stdin\.spool: no space left on the device/);
    expect(readdirSync(full)).toEqual(['.filler']);
  });

  it('TMPDIR full under fit --method knn-tapt (its kNN index goes through a scratch file): exit 5, no model file, nothing left', () => {
    fill(full, 4096);
    const out = join(dir, 'knn-full.json');
    const r = cli(['fit', '-q', '--method', 'knn-tapt', '--task', knnTask, '--general', general, '-o', out], { env: { TMPDIR: full } });
    expect(r.code).toBe(5);
    oneLine(r, /kNN index .*no space left/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(full)).toEqual(['.filler']);
  });

  it('TMPDIR full: exit 5, one line, no scratch folder left', () => {
    fill(full, 4096);
    const r = cli(['filter', '-q', '-m', model, corpus, '-o', join(dir, 'tmpdir-kept.jsonl')], { env: { TMPDIR: full } });
    expect(r.code).toBe(5);
    oneLine(r, /no space left on the device/);
    expect(readdirSync(full)).toEqual(['.filler']);
    expect(existsSync(join(dir, 'tmpdir-kept.jsonl'))).toBe(false);
  });
});

describe.skipIf(!canMount)('a run directory whose disk fills', () => {
  it.each([8, 48])('with %d KB free: exit 5 and one line (no SQLite stack trace); once there is room, --resume gives the output of one run', (kb) => {
    const at = roomy;
    fill(at, kb * 1024);
    const runDir = join(at, 'run');
    const out = join(dir, `run-kept-${kb}.jsonl`);
    const args = ['filter', '-q', '-m', model, corpus, '-o', out, '--run-dir', runDir];
    const r = cli(args);
    expect(r.code).toBe(5);
    oneLine(r, /no space left on the device/);
    expect(existsSync(out)).toBe(false);
    rmSync(join(at, '.filler'));
    const resumed = cli(existsSync(runDir) && existsSync(join(runDir, 'ledger.sqlite')) ? [...args, '--resume'] : args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(out).equals(reference)).toBe(true);
  });
});

describe.skipIf(!canMount)('a read-only filesystem', () => {
  it.each([
    ['-o', (ro: string) => ['-o', join(ro, 'kept.jsonl')], {}],
    ['--work-dir', (ro: string) => ['-o', join(dir, 'ro-kept.jsonl'), '--work-dir', ro], {}],
    ['--run-dir', (ro: string) => ['-o', join(dir, 'ro-kept.jsonl'), '--run-dir', join(ro, 'run')], {}],
    ['TMPDIR', () => ['-o', join(dir, 'ro-kept.jsonl')], { TMPDIR: 'RO' }],
  ] as const)('%s on it: exit 5, one line, nothing written', (_what, extra, env) => {
    const ro = readOnly;
    const r = cli(['filter', '-q', '-m', model, corpus, ...extra(ro)], { env: Object.fromEntries(Object.entries(env).map(([k]) => [k, ro])) });
    expect(r.code).toBe(5);
    oneLine(r, /not writable|read-only/);
    expect(readdirSync(ro)).toEqual([]);
    expect(existsSync(join(dir, 'ro-kept.jsonl'))).toBe(false);
  });
});

describe('scratch folders that are gone, devices that refuse writes', () => {
  it('TMPDIR names a folder that does not exist: exit 5, one line that says what to set', () => {
    const r = cli(['filter', '-q', '-m', model, corpus, '-o', join(dir, 'gone-kept.jsonl')], { env: { TMPDIR: join(dir, 'no-such-folder') } });
    expect(r.code).toBe(5);
    oneLine(r, /scratch folder in .*no-such-folder.*TMPDIR.*--work-dir/);
    expect(existsSync(join(dir, 'gone-kept.jsonl'))).toBe(false);
  });

  it('TMPDIR gone under a kNN model (its index is read back through a scratch file): exit 5 naming TMPDIR, not a damaged model', () => {
    const knn = join(dir, 'knn.json');
    expect(cli(['fit', '-q', '--method', 'knn-tapt', '--task', knnTask, '--general', general, '-o', knn]).code).toBe(0);
    const r = cli(['score', '-m', knn, corpus, '-o', join(dir, 'knn-scores.jsonl')], { env: { TMPDIR: join(dir, 'no-such-folder') } });
    expect(r.code).toBe(5);
    oneLine(r, /scratch folder in .*no-such-folder.*TMPDIR/);
    expect(existsSync(join(dir, 'knn-scores.jsonl'))).toBe(false);
  });

  it('--work-dir removed while the run reads: exit 5, one line, no output', async () => {
    const work = join(dir, 'vanishing');
    mkdirSync(work);
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, gunzipSync(readFileSync(join(ROOT, 'corpora', 'builtin', 'mix.jsonl.gz'))));
    const out = join(dir, 'vanished-kept.jsonl');
    const child = spawn(process.execPath, [BIN, 'filter', '-q', '-m', model, big, '-o', out, '--work-dir', work, '--batch-sentences', '100'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Pass 1 opens the spill, then the doc index: both are there before the folder goes, or the
    // removal races the second file's creation (rmdir: ENOTEMPTY) instead of testing the run.
    while (!(existsSync(join(work, 'segments.spill')) && existsSync(join(work, 'docs.index'))) && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 10 });
    const r = { code: await code, stdout: Buffer.alloc(0), stderr };
    rmSync(big);
    if (r.code === 0) return; // finished before the folder went (a fast machine): nothing to check
    expect(r.code).toBe(5);
    // Whichever scratch file the run touches first after the folder went names it.
    oneLine(r, /vanishing\/(segments\.spill|docs\.index): (it|its folder) is gone/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  // A copy of /dev/full (the same device numbers), so that a regression replaces this node, not the machine's.
  const dev = join(dir, 'full-device');
  const haveDevice = spawnSync('mknod', [dev, 'c', '1', '7']).status === 0;

  it.skipIf(!haveDevice)('fit -o DEVICE and filter --stats DEVICE (a /dev/full): exit 5, and the device node is still a device', () => {
    // A task-only fit: what fails is the write, whatever model it writes.
    const fit = cli(['fit', '-q', '--task', task, '-o', dev]);
    expect(fit.code).toBe(5);
    oneLine(fit, /cannot write .*full-device: no space left on the device/);
    expect(statSync(dev).isCharacterDevice()).toBe(true);
    const stats = cli(['filter', '-q', '-m', model, corpus, '-o', join(dir, 'dev-kept.jsonl'), '--stats', dev]);
    expect(stats.code).toBe(5);
    expect(statSync(dev).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

/**
 * Runs the CLI, waits until it has made its scratch folder (in a TMPDIR of its own: the run is
 * under way, its named pipe waited on from there), sends SIGTERM: it must exit 143 within 5 s.
 */
async function endsOnSigterm(args: string[]): Promise<void> {
  const tmp = join(dir, `sigterm-tmpdir-${++sigtermRuns}`);
  mkdirSync(tmp);
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
  const code = new Promise<number | null>((resolve) => child.on('close', resolve));
  for (const t = Date.now(); readdirSync(tmp).length === 0; ) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the run ended before it made its scratch folder');
    if (Date.now() - t > 120_000) throw new Error('timed out waiting for the scratch folder');
    await new Promise((r) => setTimeout(r, 10));
  }
  const t = Date.now();
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  expect(await code).toBe(143);
  clearTimeout(killer);
  expect(Date.now() - t).toBeLessThan(5_000);
  expect(readdirSync(tmp)).toEqual([]);
}
let sigtermRuns = 0;

describe('inputs that can be read only once', () => {
  const fifo = join(dir, 'corpus.fifo.jsonl');
  const haveFifo = spawnSync('mkfifo', [fifo]).status === 0;

  it.skipIf(!haveFifo)('a named pipe with no writer: filter is refused at once (exit 3, says to pipe it to stdin), nothing written', () => {
    const out = join(dir, 'fifo-kept.jsonl');
    const t = Date.now();
    const r = cli(['filter', '-q', '-m', model, fifo, '-o', out]);
    expect(r.code).toBe(3);
    expect(Date.now() - t).toBeLessThan(20_000);
    oneLine(r, /corpus\.fifo\.jsonl is a named pipe, which can be read only once.*pipe it to stdin/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it.skipIf(!haveFifo)('a named pipe with a writer: filter and filter --run-dir refused the same way; filter --threshold reads it once', async () => {
    const writer = spawn('sh', ['-c', `cat "${corpus}" > "${fifo}"`], { stdio: 'ignore' });
    const ended = new Promise((resolve) => writer.on('close', resolve));
    try {
      for (const extra of [[], ['--run-dir', join(dir, 'fifo-run')]]) {
        const r = cli(['filter', '-q', '-m', model, fifo, '-o', join(dir, 'fifo-kept.jsonl'), ...extra]);
        expect(r.code).toBe(3);
        oneLine(r, /is a named pipe, which can be read only once/);
      }
      expect(existsSync(join(dir, 'fifo-run'))).toBe(false);
      // One streaming pass with a fixed model: the pipe is read once, as it was written.
      const once = await new Promise<Run>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'filter', '-q', '-m', model, '--threshold', '0', fifo], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        let err = '';
        child.stdout.on('data', (b: Buffer) => out.push(b));
        child.stderr.on('data', (b: Buffer) => (err += b.toString()));
        child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: err }));
      });
      expect(once.code, once.stderr).toBe(0);
      expect(once.stdout.length).toBeGreaterThan(0);
      await ended;
    } finally {
      writer.kill();
    }
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it.skipIf(!haveFifo)('a named pipe that no writer ever opens, read once (filter --threshold): SIGTERM ends the wait, exit 143, no temp file', async () => {
    const out = join(dir, 'fifo-once.jsonl');
    await endsOnSigterm(['filter', '-q', '-m', model, '--threshold', '0', fifo, '-o', out]);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('/dev/stdin over a pipe or socket: refused, saying to give - instead; - itself is spooled and gives the same output as the file', () => {
    const r = cli(['filter', '-q', '-m', model, '/dev/stdin', '-o', join(dir, 'stdin-kept.jsonl')], { input: readFileSync(corpus) });
    expect(r.code).toBe(3);
    oneLine(r, /\/dev\/stdin is a (named pipe|socket), which can be read only once.*give - \(stdin\) instead/);
    const piped = cli(['filter', '-q', '-m', model, '-'], { input: readFileSync(corpus) });
    expect(piped.code).toBe(0);
    expect(piped.stdout.equals(reference)).toBe(true);
  });
});

describe('a named pipe as the output', () => {
  const fifo = join(dir, 'kept.fifo');
  const haveFifo = spawnSync('mkfifo', [fifo]).status === 0;

  it.skipIf(!haveFifo)('no reader ever opens it: SIGTERM ends the wait (exit 143), and the pipe is still a pipe', async () => {
    await endsOnSigterm(['filter', '-q', '-m', model, corpus, '-o', fifo]);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it.skipIf(!haveFifo)('a reader: it gets the bytes a plain filter writes to stdout, and the pipe is still a pipe', async () => {
    // The reader writes to a file: this process waits in a synchronous spawn meanwhile.
    const got = join(dir, 'fifo-read.jsonl');
    const reader = spawn('sh', ['-c', `cat "${fifo}" > "${got}"`], { stdio: 'ignore' });
    const read = new Promise((resolve) => reader.on('close', resolve));
    const r = cli(['filter', '-q', '-m', model, corpus, '-o', fifo]);
    await read;
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(got).equals(reference)).toBe(true);
    rmSync(got);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});

describe('Parquet whose footer is damaged', () => {
  it('metadata bytes zeroed or randomised: exit 3, one plain line, no JavaScript TypeError', () => {
    const good = readFileSync(join(ROOT, 'test', 'fixtures', 'formats', 'corpus.parquet'));
    const metaLen = good.readUInt32LE(good.length - 8);
    const start = good.length - 8 - metaLen;
    for (const [name, damage] of [
      ['zeroed', (b: Buffer) => b.fill(0, start, start + metaLen)],
      ['random', (b: Buffer) => b.set(createHash('sha512').update('seed').digest().subarray(0, 64), start + 8)],
    ] as const) {
      const bad = join(dir, `bad-${name}.parquet`);
      const bytes = Buffer.from(good);
      damage(bytes);
      writeFileSync(bad, bytes);
      const before = fileDigest(bad);
      const out = join(dir, `parquet-kept-${name}.jsonl`);
      const r = cli(['filter', '-q', '-m', model, bad, '-o', out]);
      expect(r.code).toBe(3);
      oneLine(r, new RegExp(`bad-${name}\\.parquet: not a readable Parquet file`));
      expect(r.stderr).not.toMatch(/Cannot read properties|undefined/);
      expect(existsSync(out)).toBe(false);
      expect(fileDigest(bad)).toBe(before);
    }
  });
});
