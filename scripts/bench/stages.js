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
  const scored = await m(existsSync(join(dist, 'passes/scored.js')) ? 'passes/scored.js' : 'pipeline/scored.js');
  const { randomSelector } = await m('select/random.js');
  // A name from the first of its modules that the build has (later builds moved some).
  const from = async (name, ...paths) => {
    for (const p of paths) if (existsSync(join(dist, p)) && (await m(p))[name]) return (await m(p))[name];
    throw new Error(`${dist} has no ${name} in ${paths.join(' or ')}`);
  };
  const scorer = await randomSelector.load({ method: 'random', params: { seed: 0 }, state: {} }, { seed: 0 });
  const reader = { ...DEFAULT_READER };
  // A build without span scoring slices every sentence and scores the strings.
  const scoreDocs = (docs) => (scored.scoreDocBatches ? scored.scoreDocBatches(docs, scorer) : scored.scoreBatches(scored.splitBatches(docs), scorer));
  const { exactCut } = await m('cut/exact.js');
  const { ReadCounters } = await m('io/documents.js');
  // Pass 1 and pass 2 as the build runs them: its one pass bodies (passes/score-pass.js,
  // passes/emit-pass.js), or, in a build from before them, the stream's own loops.
  const passes = existsSync(join(dist, 'passes/score-pass.js'))
    ? await (async () => {
        const { scorePass } = await m('passes/score-pass.js');
        const { emitPass } = await m('passes/emit-pass.js');
        const { SpilledSegments } = await m('passes/segment-sources.js');
        const { RunWriter } = await m('passes/run-writer.js');
        const { emptyTally } = await m('passes/keep-tally.js');
        const { NO_SCORE_CHECKPOINTS, NO_EMIT_CHECKPOINTS } = await m('passes/hooks.js');
        const hooks = { progress: () => {}, abortedBy: () => undefined };
        const settings = { segment: 15, docContext: 15, tokenizer: undefined };
        return {
          pass1: (read, paths) => scorePass({ read: (counters) => read({ counters }), score: scoreDocs, method: 'random', settings, paths, hooks, checkpoints: NO_SCORE_CHECKPOINTS }),
          pass2: (read, paths, cut, sink) => {
            const counters = new ReadCounters();
            const source = new SpilledSegments((triage) => read({ counters, triage }), { ...paths, indexed: true, segment: 15, id: 0, spillRecord: 0, indexOffset: 0, cut, fetchKept: undefined });
            return emitPass({ source, writer: { kind: 'kept', cut }, out: new RunWriter(sink, reader), counters, tally: emptyTally(), docs: 0, consumed: 0, stop: () => false, hooks, checkpoints: NO_EMIT_CHECKPOINTS });
          },
        };
      })()
    : await (async () => {
        const spillScores = await from('spillScores', 'pipeline/spill-pass.js', 'pipeline/passes.js');
        const { emitKept, RunWriter } = await m('pipeline/passes.js');
        const { emptyTally } = await m('pipeline/keep-tally.js');
        return {
          pass1: (read, paths) => spillScores(scoreDocs(read({})), 'random', 15, undefined, paths, () => {}),
          pass2: (read, paths, cut, sink) => emitKept((triage) => read(triage ? { triage } : {}), { segment: 15, spillPath: paths.spill, docIndexPath: paths.docIndex, cut }, new RunWriter(sink, reader), emptyTally()),
        };
      })();
  const { Sink } = await m('io/sink.js');
  const splitOnly = (docs) => scored.splitBatches(docs, 4096, false);
  return { readDocuments, reader, scoreDocs, splitOnly, ...passes, exactCut, Sink };
}

function stages(b, corpus, work) {
  const read = (o = {}) => b.readDocuments([corpus], b.reader, o);
  const paths = { spill: join(work, 'spill'), docIndex: join(work, 'index') };
  const pass1 = () => b.pass1(read, paths);
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
      await b.pass2(read, paths, cut, sink);
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
