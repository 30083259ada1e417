import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, cliAsync, fitModel, newsJsonl, sleep, tempDir } from '../run/helpers.js';

let dir: string;
let model: string;
let input: string;
let reference: Buffer;

beforeAll(() => {
  dir = tempDir();
  model = fitModel(dir);
  input = join(dir, 'news.jsonl');
  writeFileSync(input, newsJsonl(700_000));
  reference = cli(['filter', '-q', '-m', model, input]).stdout;
});

/** Until `path` exists and holds at least `bytes` bytes. */
async function waitFor(path: string, bytes = 0, ms = 120_000): Promise<void> {
  const t = Date.now();
  while (!existsSync(path) || statSync(path).size < bytes) {
    if (Date.now() - t > ms) throw new Error(`timed out waiting for ${path}`);
    await sleep(20);
  }
}

describe('signals', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s during filter --run-dir: exit %d, lock released, checkpoint kept; --resume gives identical output', async (sig, code) => {
    const runDir = join(dir, `run-${sig}`);
    const out = join(dir, `out-${sig}.jsonl`);
    const args = ['filter', '-m', model, input, '--run-dir', runDir, '-o', out, '-q', '--batch-sentences', '200', '--checkpoint-seconds', '0'];
    const { child, done } = cliAsync(args);
    // Some segments are scored (their scores in the spill), so there is a checkpoint to keep.
    await waitFor(join(runDir, 'shards', '0-of-1', 'segments.spill'), 1);
    child.kill(sig);
    const r = await done;
    if (r.code === 0) return; // finished before the signal landed (slow machine): nothing to check
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(/interrupted.*--resume/);
    expect(existsSync(join(runDir, 'lock'))).toBe(false);
    expect(existsSync(out)).toBe(false);
    const resumed = cli([...args, '--resume']);
    expect(resumed.code).toBe(0);
    expect(readFileSync(out).equals(reference)).toBe(true);
  });

  it('SIGTERM during a plain filter -o: exit 143, no output and no temp file left', async () => {
    const outDir = join(dir, 'plain-out');
    mkdirSync(outDir);
    const out = join(outDir, 'kept.jsonl');
    const { child, done } = cliAsync(['filter', '-q', '-m', model, input, '-o', out, '--batch-sentences', '200']);
    // The output's temp file exists once the run is under way (a busy machine can take longer
    // than any fixed sleep to get there).
    for (let t = Date.now(); readdirSync(outDir).length === 0 && Date.now() - t < 120_000; ) await sleep(10);
    child.kill('SIGTERM');
    const r = await done;
    if (r.code === 0) return;
    expect(r.code).toBe(143);
    expect(readdirSync(outDir)).toEqual([]);
  });
});


describe('signals with input ranges', () => {
  it('SIGINT while threads filter byte ranges: exit 130 soon after, no output and no temp file left', async () => {
    const outDir = join(dir, 'ranges-out');
    mkdirSync(outDir);
    const out = join(outDir, 'kept.jsonl');
    const big = join(dir, 'news-big.jsonl');
    writeFileSync(big, newsJsonl(5_000_000));
    const work = join(dir, 'ranges-work');
    mkdirSync(work);
    const { child, done } = cliAsync(['filter', '-q', '-m', model, big, '-o', out, '--workers', '2', '--input-ranges', 'on', '--batch-sentences', '200', '--work-dir', work]);
    await waitFor(join(work, 'range-0.spill'));
    const t = Date.now();
    child.kill('SIGINT');
    const r = await done;
    if (r.code === 0) return; // finished before the signal landed (fast machine): nothing to check
    expect(r.code).toBe(130);
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(readdirSync(outDir)).toEqual([]);
    expect(r.stderr).toMatch(/interrupted \(SIGINT\)/);
  });
});

describe('sinks', () => {
  it('-o /dev/full: exit 5 with "no space left", the device left alone', () => {
    const r = cli(['filter', '-q', '-m', model, input, '--keep', '1', '-o', '/dev/full']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/cannot write \/dev\/full: no space left on the device/);
    expect(readdirSync('/dev').filter((f) => f.startsWith('.full'))).toEqual([]);
  });

  it('stdout redirected to /dev/full: exit 5', async () => {
    const fd = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [BIN, 'filter', '-q', '-m', model, input, '--keep', '1'], { stdio: ['ignore', fd, 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    closeSync(fd);
    expect(code).toBe(5);
    expect(err).toMatch(/no space left/);
  });

  it('a reader that closes the pipe early (| head): quiet exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'filter', '-q', '-m', model, input, '--keep', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
