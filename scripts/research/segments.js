// Segment-level selection research: what the product measures.
// Builds the labelled mix of an eval spec (corpora/*.json) with the eval's own code, splits it
// into sentences and 15-sentence segments exactly as `tadpole filter` does (segmentScores),
// scores every sentence once per method (fitModel + openScorer, as `tadpole fit`/`filter`),
// keeps the lowest-scoring 20% of sentences by segment mean (selectKeptInMemory) and prints
// where the kept sentences came from. Sentence scores are cached, so `z:` combinations of
// methods (each z-normalised with mean/std of its scores on the general sample, which is
// what a streaming scorer can fix at fit time) cost nothing extra.
//
// usage: node scripts/research/segments.js SPEC TASK[,TASK] METHOD...
//   SPEC   corpora/figure5-bio.json | corpora/distractors-bio.json (sources, keep, segment, seed)
//   TASK   spec (the spec's own task) | chemprot | acl-arc | ag-news | phrasebank | mr
//   METHOD name[:{"option":v,"embedder":{"kind":"onnx","modelDir":"DIR"}}]  or  z:A+B+...
//          (A, B = earlier METHOD strings of the same run)
// env: MIX_BYTES (default 12e6), GENERAL (general sample sentences, default the spec's), SEED
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadSpec, resolveSharedPath } from '../../dist/eval/spec.js';
import { buildMix } from '../../dist/eval/mix.js';
import { readSourceDocs } from '../../dist/eval/sources.js';
import { readSentences } from '../../dist/io/sentences.js';
import { segmentScores } from '../../dist/threads/segment-scores.js';
import { keptSegments } from './segment-cut.js';
import { fitModel } from '../../dist/model/fit.js';
import { openScorer } from '../../dist/model/open.js';

const READER = { format: 'jsonl', textField: 'text', docPerLine: false, strict: true };
const MIX_BYTES = Number(process.env.MIX_BYTES ?? 12e6);
const BATCH = 4096;

/** Task corpora by name; the untuned ones (not used while choosing the default) last. */
const TASKS = {
  chemprot: { inDomain: 'bio', files: ['train', 'dev', 'test'].map((f) => `corpora/task-chemprot/${f}.jsonl.gz`), format: 'jsonl-text', normalize: ['strip-markers'], dedupe: true },
  'acl-arc': { inDomain: 'cs', files: ['train', 'dev', 'test'].map((f) => `corpora/task-acl-arc-citation-intent/${f}.jsonl.gz`), format: 'jsonl-text', normalize: ['detokenize'], dedupe: true },
  'ag-news': { inDomain: 'news', files: ['corpora/task-ag-news/test.csv.gz'], format: 'csv', columns: ['title', 'description'], dedupe: true },
  phrasebank: { inDomain: 'finance', files: ['corpora/task-financial-phrasebank/Sentences_50Agree.txt.gz'], format: 'lines', encoding: 'latin1', stripAfterLast: '@', dedupe: true },
  // Same repair as the reviews source of the distractors mix (lower-cased, tokenised).
  mr: { inDomain: 'reviews', files: ['corpora/task-mr-sentence-polarity/text_train.txt.gz'], format: 'lines', normalize: ['detokenize', 'truecase'], dedupe: true },
};

async function writeJsonl(docs, file) {
  const out = [];
  for await (const text of docs) out.push(JSON.stringify({ text }));
  writeFileSync(file, out.join('\n') + '\n');
}

/** Mix (whole documents), its flat sentence list and segments, cached per spec + size. */
async function loadMix(spec, dir) {
  const meta = join(dir, 'mix-meta.json');
  if (existsSync(meta)) return JSON.parse(readFileSync(meta, 'utf8'));
  const mix = await buildMix({ sources: spec.sources, seed: spec.seed, mixBytes: MIX_BYTES, out: join(dir, 'mix.jsonl'), log: (l) => process.stderr.write(l + '\n') });
  const sentences = [];
  const recorder = { method: 'record', score: async (s) => { sentences.push(...s); return new Float64Array(s.length); }, dispose: async () => {} };
  const segs = [];
  for await (const batch of segmentScores({ inputs: [mix.file], reader: READER, scorer: recorder, segment: spec.segment })) for (const r of batch) segs.push([r.doc, r.sentences]);
  const total = segs.reduce((a, s) => a + s[1], 0);
  if (total !== sentences.length) throw new Error(`segments cover ${total} sentences, scorer saw ${sentences.length}`);
  const m = { file: mix.file, labels: mix.labels, docLabel: Array.from(mix.docLabel), segs, sentences };
  writeFileSync(meta, JSON.stringify(m));
  return m;
}

