/**
 * A user's mistakes, one row each, as test/hostile does for hostile input: every row checks
 * the exit code, the message, that no input changed and that nothing stray was left beside
 * the outputs (temp files, half-written output).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDigest, listFiles } from '../helpers/files.js';
import { sharedDir, sharedPath } from '../../src/core/shared.js';
import { runMain } from '../helpers/cli.js';
import { cliAsync, fitModel, newsJsonl, sleep, tempDir } from '../run/helpers.js';

const shared = sharedDir();
let dir: string;
let model: string;
let corpus: string;



/** A fresh folder with the corpus in it; returns a checker that the corpus is untouched and only `made` appeared. */
function workspace(name: string, content?: Buffer): { ws: string; input: string; unchanged: (made?: string[]) => void } {
  const ws = join(dir, name);
  mkdirSync(ws);
  const input = join(ws, 'corpus.jsonl');
  if (content) writeFileSync(input, content);
  else copyFileSync(corpus, input);
  const before = fileDigest(input);
  const files = listFiles(ws);
  return {
    ws,
    input,
    unchanged: (made = []) => {
      expect(fileDigest(input)).toBe(before);
      expect(listFiles(ws)).toEqual([...files, ...made].sort());
    },
  };
}

function allJson(text: string): boolean {
  return text.split('\n').filter(Boolean).every((line) => {
    try {
      return typeof JSON.parse(line) === 'object';
    } catch {
      return false;
    }
  });
}

