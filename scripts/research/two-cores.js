// What two cores of this machine give the default's scoring loop, with no I/O, no pool and
// nothing shared: the splitter and the model's scorer run over the same in-memory
// documents, ROUNDS times, alone, then as two processes side by side, then as two worker
// threads of one process side by side. If two streams together get well under 2x of one
// alone, the ceiling of `filter --workers 2` on this machine is the machine's, not the pool's.
//
// usage: node scripts/research/two-cores.js [alone|processes|threads|all]   (default all)
// env: MODEL (default $TADPOLE_BENCH_DIR/model-workers-default.json, as the workers bench fits
// it), CORPUS (default $TADPOLE_BENCH_DIR/corpus-15mb.jsonl, the bench's mix); either is made
// when missing. ROUNDS=6.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { openScorer } from '../../dist/model/open.js';
import { splitSentences } from '../../dist/text/sentences.js';
import { makeCorpus } from '../make-corpus.js';
import { fitBenchModel } from '../bench/e2e.js';

const DIR = process.env.TADPOLE_BENCH_DIR ?? join(new URL('../../', import.meta.url).pathname, '.bench');
const MODEL = process.env.MODEL ?? join(DIR, 'model-workers-default.json');
const CORPUS = process.env.CORPUS ?? join(DIR, 'corpus-15mb.jsonl');
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const DOCS_PER_BATCH = 200;

/** MB/s of split + score over the corpus, ROUNDS times. */
async function stream() {
  const scorer = await openScorer(JSON.parse(readFileSync(MODEL, 'utf8')), {});
  const docs = readFileSync(CORPUS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).text);
  const t = performance.now();
  let chars = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < docs.length; i += DOCS_PER_BATCH) {
      const sentences = [];
      for (const d of docs.slice(i, i + DOCS_PER_BATCH)) {
        chars += d.length;
        const spans = splitSentences(d);
        for (let k = 0; k < spans.length; k += 2) sentences.push(d.slice(spans[k], spans[k + 1]));
      }
      await scorer.score(sentences);
    }
  }
  await scorer.dispose();
  return chars / 1e6 / ((performance.now() - t) / 1000);
}

/** One stream in a child process of its own: its MB/s. */
function inChild() {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [new URL(import.meta.url).pathname, 'child'], (err, out) => (err ? reject(err) : resolve(Number(out.trim()))));
  });
}

/** One stream in a worker thread of this process: its MB/s. */
function inThread() {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url));
    w.once('message', resolve);
    w.once('error', reject);
  });
}

const mode = process.argv[2] ?? 'all';
if (!isMainThread) parentPort.postMessage(await stream());
else if (mode === 'child') console.log(await stream());
else {
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(CORPUS)) await makeCorpus(CORPUS, 15, 'jsonl', 1);
  if (!existsSync(MODEL)) {
    if (process.env.MODEL) throw new Error(`no model at ${MODEL}`);
    fitBenchModel(DIR, [], 'model-workers-default.json');
  }
  const alone = mode === 'alone' || mode === 'all' ? await inChild() : undefined;
  if (alone !== undefined) console.log(`alone: ${alone.toFixed(2)} MB/s`);
  for (const kind of ['processes', 'threads']) {
    if (mode !== kind && mode !== 'all') continue;
    const one = kind === 'processes' ? inChild : inThread;
    const rates = await Promise.all([one(), one()]);
    const sum = rates.reduce((a, b) => a + b, 0);
    console.log(`two ${kind} side by side: ${rates.map((r) => r.toFixed(2)).join(' + ')} = ${sum.toFixed(2)} MB/s${alone ? ` (${(sum / alone).toFixed(2)}x of one alone)` : ''}`);
  }
}
