// Scorer cost by method: `tadpole filter` MB/s on the same corpus, one process each, in one
// run, and each method's time as a multiple of `--method random` (the bare pipeline). The
// issue-10 budget: the default may cost at most 2x random. Each run's kept share is checked
// before its time is reported.
// BENCH_SELECTORS_MB sets the corpus size (default 20); BENCH_SELECTORS=random,dsir,... picks methods.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeCorpus } from '../make-corpus.js';
import { benchDir, fitBenchModel, runMeasured } from './e2e.js';

const METHODS = {
  random: ['--method', 'random'],
  default: [],
  dsir: ['--method', 'dsir'],
  classifier: ['--method', 'classifier'],
  distance: ['--method', 'distance'],
  'classifier+distance': ['--detector', 'ensemble', '--option', 'components=classifier,distance'],
  auto: ['--method', 'auto'],
  'ensemble (the old default)': ['--detector', 'ensemble'],
};

const mb = Number(process.env.BENCH_SELECTORS_MB ?? 20);
const only = process.env.BENCH_SELECTORS?.split(',');
const dir = benchDir();
const corpus = join(dir, `corpus-${mb}mb.jsonl`);
if (!existsSync(corpus)) await makeCorpus(corpus, mb, 'jsonl', 1);
const size = statSync(corpus).size / 1e6;
let randomSeconds;
for (const [label, extra] of Object.entries(METHODS)) {
  if (only && !only.includes(label) && label !== 'random') continue;
  const model = fitBenchModel(dir, extra, `model-sel-${label.replace(/\W/g, '_')}.json`);
  const stats = join(dir, `stats-sel-${label.replace(/\W/g, '_')}.json`);
  const r = runMeasured(['filter', '-m', model, corpus, '-o', join(dir, 'kept-sel.jsonl'), '--stats', stats, '-q']);
  const s = JSON.parse(readFileSync(stats, 'utf8'));
  if (Math.abs(s.sentences.kept - 0.2 * s.sentences.total) > 15) throw new Error(`${label}: kept share is off`);
  randomSeconds ??= r.seconds;
  console.log(`selectors.${label}: ${(size / r.seconds).toFixed(2)} MB/s on ${size.toFixed(0)} MB, ${(r.seconds / randomSeconds).toFixed(2)}x random's time (pass1 ${s.seconds.pass1.toFixed(1)}s, pass2 ${s.seconds.pass2.toFixed(1)}s)`);
}
