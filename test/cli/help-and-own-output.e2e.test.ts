/**
 * What a user who slips meets: `tadpole help CMD` is `tadpole CMD --help`; an unknown flag
 * suggests the flag meant (--model-file: --model, not --model-dir); an input that is
 * tadpole's own output (an earlier run's -o, its flag forgotten) gets one warning.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { runCli, runMain } from '../helpers/cli.js';

const COMMANDS = ['fit', 'filter', 'score', 'split', 'inspect', 'rank', 'eval', 'model', 'cut', 'emit', 'runs', 'demo'];

describe('tadpole help CMD', () => {
  it.each(COMMANDS)('help %s prints exactly what %s --help prints', async (cmd) => {
    const help = await runMain(['help', cmd]);
    const flag = await runMain([cmd, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.toString()).toBe(flag.stdout.toString());
    expect(help.stdout.toString()).toMatch(new RegExp(`^tadpole ${cmd}: `));
  });

  it('help with a subcommand or options passes them on: help model pull, help fit --method dsir', async () => {
    expect((await runMain(['help', 'model', 'pull'])).stdout.toString()).toBe((await runMain(['model', 'pull', '--help'])).stdout.toString());
    const method = await runMain(['help', 'fit', '--method', 'dsir']);
    expect(method.stdout.toString()).toBe((await runMain(['fit', '--method', 'dsir', '--help'])).stdout.toString());
    expect(method.stdout.toString()).not.toBe((await runMain(['fit', '--help'])).stdout.toString());
  });

  it('help alone is the top-level help; help of an unknown command is a usage error with a suggestion', async () => {
    const top = await runMain(['help']);
    expect(top.code).toBe(0);
    expect(top.stdout.toString()).toMatch(/^tadpole: keep the slice/);
    const wrong = await runMain(['help', 'fliter']);
    expect(wrong.code).toBe(2);
    expect(wrong.stdout.toString()).toBe('');
    expect(wrong.stderr).toMatch(/^tadpole: unknown command "fliter"; did you mean "filter"\?[^\n]*\n$/);
  });
});

describe('an unknown flag: the flag the user meant', () => {
  const CASES: Array<[string[], string, string?]> = [
    [['filter', '--model-file', 'm.json'], '--model', '--model-dir'],
    [['score', '--modle', 'm.json'], '--model'],
    [['filter', '--output-format', 'text'], '--out-format'],
    [['fit', '--sample-general', '100'], '--general-sample'],
    [['fit', '--task-file', 't.txt'], '--task'],
    [['inspect', '--group', '3'], '--groups'],
    [['model', 'pull', 'x/y', '--onnx', 'a.onnx'], '--onnx-file'],
  ];
  it.each(CASES)('%j suggests %s', async (args, meant, not) => {
    const r = await runMain(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`did you mean ${meant}?`);
    if (not) expect(r.stderr).not.toContain(not);
  });
});

describe('an input that is tadpole\'s own output', () => {
  let dir: string;
  let model: string;
  let corpus: string;
  let kept: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tadpole-own-output-'));
    const task = join(dir, 'task.txt');
    writeFileSync(task, builtinTaskSentences(150).join('\n') + '\n');
    corpus = join(dir, 'corpus.jsonl');
    writeFileSync(corpus, builtinMix(20).map((d) => JSON.stringify(d)).join('\n') + '\n');
    model = join(dir, 'model.json');
    const fit = await runCli(['fit', '-q', '--task', task, '--doc-per-line', '--general', corpus, '-o', model]);
    expect(fit.code, fit.stderr).toBe(0);
    kept = join(dir, 'kept.jsonl');
    const first = await runCli(['filter', '-q', '-m', model, corpus, '-o', kept]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('-o forgotten before an earlier output (plain and gzip): one warning naming it, under -q too', async () => {
    const gz = join(dir, 'kept.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(kept)));
    for (const earlier of [kept, gz]) {
      const r = await runCli(['filter', '-q', '-m', model, corpus, earlier]);
      expect(r.code, r.stderr).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => l.includes('own output'));
      expect(warnings).toEqual([`tadpole: warning: ${earlier} looks like tadpole's own output (its records have a "tadpole" field): did you forget -o before it?`]);
    }
  });

  it('a corpus of plain records gets no such warning', async () => {
    const r = await runCli(['filter', '-q', '-m', model, corpus, '-o', join(dir, 'again.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('own output');
  });
});
