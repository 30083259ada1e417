/**
 * Seeded random flag and input combinations for filter, score and split, right and wrong:
 * whatever the combination, an exit 0 leaves valid output, no input ever changes, and no
 * temporary file is ever left. The seed is printed in the test name: a failure reproduces.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { Rng } from '../../src/core/rng.js';
import { cli, fitModel, newsJsonl, tempDir, wikiText } from '../shard/helpers.js';

const shared = sharedDir();
const SEED = 20261126;
const CASES = 24;
let dir: string;
let model: string;

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else out.push(`${rel}${e.name}`);
    }
  };
  walk(root, '');
  return out.sort();
}

beforeAll(() => {
  if (!shared) return;
  dir = tempDir('tadpole-fuzz-');
  model = fitModel(dir);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

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
  it.each(cases)(`seed ${SEED}, case %i: never exits 0 with invalid output, never changes an input, never leaves a temp file`, (i) => {
    const ws = join(dir, `case-${i}`);
    mkdirSync(join(ws, 'in'), { recursive: true });
    writeFileSync(join(ws, 'news.jsonl'), newsJsonl(40_000));
    writeFileSync(join(ws, 'wiki.txt'), wikiText(40_000));
    writeFileSync(join(ws, 'in', 'a.jsonl'), newsJsonl(20_000));
    const inputs = ['news.jsonl', 'wiki.txt', 'in/a.jsonl'];
    const before = new Map(inputs.map((f) => [f, digest(join(ws, f))]));
    const { args, output, format, reads } = draw(new Rng(SEED + i), ws);
    const r = cli(args, { cwd: ws });
    const what = `tadpole ${args.join(' ')}\n${r.stderr}`;
    expect([0, 2, 3, 4, 5], what).toContain(r.code);
    expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
    // What the command read must be as it was; a fixture it only named as an output may be replaced.
    const named = new Set(args.filter((_, k) => ['-o', '--stats'].includes(args[k - 1] ?? '')));
    for (const f of inputs) if (reads.includes(f) || !named.has(f)) expect(digest(join(ws, f)), `${f} changed: ${what}`).toBe(before.get(f));
    expect(files(ws).filter((f) => /\.tmp-|\.partial$/.test(f)), what).toEqual([]);
    if (r.code !== 0 || !output || inputs.includes(output.slice(ws.length + 1))) return;
    // Exit 0 with -o: the output exists, and JSONL output is JSONL line by line.
    const body = output.endsWith('.gz') ? undefined : readFileSync(output, 'utf8');
    const jsonl = format === 'jsonl' || (format === undefined && /\.jsonl$/.test(output) && args[0] === 'filter');
    if (body !== undefined && jsonl) {
      for (const line of body.split('\n').filter(Boolean)) expect(() => JSON.parse(line), what).not.toThrow();
    }
  });
});