beforeAll(() => {
  if (!shared) return;
  dir = tempDir('tadpole-mistakes-');
  model = fitModel(dir);
  corpus = join(dir, 'news.jsonl');
  writeFileSync(corpus, newsJsonl(150_000));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!shared)('user mistakes (needs ../shared)', () => {
  it('1. -o naming the input (as given, through ./.., through a link): exit 2, input untouched, nothing written', async () => {
    const { ws, input, unchanged } = workspace('same');
    symlinkSync(input, join(ws, 'link.jsonl'));
    for (const [inp, out] of [
      [input, input],
      [input, join(ws, '..', 'same', 'corpus.jsonl')],
      [join(ws, 'link.jsonl'), input],
      [input, join(ws, 'link.jsonl')],
    ] as const) {
      const r = await runMain(['filter', '-m', model, inp, '-o', out], { cwd: ws });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/is an input: tadpole never writes over what it reads/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const m = await runMain(['filter', '-m', model, input, '-o', model]);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/is the --model input/);
    const s = await runMain(['filter', '-m', model, input, '-o', join(ws, 'k.jsonl'), '--stats', join(ws, 'k.jsonl')]);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/name the same file/);
    const f = await runMain(['fit', '--task', input, '-o', input]);
    expect(f.code).toBe(2);
    unchanged(['link.jsonl']);
  });

  it('2. a folder mixing JSONL and plain text: -o out.jsonl is valid JSONL, plain runs name their file and line', async () => {
    const { ws, unchanged } = workspace('mixed');
    const folder = join(ws, 'in');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.jsonl'), newsJsonl(60_000));
    const book = JSON.parse(gunzipSync(readFileSync(sharedPath('corpora', 'fiction-gutenberg', 'docs.jsonl.gz'))).toString('utf8').split('\n')[0]!) as { text: string };
    writeFileSync(join(folder, 'b.txt'), book.text.slice(0, 60_000));
    const out = join(ws, 'out.jsonl');
    const r = await runMain(['filter', '-m', model, folder, '--keep', '0.5', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(allJson(text)).toBe(true);
    const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tadpole: { file?: string; line?: number } });
    expect(records.some((rec) => rec.tadpole.file?.endsWith('b.txt') && typeof rec.tadpole.line === 'number')).toBe(true);
    expect(records.some((rec) => rec.tadpole.file === undefined)).toBe(true);
    // To stdout (no name to go by) the mixed folder is JSONL too.
    const piped = await runMain(['filter', '-q', '-m', model, folder, '--keep', '0.5']);
    expect(piped.stdout.toString()).toBe(text);
    unchanged(['in/a.jsonl', 'in/b.txt', 'out.jsonl']);
  });

  it.each([['1.5'], ['20'], ['-0.1']])('3. --keep %s: exit 2 before anything is made', async (keep) => {
    const { ws, input, unchanged } = workspace(`keep-${keep}`);
    const r = await runMain(['filter', '-m', model, input, '--keep', keep, '-o', join(ws, 'k.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--keep must be between 0 and 1/);
    unchanged();
  });

  it('4-5. --stats or -o in a folder that does not exist: exit 5 before the work, the path as the user gave it', async () => {
    const { ws, input, unchanged } = workspace('nodir');
    for (const args of [
      ['--stats', 'nodir/s.json', '-o', 'k.jsonl'],
      ['-o', 'nodir/k.jsonl'],
      ['-o', 'k.jsonl', '--run-dir', 'corpus.jsonl/run'],
    ]) {
      const r = await runMain(['filter', '-m', model, input, ...args], { cwd: ws });
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(/cannot (write|create)/);
      // In this process a stack trace would name src/ .ts files, from the binary dist/ .js ones.
      expect(r.stderr).not.toMatch(/tmp-|at .*\.[jt]s\b/);
      expect(r.stderr).not.toMatch(/kept \d/); // refused before the scoring pass, not after it
    }
    unchanged();
  });

  it('7. a mistyped flag or command: exit 2 and "did you mean"', async () => {
    const flag = await runMain(['filter', '--modle', model]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/unknown option --modle .*did you mean --model\?/);
    expect(flag.stderr.length).toBeLessThan(200);
    const cmd = await runMain(['fliter']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/did you mean "filter"\?/);
    const far = await runMain(['filter', '--zzzzzz']);
    expect(far.stderr).not.toMatch(/did you mean/);
    // A flag that extends a known one by a word names that one (--keep-share: --keep, not --keep-by too).
    const share = await runMain(['filter', '-m', model, '--keep-share', '0.2', corpus]);
    expect(share.code).toBe(2);
    expect(share.stderr).toMatch(/unknown option --keep-share .*did you mean --keep\?/);
  });

  it('8. a task of one item per line without stops: a --doc-per-line hint', async () => {
    const { ws } = workspace('lines');
    // AG News titles, lower-cased as many title datasets ship: one per line, no final stops.
    const csv = gunzipSync(readFileSync(sharedPath('corpora', 'task-ag-news', 'test.csv.gz'))).toString('utf8');
    const titles = csv.split('\n').slice(1, 301).map((l) => /^\d,("(?:[^"]|"")*"|[^,]*),/.exec(l)?.[1]?.replace(/^"|"$/g, '').replace(/""/g, '"').toLowerCase()).filter(Boolean).join('\n');
    writeFileSync(join(ws, 'titles.txt'), titles + '\n');
    const r = await runMain(['fit', '--task', join(ws, 'titles.txt'), '-o', join(ws, 'm.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/add --doc-per-line/);
    const ok = await runMain(['fit', '--task', join(ws, 'titles.txt'), '--doc-per-line', '-o', join(ws, 'm.json')]);
    expect(ok.stderr).not.toMatch(/--doc-per-line/);
    // Whatever the file's length: three titles merged into one sentence get the hint too, in English.
    writeFileSync(join(ws, 'three.txt'), 'Injured Heskey to miss England friendly\nStocks rally as Fed holds rates\nNew vaccine shows promise in trials\n');
    const three = await runMain(['fit', '--task', join(ws, 'three.txt'), '-o', join(ws, 'm3.json')]);
    expect(three.code, three.stderr).toBe(0);
    expect(three.stderr).toMatch(/the task's 3 lines were read as 1 sentence: .*add --doc-per-line/);
    expect(three.stderr).toMatch(/the task has only 1 sentence \(under 50\)/);
    const apart = await runMain(['fit', '--task', join(ws, 'three.txt'), '--doc-per-line', '-o', join(ws, 'm3.json')]);
    expect(apart.stderr).not.toMatch(/--doc-per-line/);
    expect(apart.stderr).toMatch(/the task has only 3 sentences \(under 50\)/);
  });

  it('9. a default filter completing a task-only model: at most six stderr lines; -v for the fit\'s steps', async () => {
    const { ws, input } = workspace('quiet');
    const m = join(ws, 'm.json');
    expect((await runMain(['fit', '--task', join(dir, 'task.jsonl'), '--general-sample', '2000', '-o', m])).code).toBe(0);
    const plain = await runMain(['filter', '-m', m, input, '-o', join(ws, 'k.jsonl')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr.trim().split('\n').length, plain.stderr).toBeLessThanOrEqual(6);
    expect(plain.stderr).toMatch(/completing contrast from the corpus/);
    expect(plain.stderr).not.toMatch(/self-training round/);
    // The completed model's measure in words; no scorer's internal name nor JSON without -v.
    expect(plain.stderr).toMatch(/the completed model tells \d+ held-out task sentences from \d+ corpus sentences with AUROC \d\.\d{3}/);
    expect(plain.stderr).not.toMatch(/classifier:|dsir:|[{}]/);
    const loud = await runMain(['filter', '-m', m, input, '-o', join(ws, 'k2.jsonl'), '-v']);
    expect(loud.stderr).toMatch(/self-training round 1/);
    expect(readFileSync(join(ws, 'k2.jsonl')).equals(readFileSync(join(ws, 'k.jsonl')))).toBe(true);
    // 10. --keep 0 with a model completed from the corpus: a warning and an empty output, not a refusal after the sample.
    const zero = await runMain(['filter', '-m', m, input, '--keep', '0', '-o', join(ws, 'k0.jsonl')]);
    expect(zero.code, zero.stderr).toBe(0);
    expect(zero.stderr).toMatch(/warning: --keep 0 keeps nothing/);
    expect(readFileSync(join(ws, 'k0.jsonl'), 'utf8')).toBe('');
  });

  it('9. help is wrapped to 100 columns off a terminal, for every command', async () => {
    for (const c of ['fit', 'filter', 'score', 'split', 'inspect', 'rank', 'eval', 'model', 'cut', 'emit', 'runs', 'demo']) {
      const r = await runMain([c, '--help']);
      expect(r.code).toBe(0);
      const long = r.stdout.toString().split('\n').filter((l) => l.length > 100 && !l.startsWith('  '));
      expect(long, c).toEqual([]);
    }
    const top = (await runMain(['--help'])).stdout.toString();
    expect(Math.max(...top.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
    expect((await runMain(['filter', '--help'])).stdout.toString()).toMatch(/^Selection:$[\s\S]*^Input:$[\s\S]*^Output:$[\s\S]*^Runs:$/m);
  });

  it('10. --keep 0 and a keep far from the fitted one: warned, still exit 0', async () => {
    const { ws, input } = workspace('keep0');
    const zero = await runMain(['filter', '-m', model, input, '--keep', '0', '-o', join(ws, 'k.jsonl')]);
    expect(zero.code).toBe(0);
    expect(zero.stderr).toMatch(/warning: --keep 0 keeps nothing/);
    const m = join(ws, 'm.json');
    const task = join(dir, 'task.jsonl');
    expect((await runMain(['fit', '--task', task, '--general', input, '--keep', '0.1', '-o', m])).code).toBe(0);
    const far = await runMain(['filter', '-m', m, input, '--keep', '0.3', '-o', join(ws, 'k2.jsonl')]);
    expect(far.code).toBe(0);
    expect(far.stderr).toMatch(/sized for keeping 10% .* this filter keeps 30%/);
    const near = await runMain(['filter', '-m', m, input, '--keep', '0.15', '-o', join(ws, 'k3.jsonl')]);
    expect(near.stderr).not.toMatch(/sized for keeping/);
  });

  it('12. --out-format: JSONL in, plain text out, and the -o name decides when no flag does', async () => {
    const { ws, input } = workspace('outfmt');
    const text = (await runMain(['filter', '-q', '-m', model, input, '--keep', '0.5', '--out-format', 'text'])).stdout.toString();
    expect(text.length).toBeGreaterThan(0);
    expect(text.split('\n').filter(Boolean).some((l) => l.startsWith('{'))).toBe(false);
    expect((await runMain(['filter', '-q', '-m', model, input, '--keep', '0.5', '-o', join(ws, 'k.txt')])).code).toBe(0);
    expect(readFileSync(join(ws, 'k.txt'), 'utf8')).toBe(text);
    const jsonl = (await runMain(['filter', '-q', '-m', model, input, '--keep', '0.5'])).stdout.toString();
    expect(allJson(jsonl)).toBe(true);
    expect((await runMain(['filter', '-m', model, input, '--weights', '--out-format', 'text'])).code).toBe(2);
  });
});

describe.skipIf(!shared)('signals while a task-only model is completed (needs ../shared)', () => {
  let fitted: string | undefined;
  async function taskOnlyModel(): Promise<string> {
    if (fitted) return fitted;
    const m = join(dir, 'task-only.json');
    const fit = await runMain(['fit', '--task', join(dir, 'task.jsonl'), '-o', m]);
    expect(fit.code, fit.stderr).toBe(0);
    return (fitted = m);
  }
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('6. %s during the completion: exit %d within a second, no output, no temp file', async (sig, code) => {
    const { ws, input, unchanged } = workspace(`completion-${sig}`, newsJsonl(3_000_000));
    // The task-only model (the same for both signals: fitted once, copied in).
    const task = join(ws, 'task.jsonl');
    copyFileSync(join(dir, 'task.jsonl'), task);
    const m = join(ws, 'm.json');
    copyFileSync(await taskOnlyModel(), m);
    const before = listFiles(ws);
    const { child, done } = cliAsync(['filter', '-m', m, input, '-o', join(ws, 'kept.jsonl'), '-v']);
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    // The sample is drawn; the fit (seconds of self-training) is under way.
    for (let t = Date.now(); !/completing/.test(stderr) && Date.now() - t < 60_000; ) await sleep(10);
    expect(stderr).toMatch(/completing/);
    const t0 = Date.now();
    child.kill(sig);
    const r = await done;
    const ms = Date.now() - t0;
    if (r.code === 0) return; // the whole run beat the signal (a very fast machine): nothing to check
    expect(r.code).toBe(code);
    expect(ms).toBeLessThan(1_500); // within a second, plus process start-up noise on a busy machine
    expect(r.stderr).toMatch(/interrupted/);
    expect(existsSync(join(ws, 'kept.jsonl'))).toBe(false);
    expect(listFiles(ws)).toEqual(before);
    unchanged(['task.jsonl', 'm.json']);
  });
});
