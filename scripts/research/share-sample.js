// How much of a mix looks like its task, as the default's fit reads it from its general sample
// (src/select/share-probe.ts, src/cut/share-estimate.ts), against the truth, at keeps 0.05, 0.2
// and the true share: docs/benchmarks/task-share.md. The default is fitted as the eval fits it
// (its sample drawn as filter draws it, the fit sized for the keep); the reading is the model's.
// Only the sample's size depends on the keep (model/complete.ts, sampleSizeFor), so keeps with the
// same sample size share one fit unless ALLKEEPS=1, which fits every keep apart to show it.
//
// Each mix is built once by the eval's code and cached in $TMPDIR/tadpole-research/share (the
// mix file, its true in-domain share of sentences, its in-domain sentences, to give the in-domain
// share of each sample too).
//
// usage: [ALLKEEPS=1] node scripts/research/share-sample.js corpora/suite-scarce/*.json corpora/suite/*.json ...
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadSpec } from '../../dist/eval/spec.js';
import { buildMix } from '../../dist/eval/mix.js';
import { readSourceDocs } from '../../dist/eval/sources.js';
import { readSentences } from '../../dist/io/sentences.js';
import { sampleSentences } from '../../dist/io/sample.js';
import { readDocuments } from '../../dist/io/documents.js';
import { splitSentences } from '../../dist/text/sentences.js';
import { fitModel } from '../../dist/model/fit.js';
import { optionsWithKeep, sampleSizeFor } from '../../dist/model/complete.js';
import { taskShareOf } from '../../dist/cut/share-estimate.js';

const READER = { format: 'jsonl', textField: 'text', docPerLine: false, strict: true };
const KEEPS = [0.05, 0.2, 'share'];

/** The mix, its true in-domain share and its in-domain sentences, built once per spec. */
async function mixOf(spec) {
  const key = createHash('sha256').update(JSON.stringify({ sources: spec.sources, seed: spec.seed, mixBytes: spec.mixBytes, task: spec.task, segment: spec.segment })).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), 'tadpole-research', 'share', `${spec.name}-${key}`);
  const meta = join(dir, 'mix.json');
  if (existsSync(meta)) return { dir, ...JSON.parse(readFileSync(meta, 'utf8')) };
  mkdirSync(dir, { recursive: true });
  const mix = await buildMix({ sources: spec.sources, seed: spec.seed, mixBytes: spec.mixBytes, out: join(dir, 'mix.jsonl') });
  const inIdx = mix.labels.indexOf(spec.inDomain);
  const inDomain = new Set();
  let all = 0;
  let inside = 0;
  let d = 0;
  for await (const docs of readDocuments([mix.file], READER)) {
    for (const doc of docs) {
      const cuts = splitSentences(doc.text);
      all += cuts.length / 2;
      if (mix.docLabel[d++] !== inIdx) continue;
      inside += cuts.length / 2;
      for (let i = 0; i < cuts.length; i += 2) inDomain.add(doc.text.slice(cuts[i], cuts[i + 1]));
    }
  }
  const lines = [];
  for await (const text of readSourceDocs(spec.task)) lines.push(JSON.stringify({ text }));
  writeFileSync(join(dir, 'task.jsonl'), lines.join('\n') + '\n');
  const out = { file: mix.file, truth: inside / all, inDomain: [...inDomain] };
  writeFileSync(meta, JSON.stringify(out));
  return { dir, ...out };
}

