// Peers timed beside tadpole on the same input in the same run: tadpole's default and
// `--method random`, the published DSIR package (`data-selection`, HashedNgramDSIR) and a fastText
// classifier as DCLM builds one (task sentences positive, a corpus sample negative, word bigrams;
// score every document, keep the top share). Every tool runs on one core, and its rate is MB of
// corpus per CPU-second (user + system of the whole process, every thread counted), which other
// jobs on a shared machine disturb far less than wall time.
//
// Each tool's figures come in two parts: `select`, everything from the task data to the kept
// output (fitting included), and `score`, the part that reads the whole corpus and grows with it
// (tadpole's `filter`, DSIR's compute_importance_weights, fastText's predict-prob). A peer whose
// package or binary is missing is reported as "not run" with the reason.
//
// BENCH_PEERS_MB (default 60) sets the corpus size: DSIR scores about 1 MB per CPU-second, and
// tadpole's start-up, model load and JIT warm-up weigh on anything much smaller.
// BENCH_PEERS=default,random,dsir,fasttext picks tools. TADPOLE_PEER_DSIR: a folder holding the
// `data_selection` package (DSIR's source checkout, with its package metadata, e.g. after
// `python3 setup.py egg_info` there); TADPOLE_PEER_PYTHON: the python to run it with (else
// python3, then /usr/bin/python3); TADPOLE_PEER_FASTTEXT: the fastText binary (else `fasttext`).
// BENCH_PEERS_OUT=FILE also writes the figures as JSON (docs/benchmarks/results/peers-speed.json
// is the one scripts/figures/peers.js draws).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { makeCorpus } from '../make-corpus.js';
import { benchDir, generalSample, runMeasured } from './e2e.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SHARED = process.env.TADPOLE_SHARED ?? join(ROOT, '..', 'shared');
const TASK = join(SHARED, 'corpora/task-chemprot/train.jsonl.gz');
const KEEP = 0.2;
// Assumed for the projection lines only; nothing here ran on more than the cores it found.
const PROJECTION = { tb: 1, cores: 64 };
// numpy's and OpenMP's thread pools held to one thread: DSIR's per-core figure is one core's.
const ONE_THREAD = { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1' };

/**
 * A command's wall seconds and its CPU seconds (user + system of the process and every thread
 * and child it waited for), read from the shell's `times` built-in, so no GNU time is needed.
 */
export function runChild(cmd, args, env = {}) {
  const t = performance.now();
  const r = spawnSync('sh', ['-c', '"$@"; s=$?; times >&2; exit $s', 'sh', cmd, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, ...env },
  });
  const seconds = (performance.now() - t) / 1000;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const children = r.stderr.trimEnd().split('\n').at(-1);
  const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
  return { seconds, cpu, stdout: r.stdout };
}

/** Wall and CPU seconds of work done in this process (the glue a peer needs: formats, the cut). */
function inProcess(fn) {
  const t = performance.now();
  const c = process.cpuUsage();
  const value = fn();
  const u = process.cpuUsage(c);
  return { seconds: (performance.now() - t) / 1000, cpu: (u.user + u.system) / 1e6, value };
}

const sum = (...parts) => ({ seconds: parts.reduce((s, p) => s + p.seconds, 0), cpu: parts.reduce((s, p) => s + p.cpu, 0) });
const oneLine = (text) => text.replace(/\s+/g, ' ').trim();
const jsonlTexts = (path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).text);

function runTadpole(label, extra, { dir, corpus }) {
  const model = join(dir, `model-peers-${label}.json`);
  const fit = runMeasured(['fit', '--task', TASK, '--general', generalSample(dir), ...extra, '-o', model]);
  const stats = join(dir, `stats-peers-${label}.json`);
  const filter = runMeasured(['filter', '-m', model, corpus, '-o', join(dir, 'kept-peers.jsonl'), '--stats', stats, '--workers', '1', '-q']);
  const s = JSON.parse(readFileSync(stats, 'utf8'));
  if (Math.abs(s.sentences.kept - KEEP * s.sentences.total) > 15) throw new Error(`${label}: kept share is off`);
  const score = { seconds: filter.seconds, cpu: filter.cpuSeconds };
  return { fit: { seconds: fit.seconds, cpu: fit.cpuSeconds }, score, select: sum({ seconds: fit.seconds, cpu: fit.cpuSeconds }, score), note: `kept ${s.sentences.kept} of ${s.sentences.total} sentences` };
}

