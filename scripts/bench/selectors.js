// Scorer cost by method: `tadpole filter` MB/s on the same corpus, one process each, in one
// run, and each method's time as a multiple of `--method random` (the bare pipeline), one
// scoring thread (--workers 1: the budget is per worker). The
// budget: the default may cost at most 2x random. Each run's kept share is checked
// before its time is reported.
// BENCH_SELECTORS_MB sets the corpus size (default 20); BENCH_SELECTORS=random,dsir,... picks methods.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeCorpus } from '../make-corpus.js';
import { spawnSync } from 'node:child_process';
import { benchDir, fitBenchModel } from './e2e.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The CLI in a child; wall seconds and the child's own CPU seconds (user + system), which a shared machine disturbs less. */
function runTimed(args) {
  const wrapper = `import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))}).then(async (m) => { const c = await m.main(${JSON.stringify(args)}); const u = process.resourceUsage(); process.stderr.write('\\nBENCH_CPU_US ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); process.exitCode = c; })`;
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', wrapper], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`tadpole ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const m = /BENCH_CPU_US (\d+)/.exec(r.stderr);
  return { seconds, cpu: m ? Number(m[1]) / 1e6 : NaN };
}

const METHODS = {
  random: ['--method', 'random'],
  default: [],
  // The default as a telegraphic task gets it: the hasher skips function words.
  'default-no-function-words': ['--option', 'functionWords=skip'],
  // The default with a style view (--option style=on): a third classifier, on style n-grams.
  'default-style': ['--option', 'style=on', '--option', 'moveBy=consensus'],
  dsir: ['--method', 'dsir'],
  classifier: ['--method', 'classifier'],
  distance: ['--method', 'distance'],
  'classifier+dsir': ['--detector', 'ensemble', '--option', 'components=classifier,dsir'],
  // The default before subword features: word 1-2-grams only.
  'classifier+dsir-words': ['--detector', 'ensemble', '--option', 'components=classifier:features=words:rounds=1,dsir'],
  'classifier+dsir+distance': ['--detector', 'ensemble', '--option', 'components=classifier,dsir,distance'],
  auto: ['--method', 'auto'],
  'ensemble (the old default)': ['--detector', 'ensemble'],
};

const mb = Number(process.env.BENCH_SELECTORS_MB ?? 20);
const only = process.env.BENCH_SELECTORS?.split(',');
const dir = benchDir();
const corpus = join(dir, `corpus-${mb}mb.jsonl`);
if (!existsSync(corpus)) await makeCorpus(corpus, mb, 'jsonl', 1);
const size = statSync(corpus).size / 1e6;
let randomCpu;
for (const [label, extra] of Object.entries(METHODS)) {
  if (only && !only.includes(label) && label !== 'random') continue;
  const model = fitBenchModel(dir, extra, `model-sel-${label.replace(/\W/g, '_')}.json`);
  const stats = join(dir, `stats-sel-${label.replace(/\W/g, '_')}.json`);
  const r = runTimed(['filter', '-m', model, corpus, '-o', join(dir, 'kept-sel.jsonl'), '--stats', stats, '-q', '--workers', '1']);
  const s = JSON.parse(readFileSync(stats, 'utf8'));
  if (Math.abs(s.sentences.kept - 0.2 * s.sentences.total) > 15) throw new Error(`${label}: kept share is off`);
  randomCpu ??= r.cpu;
  console.log(`selectors.${label}: ${(size / r.cpu).toFixed(2)} MB per CPU second (${(size / r.seconds).toFixed(2)} MB/s wall) on ${size.toFixed(0)} MB, ${(r.cpu / randomCpu).toFixed(2)}x random's CPU time (pass1 ${s.seconds.pass1.toFixed(1)}s, pass2 ${s.seconds.pass2.toFixed(1)}s wall)`);
}