const pct = (x) => `${(100 * x).toFixed(2)}%`;
const rows = [];
for (const file of process.argv.slice(2)) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const spec = await loadSpec(raw.keep === 'share' ? writeShareCopy(file, raw) : file);
  const t0 = performance.now();
  const mix = await mixOf(spec);
  const inDomain = new Set(mix.inDomain);
  const task = await readSentences([join(mix.dir, 'task.jsonl')], { ...READER, ...(spec.maxTaskSentences ? { limit: spec.maxTaskSentences, seed: spec.seed } : {}) });
  const keeps = KEEPS.map((k) => (k === 'share' ? mix.truth : raw.keep === 'share' || typeof k === 'number' ? k : spec.keep));
  // Every keep's fit reads the same sample when their samples are the same size (ALLKEEPS=1 fits each anyway, to check it).
  const byKey = new Map();
  // GENERAL=n: the sample filter asks for (20,000 by default) in place of the spec's.
  const asked = Number(process.env.GENERAL ?? spec.generalSample);
  const keyOf = (keep) => (process.env.ALLKEEPS ? String(keep) : String(sampleSizeFor(asked, keep)));
  for (const keep of keeps) {
    if (byKey.has(keyOf(keep))) continue;
    const n = sampleSizeFor(asked, keep);
    const sample = await sampleSentences([mix.file], READER, { size: n, seed: spec.seed + 1 });
    let sampleTruth = 0;
    for (const s of sample.sentences) if (inDomain.has(s)) sampleTruth++;
    sampleTruth /= sample.sentences.length;
    const model = await fitModel({ method: 'contrast', task, general: sample.sentences, generalGroups: sample.groups, seed: spec.seed, options: optionsWithKeep('contrast', {}, keep) });
    byKey.set(keyOf(keep), { reading: taskShareOf(model), sampleTruth, n });
  }
  const seconds = (performance.now() - t0) / 1000;
  for (const keep of keeps) {
    const { reading, sampleTruth, n } = byKey.get(keyOf(keep));
    // The range: both sides, or one (a floor "at least", low > 0, high 1; a ceiling "at most", low 0), or none.
    const est = reading?.share;
    const ok = est ? est.low <= mix.truth && mix.truth <= est.high : undefined;
    const ratio = est?.estimate !== undefined ? est.estimate / mix.truth : undefined;
    const sides = !est ? 'none' : est.low > 0 && est.high < 1 ? 'two-sided' : est.low > 0 ? 'floor' : 'ceiling';
    rows.push({ name: spec.name, keep, truth: mix.truth, est, ok, ratio, sides });
    const range = !est ? 'no range' : sides === 'floor' ? `at least ${pct(est.low)}` : sides === 'ceiling' ? `at most ${pct(est.high)}` : `${pct(est.low)}-${pct(est.high)}`;
    const what = ratio !== undefined ? `${pct(est.estimate)} x${ratio.toFixed(2)}` : `no estimate (${reading?.none ?? 'no reading'})`;
    console.log(`${spec.name}\tkeep ${keep === mix.truth ? 'share' : keep}\tsample ${n}\ttruth ${pct(mix.truth)} (sample ${pct(sampleTruth)})\t${what}\t${range}\tin range: ${ok === undefined ? '-' : ok ? 'yes' : 'NO'}\t${seconds.toFixed(0)} s`);
  }
}
const mixes = [...new Set(rows.map((r) => r.name))];
const bad = rows.filter((r) => r.ratio !== undefined && (r.ratio > 1.5 || r.ratio < 1 / 1.5));
const count = (f) => rows.filter(f).length;
console.log(`${mixes.length} mixes, ${rows.length} rows: a point estimate on ${count((r) => r.ratio !== undefined)}, off by more than 1.5x on ${bad.length} (${bad.map((r) => r.name).join(', ') || 'none'}); a range on ${count((r) => r.est)} (two-sided ${count((r) => r.sides === 'two-sided')}, a floor only ${count((r) => r.sides === 'floor')}, a ceiling only ${count((r) => r.sides === 'ceiling')}), holding the truth on ${count((r) => r.ok)}, missing it on ${count((r) => r.ok === false)}`);

function writeShareCopy(file, raw) {
  const dir = join(tmpdir(), 'tadpole-research', 'share-specs');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, file.split('/').pop());
  writeFileSync(out, JSON.stringify({ ...raw, keep: 0.01 }));
  return out;
}

