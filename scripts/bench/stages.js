// Where one thread of `filter --method random` spends its CPU: the same JSONL corpus through
// each stage in turn, in this process, each timed RUNS times (CPU seconds of the whole process,
// median). A stage's cost is its row minus the row above it. With BASE_DIST set to another
// build's dist folder, each stage runs with both builds in turn (A B A B ...) and the ratio
// A/B of each pair is printed too (median): ratios within one run are what a shared machine
// can be trusted for.
//   npx tsc -p tsconfig.json && node scripts/bench/stages.js [corpus.jsonl]
//   BASE_DIST=/path/to/other/checkout/dist node scripts/bench/stages.js /tmp/corpus-80mb.jsonl
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCorpus } from '../make-corpus.js';
import { benchDir } from './e2e.js';

const RUNS = Number(process.env.BENCH_STAGES_RUNS ?? 5);
const ROOT = new URL('../../', import.meta.url).pathname;

async function build(dist) {
  const m = async (p) => import(join(dist, p));
  const { readDocuments, DEFAULT_READER } = await m('io/documents.js');
  const scored = await m('passes/scored.js');
  const { randomSelector } = await m('select/random.js');
  // A name from the first of its modules that the build has (later builds moved some).
  const from = async (name, ...paths) => {
    for (const p of paths) if (existsSync(join(dist, p)) && (await m(p))[name]) return (await m(p))[name];
    throw new Error(`${dist} has no ${name} in ${paths.join(' or ')}`);
  };
  const spillScores = await from('spillScores', 'passes/spill-pass.js', 'passes/passes.js');
  const { emitKept } = await m('passes/passes.js');
  const { exactCut } = await m('cut/exact.js');
  const RunWriter = await from('RunWriter', 'passes/passes.js', 'pipeline/runs.js');
  const emptyTally = await from('emptyTally', 'passes/keep-tally.js', 'pipeline/runs.js');
  const { Sink } = await m('io/sink.js');
  const scorer = await randomSelector.load({ method: 'random', params: { seed: 0 }, state: {} }, { seed: 0 });
  const reader = { ...DEFAULT_READER };
  // A build without span scoring slices every sentence and scores the strings.
  const scoreDocs = (docs) => (scored.scoreDocBatches ? scored.scoreDocBatches(docs, scorer) : scored.scoreBatches(scored.splitBatches(docs), scorer));
  const splitOnly = (docs) => scored.splitBatches(docs, 4096, false);
  return { readDocuments, reader, scoreDocs, splitOnly, spillScores, emitKept, exactCut, RunWriter, emptyTally, Sink };
}

function stages(b, corpus, work) {
  const read = () => b.readDocuments([corpus], b.reader);
  const paths = { spill: join(work, 'spill'), docIndex: join(work, 'index') };
  const pass1 = () => b.spillScores(b.scoreDocs(read()), 'random', 15, undefined, paths, () => {});
  return {
    'read + JSON.parse': async () => { for await (const _ of read()); },
    '+ split': async () => { for await (const _ of b.splitOnly(read())); },
    '+ random scores': async () => { for await (const _ of b.scoreDocs(read())); },
    'pass 1 (+ segments, spill, doc index)': pass1,
    'pass 2 (emit 20%)': async () => {
      const { sketch } = await pass1();
      const cut = b.exactCut(sketch, [paths.spill], 0.2, 'sentences');
      const t = cpu();
      const sink = b.Sink.toFile(join(work, 'out.jsonl'));
      await b.emitKept((triage) => b.readDocuments([corpus], b.reader, triage ? { triage } : {}), { segment: 15, spillPath: paths.spill, docIndexPath: paths.docIndex, cut }, new b.RunWriter(sink, b.reader), b.emptyTally());
      await sink.close();
      return cpu() - t;
    },
  };
}

function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function timed(fn) {
  const t = cpu();
  const inner = await fn();
  return typeof inner === 'number' ? inner : cpu() - t;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let corpus = process.argv[2];
if (!corpus) {
  corpus = join(benchDir(), 'corpus-80mb.jsonl');
  if (!existsSync(corpus)) await makeCorpus(corpus, 80, 'jsonl', 1);
}
const mb = statSync(corpus).size / 1e6;
const work = mkdtempSync(join(tmpdir(), 'tadpole-stages-'));
try {
  const a = stages(await build(join(ROOT, 'dist')), corpus, work);
  const base = process.env.BASE_DIST ? stages(await build(process.env.BASE_DIST), corpus, work) : undefined;
  console.log(`stages of filter --method random, one thread, ${mb.toFixed(1)} MB JSONL, CPU seconds, median of ${RUNS}${base ? ' (A: this build, B: BASE_DIST)' : ''}`);
  for (const name of Object.keys(a)) {
    const ta = [];
    const tb = [];
    // One untimed run of each first: the JIT's warm-up is not a stage's cost.
    await a[name]();
    if (base) await base[name]();
    for (let r = 0; r < RUNS; r++) {
      ta.push(await timed(a[name]));
      if (base) tb.push(await timed(base[name]));
    }
    const line = `stages.${name}: A ${median(ta).toFixed(3)} s (${(mb / median(ta)).toFixed(1)} MB/s)`;
    console.log(base ? `${line}  B ${median(tb).toFixed(3)} s  A/B ${median(ta.map((x, i) => x / tb[i])).toFixed(3)}` : line);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
