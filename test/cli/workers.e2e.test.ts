import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { runMain, tempDir } from '../helpers/cli.js';
import { BYTES_PER_DEFAULT_THREAD } from '../../src/threads/pool.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const tmp = tempDir('tadpole-workers-');
const f = (name: string) => join(tmp.dir, name);

beforeAll(async () => {
  // Small on purpose: every run here is compared byte for byte with another, so each run's size
  // multiplies; --batch-sentences 64 still cuts this mix into many batches and ranges.
  writeFileSync(f('task.jsonl'), builtinTaskSentences(400).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
  const mix = builtinMix(20).map((d) => JSON.stringify(d));
  // Code units the UTF-8 round trip would change (a lone surrogate from a JSON escape) and
  // non-Latin text: the workers must see exactly the strings the main thread holds.
  mix.splice(7, 0, '{"text": "A lone \\ud800 surrogate sits here. Then a second sentence follows it.", "source": "odd"}');
  mix.splice(20, 0, JSON.stringify({ text: 'Ünïcödé text — with “quotes”. 日本語の文です。 And 🎉 emoji end it.', source: 'odd' }));
  writeFileSync(f('mix.jsonl'), mix.join('\n') + '\n');
  for (const [name, extra] of [['default', []], ['random', ['--method', 'random']]] as const) {
    // A sample of 400 sentences: a fit of a fraction of the time; what is compared is bytes, not selections.
    const fit = await runMain(['fit', '--task', f('task.jsonl'), '--general', f('mix.jsonl'), '--general-sample', '400', ...extra, '-o', f(`${name}.json`)]);
    expect(fit.code, fit.stderr).toBe(0);
  }
});
afterAll(() => tmp.cleanup());

/** Stats without the timings, which differ run to run, and the thread count, checked against `threads` when given. */
function countsOf(path: string, threads?: number): unknown {
  const s = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  if (threads !== undefined) expect(s.threads).toBe(threads);
  delete s.seconds;
  delete s.threads;
  return s;
}

describe('--workers N: the same bytes for every N', () => {
  for (const method of ['default', 'random']) {
    it(`filter (${method}): --workers 1, 2 and 3 write identical output and counts, over many small batches`, async () => {
      const outs: Buffer[] = [];
      const stats: unknown[] = [];
      for (const w of ['1', '2', '3']) {
        const r = await runMain(['filter', '-m', f(`${method}.json`), f('mix.jsonl'), '--workers', w, '--batch-sentences', '64', '-o', f(`out-${w}.jsonl`), '--stats', f(`stats-${w}.json`), '-q']);
        expect(r.code, r.stderr).toBe(0);
        outs.push(readFileSync(f(`out-${w}.jsonl`)));
        stats.push(countsOf(f(`stats-${w}.json`), Number(w)));
      }
      expect(outs[0]!.length).toBeGreaterThan(1000);
      expect(outs[1]!.equals(outs[0]!)).toBe(true);
      expect(outs[2]!.equals(outs[0]!)).toBe(true);
      expect(stats[1]).toEqual(stats[0]);
      expect(stats[2]).toEqual(stats[0]);
    });
  }

  it('without --workers a small input runs one thread, and --stats says so', async () => {
    const r = await runMain(['filter', '-m', f('default.json'), f('mix.jsonl'), '-o', f('out-default-threads.jsonl'), '--stats', f('stats-default-threads.json'), '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(f('mix.jsonl')).size).toBeLessThan(2 * BYTES_PER_DEFAULT_THREAD);
    expect(countsOf(f('stats-default-threads.json'), 1)).toBeDefined();
    const one = await runMain(['filter', '-m', f('default.json'), f('mix.jsonl'), '--workers', '1', '-o', f('out-one-thread.jsonl'), '-q']);
    expect(one.code, one.stderr).toBe(0);
    expect(readFileSync(f('out-default-threads.jsonl')).equals(readFileSync(f('out-one-thread.jsonl')))).toBe(true);
  });

  it('--threshold, --weights, stdin and score give the same bytes with 1 and 2 workers', async () => {
    const cut = await runMain(['filter', '-m', f('default.json'), f('mix.jsonl'), '--workers', '1', '-o', f('cut.jsonl'), '--stats', f('cut-stats.json'), '-q']);
    expect(cut.code, cut.stderr).toBe(0);
    const stats = JSON.parse(readFileSync(f('cut-stats.json'), 'utf8')) as { threshold: number };
    const runs: Array<[string, string[], string | undefined]> = [
      ['threshold', ['filter', '-m', f('default.json'), '--threshold', String(stats.threshold), f('mix.jsonl')], undefined],
      ['weights', ['filter', '-m', f('default.json'), '--weights', f('mix.jsonl')], undefined],
      ['stdin', ['filter', '-m', f('default.json'), '--format', 'jsonl', '-'], readFileSync(f('mix.jsonl'), 'utf8')],
      ['score', ['score', '-m', f('default.json'), f('mix.jsonl')], undefined],
      ['score-segments', ['score', '-m', f('random.json'), '--segments', f('mix.jsonl')], undefined],
    ];
    for (const [name, args, input] of runs) {
      const one = await runMain([...args, '--workers', '1', '--batch-sentences', '100', '-q'], input !== undefined ? { input } : {});
      const two = await runMain([...args, '--workers', '2', '--batch-sentences', '100', '-q'], input !== undefined ? { input } : {});
      expect(one.code, `${name}: ${one.stderr}`).toBe(0);
      expect(two.code, `${name}: ${two.stderr}`).toBe(0);
      expect(one.stdout.length, name).toBeGreaterThan(100);
      expect(two.stdout.equals(one.stdout), `${name} differs between 1 and 2 workers`).toBe(true);
    }
  });

  it('a process-wide V8 flag on node (refused in a worker) still runs the pool, with the same bytes', async () => {
    const args = ['filter', '-m', f('default.json'), f('mix.jsonl'), '--batch-sentences', '100', '-q'];
    // The bytes of one thread, in this process; the flag needs a process of its own.
    const plain = await runMain([...args, '--workers', '1']);
    expect(plain.code, plain.stderr).toBe(0);
    const flagged = spawnSync(process.execPath, ['--max-semi-space-size=16', 'bin/tadpole.js', ...args, '--workers', '2'], { cwd: ROOT });
    expect(flagged.status, flagged.stderr.toString()).toBe(0);
    expect(plain.stdout.length).toBeGreaterThan(100);
    expect(flagged.stdout.equals(plain.stdout)).toBe(true);
  });

  it('fit --workers 2 splits a gzip --general on two threads and writes the --workers 1 model', async () => {
    writeFileSync(f('mix.jsonl.gz'), gzipSync(readFileSync(f('mix.jsonl'))));
    const models: string[] = [];
    for (const w of ['1', '2']) {
      const r = await runMain(['fit', '--task', f('task.jsonl'), '--general', f('mix.jsonl.gz'), '--general-sample', '400', '--workers', w, '-o', f(`fit-${w}.json`)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/general sample: \d+ sentences \(one pass/);
      models.push(readFileSync(f(`fit-${w}.json`), 'utf8'));
    }
    expect(models[1]).toBe(models[0]);
  });

  it('a model fitted on the task alone (completed from the corpus at filter time): the same bytes and counts for 1, 2 and 3 workers (3 on input ranges), and from stdin', async () => {
    const fit = await runMain(['fit', '--task', f('task.jsonl'), '--general-sample', '200', '-o', f('task-only.json')]);
    expect(fit.code, fit.stderr).toBe(0);
    const countsOfCompleted = (path: string) => {
      const s = countsOf(path) as { completion: { seconds?: number; fingerprint: string } };
      delete s.completion.seconds;
      return s;
    };
    // Each run completes the model anew (seconds of self-training): 3 threads run on ranges.
    const runs: Array<[string, string[]]> = [
      ['1', ['--workers', '1']],
      ['2', ['--workers', '2']],
      ['3-ranges', ['--workers', '3', '--input-ranges', 'on']],
    ];
    const outs: Buffer[] = [];
    const stats: unknown[] = [];
    for (const [name, extra] of runs) {
      const r = await runMain(['filter', '-m', f('task-only.json'), f('mix.jsonl'), ...extra, '--batch-sentences', '64', '-o', f(`task-only-${name}.jsonl`), '--stats', f(`task-only-${name}.json`), '-q']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      outs.push(readFileSync(f(`task-only-${name}.jsonl`)));
      stats.push(countsOfCompleted(f(`task-only-${name}.json`)));
    }
    expect(outs[0]!.length).toBeGreaterThan(1000);
    expect((stats[0] as { completion: { sampler: string } }).completion.sampler).toBe('reservoir'); // the sample read (and split) the whole corpus
    // Ranges merge the score moments of their parts: equal to rounding.
    const ranged = stats[2] as { ranges?: number; sentenceScores: { mean: number; std: number } };
    expect(ranged.ranges).toBeGreaterThan(1);
    const one = stats[0] as { sentenceScores: { mean: number; std: number } };
    expect(ranged.sentenceScores.mean).toBeCloseTo(one.sentenceScores.mean, 9);
    expect(ranged.sentenceScores.std).toBeCloseTo(one.sentenceScores.std, 9);
    delete ranged.ranges;
    ranged.sentenceScores = one.sentenceScores;
    for (let i = 1; i < runs.length; i++) {
      expect(outs[i]!.equals(outs[0]!), `${runs[i]![0]} differs from --workers 1`).toBe(true);
      expect(stats[i], runs[i]![0]).toEqual(stats[0]);
    }
    // From stdin, and from `node --input-type=module -e` (a flag a worker refuses), as the
    // benches run it, in one run: the completion's worker thread starts all the same. It starts
    // for any --workers; 2 starts the scoring pool's threads under the flag too.
    const args = ['filter', '-m', f('task-only.json'), '--format', 'jsonl', '-', '--workers', '2', '--batch-sentences', '64', '-q'];
    const script = `import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`;
    const piped = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, input: readFileSync(f('mix.jsonl')) });
    expect(piped.status, piped.stderr.toString()).toBe(0);
    expect(piped.stdout.equals(outs[0]!), 'stdin with 2 workers under node -e differs from --workers 1').toBe(true);
  });

  it('--workers 0 is a usage error that names the fix', async () => {
    const r = await runMain(['filter', '-m', f('random.json'), f('mix.jsonl'), '--workers', '0', '-o', f('never.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--workers must be a whole number >= 1/);
    expect(existsSync(f('never.jsonl'))).toBe(false);
    expect(readdirSync(tmp.dir).filter((n) => n.includes('never'))).toEqual([]); // no temp file either
  });
});

describe('--input-ranges: threads that read and filter byte ranges apart give the bytes of one thread', () => {
  interface RangeStats {
    ranges?: number;
    sentenceScores: { mean: number; std: number };
    seconds?: unknown;
  }
  const statsOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as RangeStats & Record<string, unknown>;

  it('JSONL (junk lines, a lone surrogate), paragraph text, one document per line, and two files: identical output and counts for 1 and 3 threads', async () => {
    const docs = readFileSync(f('mix.jsonl'), 'utf8').trim().split('\n');
    const lines = docs.map((l) => (JSON.parse(l) as { text: string }).text);
    writeFileSync(f('junk.jsonl'), docs.flatMap((l, i) => (i % 5 === 0 ? ['{not json', l] : [l])).join('\n') + '\n');
    writeFileSync(f('para.txt'), lines.map((t) => t.replace(/\n\s*\n/g, '\n').trim()).join('\n\n') + '\n');
    writeFileSync(f('perline.txt'), lines.map((t) => t.replace(/\s*\n\s*/g, ' ').trim()).join('\n') + '\n');
    writeFileSync(f('part-a.jsonl'), docs.slice(0, 17).join('\n') + '\n');
    writeFileSync(f('part-b.jsonl'), docs.slice(17).join('\n') + '\n');
    const cases: Array<[string, string[]]> = [
      ['jsonl', [f('junk.jsonl')]],
      ['paragraphs', [f('para.txt')]],
      ['doc-per-line', ['--doc-per-line', f('perline.txt')]],
      ['two files', [f('part-a.jsonl'), f('part-b.jsonl')]],
      // The threads must score segments with the run's --doc-context, not the default.
      ['jsonl, --doc-context 3', ['--doc-context', '3', '--segment', '4', f('junk.jsonl')]],
    ];
    for (const [name, input] of cases) {
      const outs: Buffer[] = [];
      const stats: Array<RangeStats & Record<string, unknown>> = [];
      // Three threads: more range boundaries than two give, and a thread that takes a range
      // while another is still on its own. Two threads on ranges run in the tests below.
      for (const w of ['1', '3']) {
        const r = await runMain(['filter', '-m', f('default.json'), ...input, '--workers', w, '--input-ranges', 'on', '--batch-sentences', '64', '--stats', f(`r-${w}.json`), '-q']);
        expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        outs.push(r.stdout);
        stats.push(statsOf(f(`r-${w}.json`)));
      }
      expect(outs[0]!.length, name).toBeGreaterThan(1000);
      expect(stats[0]!.ranges, name).toBeUndefined();
      for (const i of [1]) {
        expect(outs[i]!.equals(outs[0]!), `${name}: 3 threads`).toBe(true);
        expect(stats[i]!.ranges, name).toBeGreaterThan(1);
        // The moments are merged from the ranges' (Chan et al.): equal up to rounding.
        expect(stats[i]!.sentenceScores.mean).toBeCloseTo(stats[0]!.sentenceScores.mean, 10);
        expect(stats[i]!.sentenceScores.std).toBeCloseTo(stats[0]!.sentenceScores.std, 10);
        const counts = (s: Record<string, unknown>) => {
          const { seconds: _s, ranges: _r, sentenceScores: _m, threads: _t, ...rest } = s;
          return rest;
        };
        expect(counts(stats[i]!), name).toEqual(counts(stats[0]!));
      }
    }
  });

  it('several gzip files are ranges of whole files; Parquet is cut between row groups: the same bytes', async () => {
    const docs = readFileSync(f('mix.jsonl'), 'utf8').trim().split('\n');
    const gzs = [0, 1, 2, 3, 4].map((i) => {
      const p = f(`gz-${i}.jsonl.gz`);
      writeFileSync(p, gzipSync(docs.filter((_, k) => k % 5 === i).join('\n') + '\n'));
      return p;
    });
    /** One thread against `threads` on ranges: the same bytes, and how many ranges ran. */
    const compare = async (inputs: string[], threads: string, name: string) => {
      const one = await runMain(['filter', '-m', f('default.json'), ...inputs, '--workers', '1', '-q']);
      const many = await runMain(['filter', '-m', f('default.json'), ...inputs, '--workers', threads, '--input-ranges', 'on', '--stats', f(`${name}-stats.json`), '-q']);
      expect(many.code, many.stderr).toBe(0);
      expect(one.stdout.length).toBeGreaterThan(1000);
      expect(many.stdout.equals(one.stdout), name).toBe(true);
      return statsOf(f(`${name}-stats.json`)).ranges;
    };
    expect(await compare(gzs, '2', 'gzs')).toBe(5);
    const fixtures = join(ROOT, 'test', 'fixtures', 'formats');
    expect(await compare([join(fixtures, 'corpus.parquet'), join(fixtures, 'shards')], '3', 'parquet')).toBeGreaterThan(1);
  });

  it('an error in one range (a bad line under --strict) is the error reported, not the stop it causes in the other threads', async () => {
    // 16 copies of the mix, the bad line a seventh of the way in: in the second of 8 ranges,
    // which a worker takes while this thread is still on the first.
    const docs = readFileSync(f('mix.jsonl'), 'utf8').trim().split('\n');
    const lines = Array.from({ length: 16 }, () => docs).flat();
    lines.splice(Math.round(lines.length / 7), 0, '{broken');
    writeFileSync(f('strict.jsonl'), lines.join('\n') + '\n');
    for (const w of ['2', '3']) {
      const r = await runMain(['filter', '-m', f('default.json'), f('strict.jsonl'), '--strict', '--workers', w, '--input-ranges', 'on', '-o', f('strict-out.jsonl'), '-q']);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/strict\.jsonl:\d+: bad JSONL record/);
      expect(existsSync(f('strict-out.jsonl'))).toBe(false);
    }
  });

  it('one gzip file and stdin are read by one reader (no ranges), with the same bytes', async () => {
    writeFileSync(f('ranges.jsonl.gz'), gzipSync(readFileSync(f('mix.jsonl'))));
    const one = await runMain(['filter', '-m', f('default.json'), f('ranges.jsonl.gz'), '--workers', '1', '-q']);
    const gz = await runMain(['filter', '-m', f('default.json'), f('ranges.jsonl.gz'), '--workers', '2', '--input-ranges', 'on', '--stats', f('gz-stats.json'), '-q']);
    expect(gz.code, gz.stderr).toBe(0);
    expect(statsOf(f('gz-stats.json')).ranges).toBeUndefined();
    expect(gz.stdout.equals(one.stdout)).toBe(true);
    const stdin = await runMain(['filter', '-m', f('default.json'), '--format', 'jsonl', '-', '--workers', '2', '--input-ranges', 'on', '--stats', f('stdin-stats.json'), '-q'], { input: readFileSync(f('mix.jsonl'), 'utf8') });
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(statsOf(f('stdin-stats.json')).ranges).toBeUndefined();
    expect(stdin.stdout.equals(one.stdout)).toBe(true);
  });
});
