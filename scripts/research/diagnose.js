// Where does a method go wrong on one suite mix? Per SOURCE (file, not label):
// its share of the mix, of the kept text and how much of it was kept; then examples of the
// out-of-domain segments kept with the best scores and of the in-domain segments missed.
// Uses the mix, task and general sample cached by suite.js (run that first for the spec).
//
// usage: node scripts/research/diagnose.js SPEC METHOD [EXAMPLES]
//   e.g. node scripts/research/diagnose.js news-agnews 'tadpole:{"detector":"auto","candidates":"classifier+dsir"}' 8
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { readSourceDocs } from '../../dist/eval/sources.js';
import { segmentScores } from '../../dist/threads/segment-scores.js';
import { selectKeptInMemory } from '../../dist/cut/exact.js';
import { fitModel } from '../../dist/model/fit.js';
import { openScorer } from '../../dist/model/open.js';
import { optionsWithKeep } from '../../dist/model/complete.js';
import { inDomainShare, loadSuiteSpec } from './suite-cache.js';

const READER = { format: 'jsonl', textField: 'text', docPerLine: false, strict: true };
const ROOT = new URL('../../', import.meta.url).pathname;
const [name, m, nEx = '6'] = process.argv.slice(2);
const SUITE_DIR = process.env.SUITE_DIR ?? join(ROOT, 'corpora/suite');
const specPath = join(SUITE_DIR, `${name}.json`);
// keep "share" (the scarce suite): the in-domain share of the mix's sentences, set below from the cache.
const { spec, keepShare } = await loadSuiteSpec(specPath);
// suite.js keys its cache directories `${spec.name}-${key}`: take the newest for this spec.
const base = join(tmpdir(), 'tadpole-research', 'suite');
const dir = readdirSync(base)
  .filter((d) => d.startsWith(`${spec.name}-`))
  .map((d) => join(base, d))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!dir) throw new Error(`no cache for ${spec.name}: run suite.js with SPECS=${name} first`);
const c = JSON.parse(readFileSync(join(dir, 'cache.json'), 'utf8'));
if (keepShare) {
  spec.keep = inDomainShare(c);
}

// Source of every mix document, matched by its text.
const sourceOf = new Map();
for (const s of spec.sources) {
  const key = `${s.label}:${dirname(s.files[0]).split('/').pop()}`;
  for await (const text of readSourceDocs(s)) sourceOf.set(text, key);
}
const docSource = readFileSync(join(dir, 'mix.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => sourceOf.get(JSON.parse(l).text) ?? '?');

const [method, json] = m.split(/:(.*)/s);
// As the eval fits: the general sample in whole segments (self-training), the options sized for the share kept.
const model = await fitModel({ method, task: c.task, general: c.general.slice(0, Number(process.env.GENERAL ?? spec.generalSample)), generalGroups: c.generalGroups.slice(0, Number(process.env.GENERAL ?? spec.generalSample)), seed: spec.seed, options: optionsWithKeep(method, json ? JSON.parse(json) : {}, spec.keep) });
const inner = await openScorer(model);
const sentences = [];
const recorder = { method: 'record', score: async (s) => { sentences.push(...s); return inner.score(s); }, dispose: async () => {} };
const segs = [];
for await (const batch of segmentScores({ inputs: [join(dir, 'mix.jsonl')], reader: READER, scorer: recorder, segment: spec.segment })) segs.push(...batch);
await inner.dispose();

const kept = selectKeptInMemory(Float64Array.from(segs, (s) => s.score), Float64Array.from(segs, (s) => s.sentences), spec.keep);
const per = new Map();
let keptBytes = 0;
let allBytes = 0;
let at = 0;
segs.forEach((s, i) => {
  s.text = sentences.slice(at, at + s.sentences);
  at += s.sentences;
  s.source = docSource[s.doc];
  s.kept = kept[i] === 1;
  const p = per.get(s.source) ?? { bytes: 0, kept: 0, segs: 0 };
  p.bytes += s.bytes;
  p.segs++;
  if (s.kept) p.kept += s.bytes;
  per.set(s.source, p);
  allBytes += s.bytes;
  if (s.kept) keptBytes += s.bytes;
});
console.log(`${name} / ${m}: task ${c.task.length} sentences, general ${Math.min(c.general.length, spec.generalSample)}, ${segs.length} segments`);
console.log('source\tmix%\tkept%\trecall%\tsegments');
for (const [k, p] of [...per].sort((a, b) => b[1].kept - a[1].kept)) {
  console.log(`${k}\t${((100 * p.bytes) / allBytes).toFixed(1)}\t${((100 * p.kept) / keptBytes).toFixed(1)}\t${((100 * p.kept) / p.bytes).toFixed(1)}\t${p.segs}`);
}
const isIn = (s) => s.source.startsWith(`${spec.inDomain}:`);
const show = (s) => `  [${s.source} score ${s.score.toFixed(2)}, ${s.sentences} sent] ${s.text.join(' | ').replace(/\s+/g, ' ').slice(0, 400)}`;
const ex = Number(nEx);
console.log(`\nout-of-domain kept, best-scored first:`);
for (const s of segs.filter((x) => x.kept && !isIn(x)).sort((a, b) => a.score - b.score).slice(0, ex)) console.log(show(s));
console.log(`\nout-of-domain kept, near the cut:`);
for (const s of segs.filter((x) => x.kept && !isIn(x)).sort((a, b) => b.score - a.score).slice(0, ex)) console.log(show(s));
console.log(`\nin-domain missed, nearest the cut first:`);
for (const s of segs.filter((x) => !x.kept && isIn(x)).sort((a, b) => a.score - b.score).slice(0, ex)) console.log(show(s));
console.log(`\ntask sentences (first ${ex}):`);
for (const t of c.task.slice(0, ex)) console.log(`  ${t.slice(0, 200)}`);
