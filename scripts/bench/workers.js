// `tadpole filter --workers N`: MB/s for 1, 2 and all workers (default method, random, and a
// model fitted on the task alone, completed from the corpus at filter time), the ratio to a bare
// read of the same file, and peak RSS; the outputs must be identical.
// With 2 or more cores it also runs 2 threads with one reader (--input-ranges off, the pool's
// batches, what gzip and stdin get) and two separate --workers 1 processes side by side, each on
// a whole copy of the input (what the machine gives two pipelines that share nothing: aggregate
// MB/s = 2 x size / wall of the pair). `workers 2 / two processes` is --workers 2's MB/s over
// that aggregate, from BENCH_WORKERS_ROUNDS (default 3) rounds that run the two in turn (the
// machine's speed drifts between runs): the median and range of the rounds' ratios.
// Where taskset can pin processes (Linux), it also runs --workers 1 pinned to one CPU, the
// one-core baseline: unpinned, a lone thread borrows the idle core for V8's collector and
// compiler threads, which the threads of --workers N cannot, and two pinned processes side by
// side show what two CPUs give when neither can borrow from the other.
// BENCH_WORKERS_MB=240 (random), BENCH_WORKERS_DEFAULT_MB=240 (default method) and
// BENCH_WORKERS_TASK_ONLY_MB=30 (task-only model) set the sizes; 0 skips a case. Each thread
// JIT-compiles the pipeline for itself (about 0.6 s of CPU, measured with perf), which on a
// 30 MB input was a fifth of the run; users filter gigabytes, so the bench measures the steady
// state. The task-only case is small because the completion's fit, the same for every thread
// count, dominates it: it checks that more threads never make that run slower.
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { readDocuments } from '../../dist/io/documents.js';
import { makeCorpus } from '../make-corpus.js';
import { benchDir, canPin, fitBenchModel, runMeasured, runMeasuredTogether } from './e2e.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Seconds to read the file into documents (JSON parsed), the floor of any pass. */
async function bareRead(path) {
  const t = performance.now();
  let n = 0;
  for await (const b of readDocuments([path], { format: 'jsonl', textField: 'text', docPerLine: false, strict: false })) n += b.length;
  if (n === 0) throw new Error('bare read saw no documents');
  return (performance.now() - t) / 1000;
}

/** A second copy of the corpus beside it (cached), for the second of two processes side by side. */
function copyOf(corpus) {
  const copy = corpus.replace(/\.jsonl$/, '.copy.jsonl');
  if (!existsSync(copy) || statSync(copy).size !== statSync(corpus).size) copyFileSync(corpus, copy);
  return copy;
}

