// End-to-end `tadpole filter` throughput and peak RSS, as whole child processes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCorpus, loadDocs } from '../make-corpus.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'tadpole.js');

/** Runs the CLI in a child whose peak RSS we read back (process.resourceUsage, portable). */
function measuredWrapper(args) {
  return `import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))}).then(async (m) => { const c = await m.main(${JSON.stringify(args)}); const u = process.resourceUsage(); process.stderr.write('\\nBENCH_MAXRSS_KB ' + u.maxRSS + '\\nBENCH_CPU_US ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); process.exitCode = c; })`;
}

function measuredResult(args, status, stderr, seconds) {
  if (status !== 0) throw new Error(`tadpole ${args.join(' ')} failed (${status}): ${stderr}`);
  const m = /BENCH_MAXRSS_KB (\d+)/.exec(stderr);
  const cpu = /BENCH_CPU_US (\d+)/.exec(stderr);
  // CPU seconds of every thread of the child: MB per CPU-second is the per-core rate, which
  // other processes on the machine disturb far less than wall-clock MB/s.
  return { seconds, maxRssMb: m ? Number(m[1]) / 1024 : NaN, cpuSeconds: cpu ? Number(cpu[1]) / 1e6 : NaN, stderr };
}

export function runMeasured(args, cpus) {
  const t = performance.now();
  const [cmd, argv] = pinned(cpus, [process.execPath, '--input-type=module', '-e', measuredWrapper(args)]);
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 26 });
  return measuredResult(args, r.status, r.stderr, (performance.now() - t) / 1000);
}

/** Several tadpole commands at once, as separate processes: the wall time until the last ends, and each one's figures. */
export async function runMeasuredTogether(argLists, cpuLists = []) {
  const t = performance.now();
  const runs = await Promise.all(
    argLists.map(
      (args, i) =>
        new Promise((resolve, reject) => {
          const [cmd, argv] = pinned(cpuLists[i], [process.execPath, '--input-type=module', '-e', measuredWrapper(args)]);
          const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
          child.on('error', reject);
          child.on('close', (status) => {
            try {
              resolve(measuredResult(args, status, stderr, (performance.now() - t) / 1000));
            } catch (err) {
              reject(err);
            }
          });
        }),
    ),
  );
  return { seconds: (performance.now() - t) / 1000, runs };
}

let pinnable;

/**
 * Whether processes can be pinned to CPUs here (util-linux's taskset; asked once, when a bench
 * first needs it, not at import): a process pinned to one CPU runs its garbage collector and
 * compiler threads on that CPU too, as each thread of a busy --workers N run must, while an
 * unpinned one borrows an idle core for them.
 */
export function canPin() {
  pinnable ??= process.platform === 'linux' && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  return pinnable;
}

/** The command and its arguments, run under `taskset -c CPUS` when CPUS is given. */
function pinned(cpus, [cmd, ...argv]) {
  if (cpus === undefined) return [cmd, argv];
  if (!canPin()) throw new Error('taskset is not available to pin a run to CPUs');
  return ['taskset', ['-c', String(cpus), cmd, ...argv]];
}

export function benchDir() {
  const dir = process.env.TADPOLE_BENCH_DIR ?? join(ROOT, '.bench');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Every 40th document the bench corpora are drawn from, as JSONL (written once into DIR). */
export function generalSample(dir) {
  const general = join(dir, 'general.jsonl');
  if (!existsSync(general)) writeFileSync(general, loadDocs().filter((_, i) => i % 40 === 0).map((d) => JSON.stringify(d)).join('\n') + '\n');
  return general;
}

/** A model fitted on ChemProt task sentences with a general sample from the corpus. */
export function fitBenchModel(dir, extra = [], name = 'model.json') {
  const model = join(dir, name);
  const general = generalSample(dir);
  const r = spawnSync(process.execPath, [BIN, 'fit', '--task', join(process.env.TADPOLE_SHARED ?? join(ROOT, '..', 'shared'), 'corpora/task-chemprot/train.jsonl.gz'), '--general', general, ...extra, '-o', model], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fit failed: ${r.stderr}`);
  return model;
}

export async function benchE2E({ mb = 20 } = {}) {
  const dir = benchDir();
  const corpus = join(dir, `corpus-${mb}mb.jsonl`);
  if (!existsSync(corpus)) await makeCorpus(corpus, mb, 'jsonl', 1);
  const size = statSync(corpus).size / 1e6;
  const results = [];
  for (const [label, extra] of [['default', []], ['hash+iforest', ['--embedder', 'hash', '--detector', 'iforest']], ['random', ['--method', 'random']]]) {
    const model = fitBenchModel(dir, extra, `model-${label.replace(/\W/g, '_')}.json`);
    const stats = join(dir, `stats-${label.replace(/\W/g, '_')}.json`);
    const r = runMeasured(['filter', '-m', model, corpus, '-o', join(dir, 'kept.jsonl'), '--stats', stats, '-q']);
    const s = JSON.parse(readFileSync(stats, 'utf8'));
    if (Math.abs(s.sentences.kept - 0.2 * s.sentences.total) > 15) throw new Error('kept share is off');
    const line = `e2e.${label}: ${(size / r.seconds).toFixed(2)} MB/s, ${(s.sentences.total / r.seconds).toFixed(0)} sentences/s (pass1 ${s.seconds.pass1.toFixed(1)}s, cut ${s.seconds.cut.toFixed(2)}s, pass2 ${s.seconds.pass2.toFixed(1)}s on ${size.toFixed(0)} MB), peak RSS ${r.maxRssMb.toFixed(0)} MB`;
    console.log(line);
    results.push({ label, mbps: size / r.seconds });
  }
  return results;
}

export async function benchMemory({ sizes = [100, 1000], method = ['--embedder', 'hash', '--detector', 'iforest'] } = {}) {
  const dir = benchDir();
  const model = fitBenchModel(dir, method, 'model-memory.json');
  const rss = [];
  for (const mb of sizes) {
    const corpus = join(dir, `corpus-${mb}mb.jsonl`);
    if (!existsSync(corpus)) await makeCorpus(corpus, mb, 'jsonl', 2);
    const r = runMeasured(['filter', '-m', model, corpus, '-o', join(dir, 'kept-mem.jsonl'), '-q']);
    console.log(`memory.peak_rss_mb[${mb} MB input]: ${r.maxRssMb.toFixed(0)}  (${(mb / r.seconds).toFixed(2)} MB/s)`);
    rss.push(r.maxRssMb);
  }
  if (rss.length === 2) console.log(`memory.rss_ratio_${sizes[1]}mb_vs_${sizes[0]}mb: ${(rss[1] / rss[0]).toFixed(3)} (target: within 20%)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchE2E();
}
