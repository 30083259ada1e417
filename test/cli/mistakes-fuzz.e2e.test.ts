/**
 * Seeded random flag and input combinations for filter, score and split, right and wrong:
 * whatever the combination, an exit 0 leaves valid output, no input ever changes, and no
 * temporary file is ever left. Then seeded truncations and byte flips of a real model file:
 * each is refused as a damaged model (exit 4, one printable line) or scores exactly as the
 * intact model does. The seed is printed in the test name: a failure reproduces.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDigest, listFiles } from '../helpers/files.js';
import { sharedDir } from '../../src/core/shared.js';
import { Rng } from '../../src/core/rng.js';
import { TadpoleError } from '../../src/core/errors.js';
import { readModel } from '../../src/model/file.js';
import { openScorer } from '../../src/model/open.js';
import { runMain } from '../helpers/cli.js';
import { cli, fitModel, newsJsonl, tempDir, wikiText } from '../run/helpers.js';

const shared = sharedDir();
const SEED = 20261126;
const CASES = 24;
let dir: string;
let model: string;



beforeAll(() => {
  if (!shared) return;
  dir = tempDir('tadpole-fuzz-');
  model = fitModel(dir);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every file or folder name draw() gives, relative to the case's workspace. */
const WORKSPACE_NAMES = new Set(['news.jsonl', 'wiki.txt', 'in', 'in/a.jsonl', 'missing.jsonl', 'nope.json', 'out.jsonl', 'out.txt', 'out.jsonl.gz', 'nodir/out.jsonl', 'stats.json', 'nodir/s.json', 'run']);

/** One case: a command line drawn from pools of good and bad choices. */
function draw(rng: Rng, ws: string): { args: string[]; output?: string; format?: 'text' | 'jsonl'; reads: string[] } {
  const pick = <T,>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
  const command = pick(['filter', 'filter', 'filter', 'score', 'split'] as const);
  const inputs = pick([['news.jsonl'], ['wiki.txt'], ['in'], ['news.jsonl', 'wiki.txt'], ['missing.jsonl'], [], ['in', 'news.jsonl']]);
  const args: string[] = [command];
  const reads = inputs.flatMap((f) => (f === 'in' ? ['in/a.jsonl'] : [f]));
  if (command !== 'split' && rng.int(10) > 0) {
    const m = rng.int(8) ? model : pick(['news.jsonl', 'nope.json']);
    args.push('-m', m);
    reads.push(m);
  }
  args.push(...inputs);
  const output = pick([undefined, 'out.jsonl', 'out.txt', 'out.jsonl.gz', 'news.jsonl', 'nodir/out.jsonl', 'in', 'wiki.txt', 'in/a.jsonl']);
  if (output) args.push('-o', output);
  if (command === 'filter') {
    if (rng.int(2)) args.push('--keep', pick(['0.3', '0', '1', '1.5', '-1', 'x', '0.05']));
    if (!rng.int(4)) args.push('--out-format', pick(['text', 'jsonl', 'xml']));
    if (!rng.int(4)) args.push('--stats', pick(['stats.json', 'nodir/s.json', 'out.jsonl', 'news.jsonl']));
    if (!rng.int(5)) args.push('--segment', pick(['5', '0', '2.5']));
    if (!rng.int(6)) args.push('--threshold', pick(['0', '-0.5', 'nan']));
    if (!rng.int(6)) args.push('--workers', pick(['1', '2', '0']));
    if (!rng.int(8)) args.push('--run-dir', pick(['run', 'news.jsonl']));
  }
  if (command === 'split' && rng.int(2)) args.push('--out-format', pick(['lines', 'jsonl', 'csv']));
  if (!rng.int(6)) args.push(pick(['--modle', '--kep', '--doc-per-line', '--strict', '-q']));
  const format = command === 'filter' ? (args.includes('text') ? 'text' : args.includes('jsonl') ? 'jsonl' : undefined) : undefined;
  return { args, reads, ...(output ? { output: join(ws, output) } : {}), ...(format ? { format } : {}) };
}

describe.skipIf(!shared)('fuzzed command lines (needs ../shared)', () => {
  const cases = Array.from({ length: CASES }, (_, i) => i);
  it.each(cases)(`seed ${SEED}, case %i: never exits 0 with invalid output, never changes an input, never leaves a temp file`, async (i) => {
    const ws = join(dir, `case-${i}`);
    mkdirSync(join(ws, 'in'), { recursive: true });
    // A few documents each: what is checked is the exit, the files and the output's form, not the selection.
    writeFileSync(join(ws, 'news.jsonl'), newsJsonl(12_000));
    writeFileSync(join(ws, 'wiki.txt'), wikiText(12_000));
    writeFileSync(join(ws, 'in', 'a.jsonl'), newsJsonl(6_000));
    const inputs = ['news.jsonl', 'wiki.txt', 'in/a.jsonl'];
    const before = new Map(inputs.map((f) => [f, fileDigest(join(ws, f))]));
    const { args, output, format, reads } = draw(new Rng(SEED + i), ws);
    // The command's answer, in this process (a spawn per case would cost more than the case):
    // the workspace's names made absolute, as the commands resolve paths against the process's folder.
    const r = await runMain(args.map((a) => (WORKSPACE_NAMES.has(a) ? join(ws, a) : a)));
    const what = `tadpole ${args.join(' ')}\n${r.stderr}`;
    expect([0, 2, 3, 4, 5], what).toContain(r.code);
    expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
    // What the command read must be as it was; a fixture it only named as an output may be replaced.
    const named = new Set(args.filter((_, k) => ['-o', '--stats'].includes(args[k - 1] ?? '')));
    for (const f of inputs) if (reads.includes(f) || !named.has(f)) expect(fileDigest(join(ws, f)), `${f} changed: ${what}`).toBe(before.get(f));
    expect(listFiles(ws).filter((f) => /\.tmp-|\.partial$/.test(f)), what).toEqual([]);
    if (r.code !== 0 || !output || inputs.includes(output.slice(ws.length + 1))) return;
    // Exit 0 with -o: the output exists, and JSONL output is JSONL line by line.
    const body = output.endsWith('.gz') ? undefined : readFileSync(output, 'utf8');
    const jsonl = format === 'jsonl' || (format === undefined && /\.jsonl$/.test(output) && args[0] === 'filter');
    if (body !== undefined && jsonl) {
      for (const line of body.split('\n').filter(Boolean)) expect(() => JSON.parse(line), what).not.toThrow();
    }
  });
});