/** The first python that imports `data_selection` (with TADPOLE_PEER_DSIR on its path), or why none did. */
export function dsirPython() {
  const pythonPath = [process.env.TADPOLE_PEER_DSIR, process.env.PYTHONPATH].filter(Boolean).join(delimiter);
  const candidates = [process.env.TADPOLE_PEER_PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean);
  const why = [];
  for (const python of [...new Set(candidates)]) {
    const r = spawnSync(python, ['-c', 'import data_selection'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: pythonPath } });
    if (r.status === 0) return { python, env: { PYTHONPATH: pythonPath, ...ONE_THREAD } };
    why.push(`${python}: ${r.error ? r.error.code : r.stderr.trim().split('\n').at(-1)}`);
  }
  return { why: `${why.join('; ')} (DSIR's package is data-selection: set TADPOLE_PEER_DSIR to its source folder)` };
}

function runDsir({ corpus, docs, scratch }) {
  const found = dsirPython();
  if (!found.python) return { notRun: found.why };
  const target = join(scratch, 'task.jsonl');
  const keepDocs = Math.round(KEEP * docs);
  const r = runChild(found.python, [join(ROOT, 'scripts/bench/peers-dsir.py'), corpus, target, String(keepDocs), scratch], found.env);
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1));
  if (out.kept !== keepDocs) throw new Error(`dsir kept ${out.kept} documents, asked for ${keepDocs}`);
  const { fit, weights, resample } = out.phases;
  const score = { seconds: weights.wall, cpu: weights.cpu };
  return {
    fit: { seconds: fit.wall, cpu: fit.cpu },
    score,
    select: { seconds: r.seconds, cpu: r.cpu },
    note: `weights ${weights.cpu.toFixed(1)} s, resample ${resample.cpu.toFixed(2)} s CPU; kept ${out.kept} of ${docs} documents`,
  };
}

function runFastText({ dir, corpus, docs, scratch }) {
  const bin = process.env.TADPOLE_PEER_FASTTEXT ?? 'fasttext';
  const probe = spawnSync(bin, [], { encoding: 'utf8' });
  if (probe.error) return { notRun: `no fastText binary \`${bin}\` (${probe.error.code}; Debian: apt-get install fasttext, or set TADPOLE_PEER_FASTTEXT)` };
  const train = join(scratch, 'fasttext-train.txt');
  const lines = join(scratch, 'corpus.txt');
  // fastText reads one example a line: texts with their line breaks folded, as DCLM does. The
  // negatives are the general sample tadpole fits with.
  const prepTrain = inProcess(() => {
    const task = jsonlTexts(join(scratch, 'task.jsonl')).map((t) => `__label__task ${oneLine(t)}`);
    const general = jsonlTexts(generalSample(dir)).map((t) => `__label__general ${oneLine(t)}`);
    writeFileSync(train, [...task, ...general].join('\n') + '\n');
  });
  const prepCorpus = inProcess(() => writeFileSync(lines, jsonlTexts(corpus).map(oneLine).join('\n') + '\n'));
  const model = join(scratch, 'fasttext');
  const trained = runChild(bin, ['supervised', '-input', train, '-output', model, '-wordNgrams', '2', '-thread', '1', '-verbose', '0']);
  const predict = runChild(bin, ['predict-prob', `${model}.bin`, lines, '2']);
  const cut = inProcess(() => {
    const p = predict.stdout.trimEnd().split('\n').map((l) => {
      const m = /__label__task ([\d.e-]+)/.exec(l);
      return m ? Number(m[1]) : 0;
    });
    if (p.length !== docs) throw new Error(`fastText scored ${p.length} lines for ${docs} documents`);
    const keep = Math.round(KEEP * docs);
    const order = p.map((_, i) => i).sort((a, b) => p[b] - p[a]);
    const kept = new Set(order.slice(0, keep));
    const texts = readFileSync(corpus, 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(scratch, 'fasttext-kept.jsonl'), texts.filter((_, i) => kept.has(i)).join('\n') + '\n');
    return kept.size;
  });
  // Folding the JSONL into lines is a pass over the corpus that fastText cannot do itself.
  const fit = sum(prepTrain, trained);
  return {
    fit,
    score: sum(prepCorpus, predict),
    select: sum(fit, prepCorpus, predict, cut),
    note: `train ${trained.cpu.toFixed(1)} s, JSONL to lines ${prepCorpus.cpu.toFixed(1)} s, predict-prob ${predict.cpu.toFixed(1)} s, cut ${cut.cpu.toFixed(2)} s CPU; kept ${cut.value} of ${docs} documents`,
  };
}

const TOOLS = {
  default: { name: 'tadpole (default, contrast)', run: (ctx) => runTadpole('default', [], ctx) },
  random: { name: 'tadpole --method random', run: (ctx) => runTadpole('random', ['--method', 'random'], ctx) },
  dsir: { name: 'DSIR (data-selection, HashedNgramDSIR)', run: runDsir },
  fasttext: { name: 'fastText classifier (DCLM recipe)', run: runFastText },
};

