// The task-share probe (src/select/share-probe.ts) on sentence vectors instead of hashed n-grams:
// two folds by segment id, each scored by the task's centroid minus the centroid of the other
// fold's most general-like half under a first fit (the task's centroid minus the sample's), then
// the same valley reading (cut/share-estimate.ts), and how well the vectors part the sample's
// in-domain segments (AUROC). With the tiny BERT of ../shared (the only vectors here with some
// meaning): docs/benchmarks/task-share.md, "What would give more ranges".
//
// usage: [TADPOLE_MODEL=DIR] node scripts/research/vector-share.js corpora/suite/*.json ...   (mixes cached by suite.js)
import { join } from 'node:path';
import { createEmbedder } from '../../dist/embed/factory.js';
import { estimateSampleShare } from '../../dist/cut/share-estimate.js';
import { auroc } from '../../dist/detect/metrics.js';
import { cachedMix } from './suite-cache.js';

const emb = await createEmbedder({ kind: 'onnx', modelDir: process.env.TADPOLE_MODEL ?? join(process.env.TADPOLE_SHARED ?? new URL('../../../shared', import.meta.url).pathname, 'models', 'tadpole-tiny-bert'), maxTokens: 64, threads: 1 });
const d = emb.dims;
const rows = [];
for (const file of process.argv.slice(2)) {
  const { spec, c } = await cachedMix(file);
  if (!c) { console.log(`${spec.name}\tnot cached: run suite.js on it first (SAMPLE as it was given)`); continue; }
  const textIn = new Map();
  let at = 0;
  for (const [l, n] of c.segs) { for (let j = 0; j < n; j++) textIn.set(c.sentences[at + j], l === c.inIdx); at += n; }
  const t0 = performance.now();
  const task = c.task.slice(0, 2000);
  const T = await emb.embed(task);
  const G = await emb.embed(c.general);
  const mean = (M, idx) => { const m = new Float64Array(d); for (const i of idx) for (let k = 0; k < d; k++) m[k] += M[i * d + k]; for (let k = 0; k < d; k++) m[k] /= idx.length; return m; };
  const tMean = mean(T, task.map((_, i) => i));
  const groups = c.generalGroups;
  const segIds = [...new Set(groups)];
  const sentOf = new Map(); groups.forEach((g, i) => { if (!sentOf.has(g)) sentOf.set(g, []); sentOf.get(g).push(i); });
  // lower = more task-like
  const score = (w, i) => { let s = 0; for (let k = 0; k < d; k++) s += w[k] * G[i * d + k]; return -s; };
  const segMean = (w, g) => { const ss = sentOf.get(g); let s = 0; for (const i of ss) s += score(w, i); return s / ss.length; };
  const gAll = mean(G, c.general.map((_, i) => i));
  const w0 = tMean.map((v, k) => v - gAll[k]);
  const first = new Map(segIds.map((g) => [g, segMean(w0, g)]));
  const sample = [];
  for (const fold of [0, 1]) {
    const other = segIds.filter((g) => g % 2 !== fold).sort((a, b) => first.get(a) - first.get(b));
    const genIdx = other.slice(Math.floor(other.length / 2)).flatMap((g) => sentOf.get(g));
    const gm = mean(G, genIdx);
    const w = tMean.map((v, k) => v - gm[k]);
    for (const g of segIds.filter((x) => x % 2 === fold)) sample.push({ g, mean: segMean(w, g), sentences: sentOf.get(g).length });
  }
  const inSeg = (g) => sentOf.get(g).filter((i) => textIn.get(c.general[i])).length * 2 > sentOf.get(g).length;
  let inS = 0; for (const s of c.general) if (textIn.get(s)) inS++;
  const truth = inS / c.general.length;
  const r = estimateSampleShare(sample, [...first.values()].map((m) => ({ mean: m, sentences: 1 })));
  const a = auroc(sample.map((s) => -s.mean), sample.map((s) => (inSeg(s.g) ? 1 : 0)));
  const e = r.share?.estimate;
  rows.push({ name: spec.name, ratio: e === undefined ? undefined : e / truth });
  console.log(`${spec.name}\ttruth ${(100 * truth).toFixed(2)}%\tAUROC in-domain segments ${a.toFixed(3)}\t${e !== undefined ? `estimate ${(100 * e).toFixed(2)}% (x${(e / truth).toFixed(2)}) range ${(100 * r.share.low).toFixed(1)}-${(100 * r.share.high).toFixed(1)}` : `none: ${r.none}`}\t${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
await emb.dispose();
const est = rows.filter((r) => r.ratio !== undefined);
const off = est.filter((r) => r.ratio > 1.5 || r.ratio < 1 / 1.5);
console.log(`${rows.length} mixes: an estimate on ${est.length}, off by more than 1.5x on ${off.length} (${off.map((r) => `${r.name} x${r.ratio.toFixed(2)}`).join(', ') || 'none'})`);