async function loadTask(name, spec, dir, mix) {
  const file = join(dir, `task-${name}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const fs = name === 'spec' ? { ...spec.task, inDomain: spec.inDomain } : { ...TASKS[name], files: TASKS[name].files.map(resolveSharedPath) };
  const tf = join(dir, `task-${name}.jsonl`);
  await writeJsonl(readSourceDocs(fs), tf);
  const task = await readSentences([tf], READER);
  const general = await readSentences([mix.file], { ...READER, limit: Number(process.env.GENERAL ?? spec.generalSample), seed: spec.seed + 1 });
  const t = { inDomain: fs.inDomain, task, general };
  writeFileSync(file, JSON.stringify(t));
  return t;
}

async function scoreAll(scorer, sentences) {
  const out = new Float64Array(sentences.length);
  for (let i = 0; i < sentences.length; i += BATCH) out.set(await scorer.score(sentences.slice(i, i + BATCH)), i);
  return out;
}

function segmentShares(scores, mix, keep) {
  const kept = keptSegments(scores, mix.segs, keep);
  const by = {};
  let total = 0;
  mix.segs.forEach(([doc, count], i) => {
    if (!kept[i]) return;
    const l = mix.labels[mix.docLabel[doc]];
    by[l] = (by[l] ?? 0) + count;
    total += count;
  });
  return Object.fromEntries(Object.entries(by).map(([k, v]) => [k, v / total]));
}

const [specFile, taskList, ...methods] = process.argv.slice(2);
const spec = await loadSpec(specFile);
const seed = Number(process.env.SEED ?? spec.seed);
const dir = join(tmpdir(), 'tadpole-research', `${spec.name}-${MIX_BYTES}`);
mkdirSync(dir, { recursive: true });
const mix = await loadMix(spec, dir);
const base = Object.fromEntries(mix.labels.map((l) => [l, 0]));
mix.segs.forEach(([doc, c]) => (base[mix.labels[mix.docLabel[doc]]] += c / mix.sentences.length));
console.log(`# ${spec.name}: ${mix.sentences.length} sentences, ${mix.segs.length} segments; mix share ${Object.entries(base).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}`).join(', ')}`);

for (const taskName of taskList.split(',')) {
  const { inDomain, task, general } = await loadTask(taskName, spec, dir, mix);
  console.log(`## task ${taskName} (${task.length} sentences), in-domain ${inDomain} (${(100 * base[inDomain]).toFixed(1)}% of the mix), general sample ${general.length}`);
  const cache = new Map();
  for (const m of methods) {
    const t0 = performance.now();
    let scores, info = '';
    if (m.startsWith('z:')) {
      scores = new Float64Array(mix.sentences.length);
      for (const part of m.slice(2).split('+')) {
        const r = cache.get(part);
        if (!r) throw new Error(`z: ${part} was not run before`);
        const g = r.general;
        const mu = g.reduce((a, b) => a + b, 0) / g.length;
        const sd = Math.sqrt(g.reduce((a, b) => a + (b - mu) ** 2, 0) / g.length) || 1;
        for (let i = 0; i < scores.length; i++) scores[i] += (r.scores[i] - mu) / sd;
      }
    } else {
      const [name, json] = m.split(/:(.*)/s);
      const { embedder, ...options } = json ? JSON.parse(json) : {};
      const emb = embedder ? { ...embedder, ...(embedder.modelDir ? { modelDir: resolveSharedPath(embedder.modelDir) } : {}) } : undefined;
      const model = await fitModel({ method: name, task, general, ...(emb ? { embedder: emb } : {}), seed, options });
      const t1 = performance.now();
      const scorer = await openScorer(model);
      const c1 = process.cpuUsage();
      scores = await scoreAll(scorer, mix.sentences);
      const t2 = performance.now();
      // CPU time of this process (the ONNX runtime's threads included): wall time on a
      // shared, overloaded machine says little.
      const cpu = process.cpuUsage(c1);
      const cpuS = (cpu.user + cpu.system) / 1e6;
      const gen = await scoreAll(scorer, general);
      await scorer.dispose();
      cache.set(m, { scores, general: Array.from(gen) });
      info = `fit ${((t1 - t0) / 1000).toFixed(1)}s, ${Math.round(mix.sentences.length / ((t2 - t1) / 1000))} sent/s wall, ${Math.round(mix.sentences.length / cpuS)} sent/s cpu, model ${(JSON.stringify(model).length / 1e6).toFixed(1)} MB`;
    }
    const sh = segmentShares(scores, mix, spec.keep);
    const rest = Object.entries(sh).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}`).join(', ');
    console.log(`${taskName}\t${m}\t${inDomain} ${(100 * (sh[inDomain] ?? 0)).toFixed(1)}%\t[${rest}]\t${info}`);
  }
}