const MODEL_CASES = 48;
const MODEL_CLI_CASES = 4;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * A model file's bytes, drawn from the seed: cut short, one to three bytes changed anywhere, or
 * one base64 character of a stored array swapped for another (still valid JSON and base64: only
 * the checksum can tell).
 */
function damageModel(rng: Rng, bytes: Buffer): { bytes: Buffer; what: string } {
  const kind = rng.int(3);
  if (kind === 2) {
    const arrays = [...bytes.toString('latin1').matchAll(/"([A-Za-z0-9+/]{64,})/g)];
    const m = arrays[rng.int(arrays.length)]!;
    const i = m.index + 1 + rng.int(m[1]!.length - 4);
    const out = Buffer.from(bytes);
    out[i] = B64.charCodeAt((B64.indexOf(String.fromCharCode(out[i]!)) + 1 + rng.int(63)) % 64);
    return { bytes: out, what: `base64 character changed at ${i}` };
  }
  if (kind === 0) {
    const at = rng.int(bytes.length);
    return { bytes: bytes.subarray(0, at), what: `cut to ${at} of ${bytes.length} bytes` };
  }
  const out = Buffer.from(bytes);
  const at: number[] = [];
  for (let k = 1 + rng.int(3); k > 0; k--) {
    const i = rng.int(out.length);
    out[i] = out[i]! ^ (1 + rng.int(255));
    at.push(i);
  }
  return { bytes: out, what: `bytes changed at ${at.join(', ')}` };
}

/** The scores a model file gives these sentences, loaded as every command loads it. */
async function scoresOf(path: string, sentences: string[]): Promise<Float64Array> {
  const scorer = await openScorer(readModel(path));
  try {
    return await scorer.score(sentences);
  } finally {
    await scorer.dispose();
  }
}

describe.skipIf(!shared)('fuzzed model files (needs ../shared)', () => {
  let intact: Buffer;
  let sentences: string[];
  let expected: Float64Array;
  /** What filter keeps of the news text with the intact model: the same for every CLI case. */
  let want: Buffer;
  beforeAll(async () => {
    intact = readFileSync(model);
    sentences = newsJsonl(12_000).toString('utf8').split('\n').filter(Boolean).flatMap((l) => String((JSON.parse(l) as { text: string }).text).split(/(?<=[.!?])\s+/));
    expected = await scoresOf(model, sentences);
    const ws = join(dir, 'model-cli-intact');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'news.jsonl'), newsJsonl(12_000));
    const intactRun = cli(['filter', '-q', '-m', model, 'news.jsonl'], { cwd: ws });
    expect(intactRun.code).toBe(0);
    want = intactRun.stdout;
  });

  it.each(Array.from({ length: MODEL_CASES }, (_, i) => i))(`seed ${SEED}, model case %i: refused as damaged (exit 4, one printable line) or the intact model's scores`, async (i) => {
    const { bytes, what } = damageModel(new Rng(SEED * 31 + i), intact);
    const path = join(dir, `fuzzed-model-${i}.json`);
    writeFileSync(path, bytes);
    let scores: Float64Array | undefined;
    try {
      scores = await scoresOf(path, sentences);
    } catch (err) {
      expect(err, `${what}: ${String(err)}`).toBeInstanceOf(TadpoleError);
      expect((err as TadpoleError).exitCode, `${what}: ${(err as Error).message}`).toBe(4);
      expect((err as Error).message, what).toMatch(/^[^\u0000-\u001f\u007f-\u009f]*$/);
    }
    if (scores) expect([...scores], `${what} loaded, so it must score as the intact model`).toEqual([...expected]);
  });

  it.each(Array.from({ length: MODEL_CLI_CASES }, (_, i) => i))(`seed ${SEED}, model case %i through filter: exit 4 with one line, or exit 0 with the intact model's selection`, (i) => {
    const ws = join(dir, `model-cli-${i}`);
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'news.jsonl'), newsJsonl(12_000));
    const { bytes, what } = damageModel(new Rng(SEED * 37 + i), intact);
    writeFileSync(join(ws, 'model.json'), bytes);
    const r = cli(['filter', '-q', '-m', 'model.json', 'news.jsonl', '-o', 'kept.jsonl'], { cwd: ws });
    expect([0, 4], `${what}\n${r.stderr}`).toContain(r.code);
    if (r.code === 0) expect(readFileSync(join(ws, 'kept.jsonl')).equals(want), what).toBe(true);
    else expect(r.stderr, what).toMatch(/^tadpole filter: error: [^\u0000-\u001f\u007f-\u009f]*\n$/);
    expect(listFiles(ws).filter((f) => /\.tmp-|\.partial$|kept\.jsonl$/.test(f) && r.code !== 0), what).toEqual([]);
  });
});
