import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'tadpole.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs the built CLI (npm test builds dist/ first) as a child process. */
export function runCli(args: string[], opts: { input?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout: Buffer.concat(out), stderr: err }));
    child.stdin.on('error', () => undefined);
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

export function tempDir(prefix = 'tadpole-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `fit --task TASK --doc-per-line --general CORPUS EXTRA... -o DIR/TAG.json`, then `filter` of
 * CORPUS into DIR/TAG.jsonl, each expected to succeed: the loop the end-to-end selection tests run.
 */
export async function fitThenFilter(dir: string, task: string, corpus: string, extra: string[], tag: string): Promise<{ model: string; kept: string; fitStderr: string }> {
  const model = join(dir, `${tag}.json`);
  const fit = await runCli(['fit', '-v', '--task', task, '--doc-per-line', '--general', corpus, ...extra, '-o', model]);
  expect(fit.code, fit.stderr).toBe(0);
  const kept = join(dir, `${tag}.jsonl`);
  const f = await runCli(['filter', '-m', model, corpus, '-o', kept, '-q']);
  expect(f.code, f.stderr).toBe(0);
  return { model, kept, fitStderr: fit.stderr };
}

/**
 * The CLI's `main` in this process, with captured streams: the same parsing, checks, output
 * and exit codes as the `tadpole` binary, without a process start and the loading of dist/ it
 * costs on every call. For the tests of what a command does; those of the process itself
 * (signals, a closed stdout, Node flags, the binary's own start) spawn it with runCli.
 */
export async function runMain(args: string[], opts: { input?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult & { code: number }> {
  const { Readable, Writable } = await import('node:stream');
  const { main } = await import('../../src/cli/main.js');
  const out: Buffer[] = [];
  let err = '';
  const stdout = new Writable({ write: (chunk: Buffer, _enc, done) => (out.push(Buffer.from(chunk)), done()) });
  const stderr = new Writable({ write: (chunk: Buffer, _enc, done) => ((err += chunk.toString()), done()) });
  const stdin = Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]);
  const code = await main(args, { stdin, stdout, stderr, stderrIsTTY: false, env: { ...process.env, ...opts.env }, cwd: opts.cwd ?? ROOT });
  return { code, signal: null, stdout: Buffer.concat(out), stderr: err };
}