/** The run's rates as JSON: MB of corpus per CPU-second, select and score, and the fit's CPU seconds. */
function writeResults(path, { mb, size, docs, results }) {
  const tools = Object.fromEntries(
    Object.entries(results).map(([key, r]) => [key, { name: TOOLS[key].name, select_mb_per_cpu_s: Number((size / r.select.cpu).toFixed(2)), score_mb_per_cpu_s: Number((size / r.score.cpu).toFixed(2)), fit_cpu_s: Number(r.fit.cpu.toFixed(1)) }]),
  );
  const file = {
    what: 'MB of corpus per CPU-second (user + system of the whole process), one core each; select: task data to kept output, score: the pass over the corpus',
    command: `${process.env.BENCH_PEERS_MB ? `BENCH_PEERS_MB=${process.env.BENCH_PEERS_MB} ` : ''}node scripts/bench/peers.js`,
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    corpus: { mb: Number(size.toFixed(1)), documents: docs, asked_mb: mb },
    tools,
  };
  writeFileSync(path, JSON.stringify(file, null, 2) + '\n');
  console.log(`peers: wrote ${relative(process.cwd(), path)}`);
}

export async function benchPeers() {
  const mb = Number(process.env.BENCH_PEERS_MB ?? 60);
  const only = process.env.BENCH_PEERS ? process.env.BENCH_PEERS.split(',') : Object.keys(TOOLS);
  const dir = benchDir();
  const corpus = join(dir, `corpus-${mb}mb.jsonl`);
  if (!existsSync(corpus)) await makeCorpus(corpus, mb, 'jsonl', 1);
  const size = statSync(corpus).size / 1e6;
  const docs = readFileSync(corpus, 'utf8').split('\n').filter(Boolean).length;
  const scratch = mkdtempSync(join(tmpdir(), 'tadpole-peers-'));
  writeFileSync(join(scratch, 'task.jsonl'), gunzipSync(readFileSync(TASK)));
  console.log(`peers: ${size.toFixed(1)} MB JSONL, ${docs} documents, keep ${KEEP}; one core each; load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const results = {};
  let failed = 0;
  try {
    for (const key of only) {
      const tool = TOOLS[key];
      if (!tool) throw new Error(`unknown peer ${key}: one of ${Object.keys(TOOLS).join(', ')}`);
      let r;
      try {
        r = tool.run({ dir, corpus, docs, scratch });
      } catch (err) {
        failed++;
        console.log(`peers.${key}: failed: ${err.message}`);
        continue;
      }
      if (r.notRun) {
        console.log(`peers.${key}: not run: ${r.notRun}`);
        continue;
      }
      results[key] = r;
      const rate = (p) => size / p.cpu;
      console.log(
        `peers.${key}: select ${rate(r.select).toFixed(2)} MB per CPU-second (${r.select.cpu.toFixed(1)} s CPU, ${r.select.seconds.toFixed(1)} s wall), ` +
          `score ${rate(r.score).toFixed(2)} MB per CPU-second (${r.score.cpu.toFixed(1)} s CPU); fit ${r.fit.cpu.toFixed(1)} s CPU; ${r.note}`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const base = results.default;
  if (Object.keys(results).length === 0) return { failed, results };
  console.log('\n| tool | select, MB per CPU-second | × tadpole default | score only, MB per CPU-second | × tadpole default | fit, CPU s |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [key, r] of Object.entries(results)) {
    const x = (p, b) => (b ? `${(b.cpu / p.cpu).toFixed(3)}` : 'n/a');
    console.log(`| ${TOOLS[key].name} | ${(size / r.select.cpu).toFixed(2)} | ${x(r.select, base?.select)} | ${(size / r.score.cpu).toFixed(2)} | ${x(r.score, base?.score)} | ${r.fit.cpu.toFixed(1)} |`);
  }
  if (process.env.BENCH_PEERS_OUT) writeResults(process.env.BENCH_PEERS_OUT, { mb, size, docs, results });
  const { tb, cores } = PROJECTION;
  for (const [key, r] of Object.entries(results)) {
    const hours = (tb * 1e6) / ((size / r.score.cpu) * cores) / 3600;
    console.log(`peers.projection.${key}: ${tb} TB on ${cores} cores ≈ ${hours.toFixed(2)} h of scoring (linear in cores, no I/O ceiling, fit not included)`);
  }
  return { failed, results };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { failed } = await benchPeers();
  process.exitCode = failed ? 1 : 0;
}