/** `fit --task` alone: a model that filter completes from the corpus it filters. */
function fitTaskOnlyModel(dir) {
  const model = join(dir, 'model-workers-task-only.json');
  const task = join(process.env.TADPOLE_SHARED ?? join(ROOT, '..', 'shared'), 'corpora/task-chemprot/train.jsonl.gz');
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'tadpole.js'), 'fit', '--task', task, '-o', model], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fit failed: ${r.stderr}`);
  return model;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function corpusOf(dir, mb) {
  const path = join(dir, `corpus-${mb}mb.jsonl`);
  if (!existsSync(path)) await makeCorpus(path, mb, 'jsonl', 1);
  return path;
}

export async function benchWorkers() {
  const dir = benchDir();
  const all = availableParallelism();
  const counts = [...new Set([1, 2, all])];
  const rounds = Number(process.env.BENCH_WORKERS_ROUNDS ?? 3);
  const cases = [
    ['random', ['--method', 'random'], Number(process.env.BENCH_WORKERS_MB ?? 240)],
    ['default', [], Number(process.env.BENCH_WORKERS_DEFAULT_MB ?? 240)],
    ['task-only', null, Number(process.env.BENCH_WORKERS_TASK_ONLY_MB ?? 30)],
  ].filter(([, , mb]) => mb > 0);
  console.log(`workers: ${all} cores available; load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (const [label, extra, mb] of cases) {
    const corpus = await corpusOf(dir, mb);
    const size = statSync(corpus).size / 1e6;
    const model = extra ? fitBenchModel(dir, extra, `model-workers-${label}.json`) : fitTaskOnlyModel(dir);
    const read = await bareRead(corpus);
    console.log(`workers.${label}: ${size.toFixed(0)} MB JSONL; bare read ${(size / read).toFixed(1)} MB/s`);
    let reference;
    let one;
    const rates = new Map();
    for (const n of counts) {
      const out = join(dir, `kept-workers-${label}-${n}.jsonl`);
      const stats = join(dir, `stats-workers-${label}-${n}.json`);
      const r = runMeasured(['filter', '-m', model, corpus, '-o', out, '--stats', stats, '-q', '--workers', String(n)]);
      const bytes = readFileSync(out);
      if (reference === undefined) reference = bytes;
      else if (!bytes.equals(reference)) throw new Error(`${label}: --workers ${n} output differs from --workers ${counts[0]}`);
      const s = JSON.parse(readFileSync(stats, 'utf8'));
      const mbps = size / r.seconds;
      one ??= mbps;
      rates.set(n, mbps);
      console.log(
        `workers.${label}[${n}]: ${mbps.toFixed(2)} MB/s (${(mbps / one).toFixed(2)}x of 1 worker; ${(mbps / (size / read)).toFixed(3)} of the bare read), ` +
          `${(size / r.cpuSeconds).toFixed(1)} MB per CPU-second, pass1 ${s.seconds.pass1.toFixed(1)}s, pass2 ${s.seconds.pass2.toFixed(1)}s, peak RSS ${r.maxRssMb.toFixed(0)} MB, ${s.ranges ? `${s.ranges} input ranges` : 'one reader'}, output identical`,
      );
    }
    if (all >= 2) {
      // The same threads with one reader handing batches out (the only way for gzip and stdin).
      const out = join(dir, `kept-workers-${label}-pool.jsonl`);
      const stats = join(dir, `stats-workers-${label}-pool.json`);
      const r = runMeasured(['filter', '-m', model, corpus, '-o', out, '--stats', stats, '-q', '--workers', '2', '--input-ranges', 'off']);
      if (!readFileSync(out).equals(reference)) throw new Error(`${label}: --input-ranges off output differs`);
      const s = JSON.parse(readFileSync(stats, 'utf8'));
      const mbps = size / r.seconds;
      console.log(`workers.${label}[2, one reader]: ${mbps.toFixed(2)} MB/s (${(mbps / one).toFixed(2)}x of 1 worker), ${(size / r.cpuSeconds).toFixed(1)} MB per CPU-second, pass1 ${s.seconds.pass1.toFixed(1)}s, pass2 ${s.seconds.pass2.toFixed(1)}s, peak RSS ${r.maxRssMb.toFixed(0)} MB, output identical (--input-ranges off)`);
    }
    // Each copy of the input filtered by its own --workers 1 process, side by side.
    const copies = all >= 2 ? [corpus, copyOf(corpus)] : [];
    const pairRuns = copies.map((c, i) => ['filter', '-m', model, c, '-o', join(dir, `kept-workers-${label}-process-${i}.jsonl`), '-q', '--workers', '1']);
    if (all >= 2) {
      // What this machine gives two pipelines that share nothing: the ceiling for --workers 2.
      const two = ['filter', '-m', model, corpus, '-o', join(dir, `kept-workers-${label}-2.jsonl`), '-q', '--workers', '2'];
      const ratios = [];
      let pairRate;
      for (let r = 0; r < rounds; r++) {
        const w = runMeasured(two);
        const t = await runMeasuredTogether(pairRuns);
        for (let i = 0; i < 2; i++) if (!readFileSync(join(dir, `kept-workers-${label}-process-${i}.jsonl`)).equals(reference)) throw new Error(`${label}: a --workers 1 process's output differs`);
        pairRate = (2 * size) / t.seconds;
        ratios.push(size / w.seconds / pairRate);
        if (r === 0) {
          const cpu = t.runs.reduce((a, x) => a + x.cpuSeconds, 0);
          console.log(`workers.${label}[2 processes]: ${pairRate.toFixed(2)} MB/s aggregate (${(pairRate / one).toFixed(2)}x of 1 worker), ${((2 * size) / cpu).toFixed(1)} MB per CPU-second: two --workers 1 processes side by side, each on a whole copy of the input (2 x size / wall of the pair)`);
        }
      }
      rates.set('processes', pairRate);
      console.log(`workers.${label}: workers 2 / two processes = ${median(ratios).toFixed(3)} (median of ${rounds} rounds run in turn; range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}; target 0.9)`);
    }
    if (all >= 2 && canPin()) {
      // An unpinned --workers 1 borrows an idle core for V8's collector and compiler threads;
      // pinned to one CPU it gets one core's worth, as each thread of --workers N does.
      const out = join(dir, `kept-workers-${label}-pinned.jsonl`);
      const r = runMeasured(['filter', '-m', model, corpus, '-o', out, '-q', '--workers', '1'], 0);
      if (!readFileSync(out).equals(reference)) throw new Error(`${label}: the pinned run's output differs`);
      const pinned = size / r.seconds;
      const t = await runMeasuredTogether(pairRuns, [0, 1]);
      const both = (2 * size) / t.seconds;
      console.log(
        `workers.${label}[1, pinned to one CPU]: ${pinned.toFixed(2)} MB/s (${(pinned / one).toFixed(2)}x of 1 worker unpinned); against it: ` +
          `--workers 2 ${(rates.get(2) / pinned).toFixed(2)}x, 2 processes ${(rates.get('processes') / pinned).toFixed(2)}x, 2 processes pinned one per CPU ${(both / pinned).toFixed(2)}x (${both.toFixed(2)} MB/s)`,
      );
    }
  }
  console.log(`workers: load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchWorkers();
}
