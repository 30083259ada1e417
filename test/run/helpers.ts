import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { sharedPath } from '../../src/core/shared.js';
import { testDir } from '../helpers/temp.js';

/** The compiled CLI (npm test builds dist/ first): kill tests need a real child process. */
export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'tadpole.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

export function cli(args: string[], opts: { env?: Record<string, string>; input?: Buffer | string; cwd?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...opts.env }, input: opts.input, maxBuffer: 1 << 28, cwd: opts.cwd });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr.toString() };
}

export function cliAsync(args: string[], opts: { env?: Record<string, string> } = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout!.on('data', (b: Buffer) => out.push(b));
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: err })));
  return { child, done };
}

/** A new temporary folder, removed after the test file's last test. */
export function tempDir(prefix = 'tadpole-test-'): string {
  return testDir(prefix);
}

/** About `bytes` of real news text (BBC, JSONL), whole lines. */
export function newsJsonl(bytes: number): Buffer {
  const all = gunzipSync(readFileSync(sharedPath('corpora', 'news-bbc', 'docs.jsonl.gz')));
  const cut = all.indexOf(0x0a, Math.min(bytes, all.length - 1));
  return all.subarray(0, cut < 0 ? all.length : cut + 1);
}

/** Plain text, paragraphs separated by blank lines (WikiText-2), whole lines. */
export function wikiText(bytes: number): Buffer {
  const all = gunzipSync(readFileSync(sharedPath('corpora', 'wiki-wikitext2', 'wiki.valid.tokens.gz')));
  const cut = all.indexOf(0x0a, Math.min(bytes, all.length - 1));
  return all.subarray(0, cut < 0 ? all.length : cut + 1);
}

/**
 * A fast model fitted on 300 SciCite sentences alone (about 1 s): the task-only detector,
 * named, so it is fitted at once rather than completed from each test's corpus.
 */
export function fitModel(dir: string): string {
  const task = join(dir, 'task.jsonl');
  const lines = gunzipSync(readFileSync(sharedPath('corpora', 'task-sci-cite', 'dev.jsonl.gz'))).toString('utf8').split('\n').slice(0, 300).join('\n') + '\n';
  writeFileSync(task, lines);
  const model = join(dir, 'model.json');
  const r = cli(['fit', '--task', task, '--detector', 'task-knn', '-o', model]);
  if (r.code !== 0) throw new Error(`fit failed: ${r.stderr}`);
  return model;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
