/**
 * Progress for every long phase when stderr is a terminal: a pseudo-terminal from script(1)
 * (util-linux) stands for one. Off a terminal, none of it is written.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runMain, tempDir } from '../helpers/cli.js';

const tmp = tempDir();
const f = (name: string) => join(tmp.dir, name);
afterAll(() => tmp.cleanup());

const hasScript = spawnSync('script', ['--version']).status === 0;

/** The command under a pseudo-terminal: what it wrote there, stdout and stderr together. */
function onTerminal(args: string[]): { code: number | null; screen: string } {
  const line = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const r = spawnSync('script', ['-qec', line, '/dev/null'], { encoding: 'utf8', cwd: tmp.dir });
  return { code: r.status, screen: r.stdout };
}

/** Every line drawn, in order: each \r redraws the line, each \n ends one. */
const drawn = (screen: string) => screen.split(/\r\x1b\[K|\r?\n|\r/).map((l) => l.trim()).filter(Boolean);

describe.skipIf(!hasScript)('progress on a terminal (built-in corpus)', () => {
  // Both tests read these.
  beforeAll(() => {
    copyFileSync(join(ROOT, 'corpora', 'builtin', 'task-bio.txt.gz'), f('task.txt.gz'));
    copyFileSync(join(ROOT, 'corpora', 'builtin', 'mix.jsonl.gz'), f('mix.jsonl.gz'));
  });

  it('filter of a task-only model: the sampling, the completion fit with its rounds, the score, the cut and the write', async () => {
    expect((await runMain(['fit', '-q', '--task', f('task.txt.gz'), '--general-sample', '3000', '-o', f('m.json')])).code).toBe(0);
    const run = onTerminal(['filter', '-m', f('m.json'), f('mix.jsonl.gz'), '-o', f('kept.jsonl')]);
    expect(run.code, run.screen).toBe(0);
    const lines = drawn(run.screen);
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const phases = [/^complete: sample the corpus: reading$/, /^complete: fit: 3,000 corpus sentences against [\d,]+ task sentences, \d+s$/, /^complete: fit: self-training round 4 done, \d+s$/, /^score: [\d,]+ docs, [\d.]+ MB, [\d.]+ MB\/s/, /^cut: the exact boundary among [\d,]+ segments, keeping 20\.0% of the bytes$/, /^write: [\d,]+ docs/];
    const order = phases.map(at);
    expect(order.every((i) => i >= 0), lines.join('\n')).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The summary comes after the last progress line, on a line of its own.
    expect(lines.at(-1)).toMatch(/^tadpole: kept \d+\/\d+ segments, (19|20)\.\d\d% of the bytes/);
    // Off a terminal: none of it, the same output.
    const piped = await runMain(['filter', '-m', f('m.json'), f('mix.jsonl.gz'), '-o', f('kept2.jsonl')]);
    expect(piped.stderr).not.toMatch(/\r|complete: fit|score: |cut: /);
    expect(readFileSync(f('kept2.jsonl')).equals(readFileSync(f('kept.jsonl')))).toBe(true);
  });

  it('fit against a general sample: the sample and the fit', () => {
    const run = onTerminal(['fit', '--task', f('task.txt.gz'), '--general', f('mix.jsonl.gz'), '--general-sample', '3000', '-o', f('g.json')]);
    expect(run.code, run.screen).toBe(0);
    const lines = drawn(run.screen);
    expect(lines).toContain('fit: sample --general: reading');
    expect(lines.some((l) => /^fit: self-training round 4 done, \d+s$/.test(l)), lines.join('\n')).toBe(true);
    expect(lines.some((l) => /^tadpole: fitted contrast on \d+ task sentences/.test(l))).toBe(true);
  });
});
