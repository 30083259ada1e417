// Suite research: every spec of corpora/suite, every METHOD, in one process, with
// the mix, its sentences and segments cached in $TMPDIR/tadpole-research/suite (so trying a
// method costs its fit + scoring only). Measured as `tadpole eval --keep-by sentences` does: 15-sentence segments
// within documents, the lowest-scoring 20% of sentences kept, the share of kept CHARACTERS
// (UTF-8 bytes) from the in-domain source; the task is the spec's (capped at
// maxTaskSentences, seeded), the general sample whole segments of the mix (seed + 1, with
// their groups), exactly as the eval draws them. Prints methods x mixes, mean and minimum.
//
// usage: node scripts/research/suite.js METHOD...   (METHOD = name[:{"option":v}][@CUT])
// CUT (segment-cut.js) is how a segment is scored from its sentences: the product's default
// `lendoc:15` (src/segment/context.ts), `mean` (the paper's, `--doc-context 0`), ...; env
// CUT sets it for every METHOD without one.
// Combinations computed here from the components' cached scores, each component calibrated
// on 2,000 general sentences as the ensemble detector does (ensemble.ts):
//   z:A|B   sum of z-scores (what `tadpole` ensembles do)
//   r:A|B   mean of the components' empirical CDFs on the calibration sample (rank average)
// The last lines give leave-one-domain-out over the methods listed (as `tadpole eval` does).
// env ALSO=MIX:LABEL[,...] counts LABEL as in-domain too on MIX (see below); OUT=file.json writes the table as JSON; FITSEED=k adds k to every fit's seed (SGD
// order, held-out splits, calibration sample), to see how much of a difference is noise.
// env COVER=1 prints how task-like the kept text is against the task itself (AUROC);
// MARKUP=skip blanks tags and placeholders in every sentence a method sees.
// env: TASKFORM=prefix|suffix|id|upper|quoted|label (the task in a form the corpus lacks); MIXBYTES=n (the mix's size); MIXSEED=k (another draw of every mix); TASK=n (a task of n sentences); RAW=task|corpus (see below); SPECS=bio-chemprot,cs-aclarc (default: all of SUITE_DIR, default corpora/suite); GENERAL=20000 (general
// sample size, default the spec's; the cache holds 20,000, drawn like the eval's but not the same 5,000)
// env: CAPS=mask writes capitalised words as "Xx"; AVOID=MIX:LABEL:N gives the fit
// N sentences of LABEL from outside the mix as text not to keep (fit --avoid); gst: takes
// "moveTo":"none" (moved segments only leave the general side);
// "consensus":[[methodA,optsA],[methodB,optsB]] moves segments by the worse of their ranks
// under views fitted apart (the product's form: tadpole:{"moveBy":"consensus"}).
// env: KEPT_GROUPS=K groups each method's kept text as `tadpole inspect` does
// (src/inspect/groups.ts) and prints each group's sources; KEPT_GROUPS_AVOID=N refits with N
// sentences of the groups at least 75% out of domain avoided (KEPT_GROUPS_PICK=one: the
// largest only; all: every one); KEPT_GROUPS_ROUNDS=2 looks again at the refit. A cut `@q:K:CAP[:doc]` (or env QUOTA=K:CAP) keeps the best
// segments with no task cluster taking more than CAP x its share of the task (rejected).
// env BYLABEL=1 prints each method's kept characters by source label.
// pur:{"cand":3,"k":10,"drop":0.3,"avoidShare":0.05,"ref":"task"} refits the default with the
// sample's most task-like segments (cand x the share kept) whose k nearest segments are mostly
// not such segments (or, with ref "task", mostly not task pieces) avoided (tried, rejected:
// docs/research.md, "Scarce domains").
// bnd:{"lo":1.5,"hi":5,"cap":1,"avoidShare":0.05} refits the default (boundary=off) with the
// sample's segments ranked from lo x to hi x the share kept avoided: the default's own boundary
// fit (src/select/boundary.ts) made from outside, to try other bands (docs/research.md, "A second
// fit on the boundary").
// env: KEEPBY=bytes keeps a share of the bytes (and sizes the fits' moves in bytes), as `tadpole eval` does by default.
// env: KEPT_GROUPS_STYLE=1 adds each kept group's style place (0 = most task-like)
// under a style classifier fitted on the task against the sample; SUITE_DIR=corpora/suite-fresh.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMix } from '../../dist/eval/mix.js';
import { readSourceDocs } from '../../dist/eval/sources.js';
import { readSentences } from '../../dist/io/sentences.js';
import { sampleSentences } from '../../dist/io/sample.js';
import { segmentScores } from '../../dist/threads/segment-scores.js';
import { keptSegments, segmentScoresBy } from './segment-cut.js';
import { Lsa } from '../../dist/select/lsa.js';
import { groupText } from '../../dist/inspect/groups.js';
import { fitModel } from '../../dist/model/fit.js';
import { openScorer } from '../../dist/model/open.js';
import { optionsWithKeep } from '../../dist/model/complete.js';
import { Rng } from '../../dist/core/rng.js';
import { auroc } from '../../dist/detect/metrics.js';
import { FUNCTION_WORDS, functionWordShare } from '../../dist/text/function-words.js';
import { functionWordFigures } from '../../dist/select/telegraphic.js';
import { segmentMeans } from '../../dist/select/self-training.js';
import { AUTO_DEFAULTS, chooseCandidate } from '../../dist/select/auto.js';
import { BOUNDARY_DEFAULTS } from '../../dist/select/boundary.js';
import { cacheDir, inDomainShare, KEEP_BY, loadSuiteSpec, sampleCacheDir, taskInForm } from './suite-cache.js';

// env BND_MAX, BND_FROM, BND_TO, BND_SHARE (research): the boundary refit's constants (src/select/boundary.ts).
for (const [env, key] of [['BND_MAX', 'maxKeep'], ['BND_FROM', 'from'], ['BND_TO', 'to'], ['BND_SHARE', 'share'], ['BND_GSHARE', 'gatedShare'], ['BND_GROUNDS', 'gatedRounds']]) if (process.env[env]) BOUNDARY_DEFAULTS[key] = Number(process.env[env]);
const READER = { format: 'jsonl', textField: 'text', docPerLine: false, strict: true };
const ROOT = new URL('../../', import.meta.url).pathname;

async function load(spec) {
  // SAMPLE=n: a general sample of n sentences in the cache (default 20,000), for GENERAL above 20,000.
  const sampleSize = Number(process.env.SAMPLE ?? 20000);
  const dir = sampleCacheDir(spec);
  const meta = join(dir, 'cache.json');
  if (existsSync(meta)) return JSON.parse(readFileSync(meta, 'utf8'));
  mkdirSync(dir, { recursive: true });
  const mix = await buildMix({ sources: spec.sources, seed: spec.seed, mixBytes: spec.mixBytes, out: join(dir, 'mix.jsonl') });
  const sentences = [];
  const recorder = { method: 'record', score: async (s) => { sentences.push(...s); return new Float64Array(s.length); }, dispose: async () => {} };
  const segs = [];
  for await (const batch of segmentScores({ inputs: [mix.file], reader: READER, scorer: recorder, segment: spec.segment })) for (const r of batch) segs.push([mix.docLabel[r.doc], r.sentences, r.bytes, r.doc]);
  const tf = join(dir, 'task.jsonl');
  const lines = [];
  for await (const text of readSourceDocs(spec.task)) lines.push(JSON.stringify({ text }));
  writeFileSync(tf, lines.join('\n') + '\n');
  const task = await readSentences([tf], { ...READER, ...(spec.maxTaskSentences ? { limit: spec.maxTaskSentences, seed: spec.seed } : {}) });
  // The general sample as the eval and the filter draw it: whole segments, with their groups.
  const sample = await sampleSentences([mix.file], READER, { size: sampleSize, seed: spec.seed + 1 });
  const c = { labels: mix.labels, inIdx: mix.labels.indexOf(spec.inDomain), segs, sentences, task, general: sample.sentences, generalGroups: [...sample.groups] };
  writeFileSync(meta, JSON.stringify(c));
  return c;
}

/**
 * QUOTA=K:CAP[:UNIT]: the kept text spread over the task's topics. The task's
 * sentences are clustered (spherical k-means, K clusters, on LSA of task + sample); every
 * segment (UNIT seg) or document (UNIT doc) of the mix goes to its nearest centroid; the
 * segments are then taken best first, but no cluster takes more than CAP x its share of the
 * task times the sentences kept. CAP = Infinity is the plain cut.
 */
function quotaClusters(c, K, unit, seed) {
  const key = `${K}:${unit}`;
  c.quotaCache ??= new Map();
  if (c.quotaCache.has(key)) return c.quotaCache.get(key);
  const lsa = Lsa.fit([...c.task, ...c.general], { dims: 64, seed });
  const d = lsa.dims;
  const T = lsa.transform(c.task);
  const rng = new Rng(seed + 11);
  const nT = c.task.length;
  const dot = (A, i, B, j) => { let s = 0; for (let k = 0; k < d; k++) s += A[i * d + k] * B[j * d + k]; return s; };
  // k-means++ on cosine distance, then 20 rounds of spherical k-means.
  const cent = new Float64Array(K * d);
  const pick = (i, k) => { for (let x = 0; x < d; x++) cent[k * d + x] = T[i * d + x]; };
  pick(rng.int(nT), 0);
  const best = new Float64Array(nT).fill(Infinity);
  for (let k = 1; k < K; k++) {
    let tot = 0;
    for (let i = 0; i < nT; i++) { best[i] = Math.min(best[i], 1 - dot(T, i, cent, k - 1)); tot += Math.max(0, best[i]); }
    let r = rng.next() * tot;
    let i = 0;
    for (; i < nT - 1; i++) { r -= Math.max(0, best[i]); if (r <= 0) break; }
    pick(i, k);
  }
  const assign = (M, n) => {
    const a = new Int32Array(n);
    for (let i = 0; i < n; i++) { let bk = 0; let bv = -Infinity; for (let k = 0; k < K; k++) { const v = dot(M, i, cent, k); if (v > bv) { bv = v; bk = k; } } a[i] = bk; }
    return a;
  };
  let ta = assign(T, nT);
  for (let it = 0; it < 20; it++) {
    cent.fill(0);
    for (let i = 0; i < nT; i++) for (let x = 0; x < d; x++) cent[ta[i] * d + x] += T[i * d + x];
    for (let k = 0; k < K; k++) { let n = 0; for (let x = 0; x < d; x++) n += cent[k * d + x] ** 2; n = Math.sqrt(n) || 1; for (let x = 0; x < d; x++) cent[k * d + x] /= n; }
    ta = assign(T, nT);
  }
  const share = new Float64Array(K);
  for (const k of ta) share[k] += 1 / nT;
  // A segment's (or document's) vector: the sum of its sentences' unit rows.
  const S = lsa.transform(c.sentences);
  const unitOf = (i) => (unit === 'doc' ? c.segs[i][3] : i);
  const units = new Map();
  let at = 0;
  c.segs.forEach(([, n], i) => {
    const u = unitOf(i);
    const v = units.get(u) ?? new Float64Array(d);
    for (let j = 0; j < n; j++) for (let x = 0; x < d; x++) v[x] += S[(at + j) * d + x];
    units.set(u, v);
    at += n;
  });
  const uc = new Map();
  for (const [u, v] of units) { let bk = 0; let bv = -Infinity; for (let k = 0; k < K; k++) { let s = 0; for (let x = 0; x < d; x++) s += v[x] * cent[k * d + x]; if (s > bv) { bv = s; bk = k; } } uc.set(u, bk); }
  const segCluster = Int32Array.from(c.segs, (_, i) => uc.get(unitOf(i)));
  const r = { share, segCluster };
  c.quotaCache.set(key, r);
  return r;
}

function quotaKept(scores, c, keep, cut, spec) {
  const [K, capS, unit = 'seg'] = (cut.startsWith('q:') ? cut.slice(2) : process.env.QUOTA).split(':');
  if (cut.startsWith('q:')) cut = 'lendoc:15';
  const cap = Number(capS);
  const { share, segCluster } = quotaClusters(c, Number(K), unit, spec.seed);
  const segScore = segmentScoresBy(scores, c.segs, cut, c.lens);
  let total = 0;
  for (const s of c.segs) total += s[1];
  const budget = keep * total;
  const order = [...c.segs.keys()].sort((a, b) => segScore[a] - segScore[b] || a - b);
  const used = new Float64Array(share.length);
  const kept = new Uint8Array(c.segs.length);
  let taken = 0;
  for (const i of order) {
    if (taken >= budget) break;
    const k = segCluster[i];
    if (used[k] + c.segs[i][1] > cap * share[k] * budget + c.segs[i][1]) continue;
    kept[i] = 1;
    used[k] += c.segs[i][1];
    taken += c.segs[i][1];
  }
  return kept;
}

/**
 * The mix narrowed to `segs` (and their `sentences`), and the general sample redrawn from it
 * as the eval draws one: whole segments in a seeded order, about 20,000 sentences.
 */
function narrowMix(c, segs, sentences, seed) {
  c.segs = segs;
  c.sentences = sentences;
  const starts = [];
  let pos = 0;
  for (const sg of segs) { starts.push(pos); pos += sg[1]; }
  c.general = [];
  c.generalGroups = [];
  for (const si of new Rng(seed + 1).shuffle(segs.map((_, i) => i))) {
    if (c.general.length >= 20000) break;
    for (let j = 0; j < segs[si][1]; j++) { c.general.push(sentences[starts[si] + j]); c.generalGroups.push(si); }
  }
}

function keptCharShare(scores, c, keep, cut, spec) {
  const kept = process.env.QUOTA || cut.startsWith('q:') ? quotaKept(scores, c, keep, cut, spec) : keptSegments(scores, c.segs, keep, cut, c.lens);
  let all = 0;
  let inDomain = 0;
  // BYLABEL=1: the kept characters' share by source label (research).
  if (process.env.BYLABEL) {
    const by = new Map();
    let n = 0;
    c.segs.forEach(([l, , bytes], i) => { if (kept[i]) { by.set(c.labels[l], (by.get(c.labels[l]) ?? 0) + bytes); n += bytes; } });
    console.log(`  by label: ${[...by].sort((a, b) => b[1] - a[1]).map(([l, b]) => `${l} ${(100 * b / n).toFixed(1)}%`).join(', ')}`);
  }
  c.segs.forEach(([l, , bytes], i) => {
    if (!kept[i]) return;
    all += bytes;
    if (l === c.inIdx || l === c.alsoIdx) inDomain += bytes;
  });
  return inDomain / all;
}

/** AUROC of task-side scores against others, the task side counting as the positives: lower scores are more task-like. */
function taskAuroc(task, others) {
  const scores = Float64Array.from([...task, ...others], (x) => -x);
  return auroc(scores, Uint8Array.from(scores, (_, i) => (i < task.length ? 1 : 0)));
}

const methods = process.argv.slice(2);
const SUITE_DIR = process.env.SUITE_DIR ?? join(ROOT, 'corpora/suite');
const names = process.env.SPECS ? process.env.SPECS.split(',') : readdirSync(SUITE_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
const results = methods.map(() => []);
for (const name of names) {
  const specPath = join(SUITE_DIR, `${name}.json`);
  // keep "share" (the scarce suite): keep the in-domain share of the mix's sentences, known once the mix is built.
  const { spec, keepShare } = await loadSuiteSpec(specPath);
  // RAW=task: the task as its dataset has it (its `normalize` dropped); RAW=corpus: the mix's
  // in-domain sources left raw, the task normalised (the format trap); RAW=others:
  // the task and every other source raw; RAW=label:L: the sources labelled L raw.
  // MIXBYTES=n: a mix of n bytes instead of the spec's 1.5 MB, so that the
  // general sample (20,000 sentences, about 2.2 MB) is a part of the corpus, not all of it.
  if (process.env.MIXBYTES) spec.mixBytes = Number(process.env.MIXBYTES);
  // MIXSEED=k: another draw of the whole suite: the spec's seed + k picks the
  // mix's documents, the task's sentences, the general sample and the fits' seeds.
  if (process.env.MIXSEED) spec.seed += Number(process.env.MIXSEED);
  if (process.env.RAW === 'task') delete spec.task.normalize;
  if (process.env.RAW === 'corpus') for (const s of spec.sources) if (s.label === spec.inDomain) delete s.normalize;
  if (process.env.RAW?.startsWith('label:')) for (const s of spec.sources) if (s.label === process.env.RAW.slice(6)) delete s.normalize;
  if (process.env.RAW === 'others') { delete spec.task.normalize; for (const s of spec.sources) if (s.label !== spec.inDomain) delete s.normalize; }
  const c = await load(spec);
  if (keepShare) {
    spec.keep = inDomainShare(c);
    console.error(`${name}: keep = the in-domain share of ${KEEP_BY}, ${(100 * spec.keep).toFixed(2)}%`);
  }
  // PREV=p (research): drop a seeded share of the in-domain documents so that they are
  // about p of the mix's bytes, keep p of it (a perfect selector then keeps 100% in-domain),
  // and redraw the general sample from what is left: how a method holds at low prevalence.
  if (process.env.PREV) {
    const p = Number(process.env.PREV);
    let inB = 0;
    let allB = 0;
    for (const [l, , b] of c.segs) { allB += b; if (l === c.inIdx) inB += b; }
    const keepIn = Math.min(1, (p * (allB - inB)) / ((1 - p) * inB));
    const rng = new Rng(spec.seed + 77);
    const docKeep = new Map();
    const segs = [];
    const sentences = [];
    let at = 0;
    for (const sg of c.segs) {
      if (!docKeep.has(sg[3])) docKeep.set(sg[3], sg[0] !== c.inIdx || rng.next() < keepIn);
      if (docKeep.get(sg[3])) { segs.push(sg); sentences.push(...c.sentences.slice(at, at + sg[1])); }
      at += sg[1];
    }
    narrowMix(c, segs, sentences, spec.seed);
    spec.keep = p;
  }
  // ORACLETASK=n (research): the task drawn from the mix's own in-domain documents (n seeded
  // sentences of those with an odd ordinal), those documents taken out of the mix and the
  // general sample redrawn: what the method keeps when the task covers its domain as the
  // corpus writes it (a ceiling for a task that is a fair sample of the domain).
  if (process.env.ORACLETASK) {
    const out = (sg) => sg[0] === c.inIdx && sg[3] % 2 === 1;
    const segs = [];
    const sentences = [];
    const pool = [];
    let at = 0;
    for (const sg of c.segs) {
      const ss = c.sentences.slice(at, at + sg[1]);
      if (out(sg)) pool.push(...ss);
      else { segs.push(sg); sentences.push(...ss); }
      at += sg[1];
    }
    narrowMix(c, segs, sentences, spec.seed);
    if (!process.env.ORACLEMIXONLY) c.task = new Rng(spec.seed + 5).sample(pool.length, Math.min(pool.length, Number(process.env.ORACLETASK))).map((i) => pool[i]);
    if (keepShare) spec.keep = inDomainShare(c);
  }
  // TASK=n: a seeded n of the task's sentences only (how a method holds with a small task).
  if (process.env.TASK) c.task = new Rng(spec.seed + 9).sample(c.task.length, Math.min(c.task.length, Number(process.env.TASK))).sort((a, b) => a - b).map((i) => c.task[i]);
  // TASKFORM=f: the task in a form the corpus lacks (suite-cache.js, TASK_FORMS).
  c.task = taskInForm(c.task);
  c.lens = Float64Array.from(c.sentences, (s) => s.length);
  // MARKUP=skip: what features that skip markup tags and placeholders (<unk>,
  // <p>, </b>, [UNK]) would do, simulated by blanking them in every sentence a method sees
  // (the segment weights keep the original lengths).
  if (process.env.MARKUP === 'skip') {
    const strip = (t) => t.replace(/<\/?[A-Za-z][\w-]{0,20}(?:\s[^<>]{0,200})?\/?>|\[(?:UNK|MASK|PAD|CLS|SEP)\]/g, ' ');
    c.task = c.task.map(strip);
    c.general = c.general.map(strip);
    c.sentences = c.sentences.map(strip);
  }
  // STOP=drop: what features that skip English function words would do,
  // simulated by blanking them in every sentence a method sees (segment weights keep the
  // original lengths): a headline task lacks them, and a style of text is not its domain.
  const stopRe = new RegExp(`\\b(?:${FUNCTION_WORDS.join('|')})\\b`, 'gi');
  const stripStop = (t) => t.replace(stopRe, ' ');
  // FWRATE=1: the share of word tokens that are function words, task and sample.
  if (process.env.FWRATE) {
    const [t, g] = [functionWordShare(c.task), functionWordShare(c.general)];
    console.log(`fwrate ${name}: task ${t.toFixed(3)} sample ${g.toFixed(3)} ratio ${(t / g).toFixed(2)}`);
  }
  if (process.env.STOP === 'drop') {
    c.task = c.task.map(stripStop);
    c.general = c.general.map(stripStop);
    c.sentences = c.sentences.map(stripStop);
  }
  // CAPS=mask: what features blind to proper names would do, simulated by
  // writing every capitalised word that does not open its sentence as "Xx" (the pronoun I
  // kept): names carry the era, country and league of a text, which a transfer task lacks.
  if (process.env.CAPS === 'mask') {
    const maskCaps = (t) => t.replace(/(\s[("'“‘\[]*)(?!I\b|I['’])\p{Lu}[\p{L}\p{N}'’.-]*/gu, '$1Xx');
    c.task = c.task.map(maskCaps);
    c.general = c.general.map(maskCaps);
    c.sentences = c.sentences.map(maskCaps);
  }
  // ALSO=news-agnews:finance also counts that label as in-domain on that mix (a relabelling
  // to report beside the suite's own labels, never instead of them).
  const also = (process.env.ALSO ?? '').split(',').map((x) => x.split(':')).find(([mix]) => mix === name);
  c.alsoIdx = also ? c.labels.indexOf(also[1]) : -2;
  // The eval's general sample (spec.generalSample) unless GENERAL asks for more (fit's default is 20,000).
  // GENERAL=per:C: C / keep sentences, at least the spec's and at most the cached sample (a sample sized by the share kept).
  const perKeep = process.env.GENERAL?.startsWith('per:') ? Number(process.env.GENERAL.slice(4)) : undefined;
  const nGeneral = perKeep ? Math.max(spec.generalSample, Math.ceil(perKeep / spec.keep)) : Number(process.env.GENERAL ?? spec.generalSample);
  if (perKeep) console.error(`${name}: general sample ${Math.min(nGeneral, c.general.length)} sentences`);
  if (nGeneral < c.general.length) {
    c.general = c.general.slice(0, nGeneral);
    c.generalGroups = c.generalGroups.slice(0, nGeneral);
  }
  // AVOID=MIX:LABEL:N[,...]: a user's examples of text not to keep (fit --avoid):
  // N seeded sentences of LABEL's source documents that are not in the mix, passed to every
  // fit as `avoid` (methods other than the default refuse them; give avoidShare to weigh them).
  const avoid = (process.env.AVOID ?? '').split(',').map((x) => x.split(':')).find(([mix]) => mix === name);
  if (avoid) {
    const [, label, n] = avoid;
    const inMix = new Set(readFileSync(join(cacheDir(spec), 'mix.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).text));
    const af = join(cacheDir(spec), `avoid-${label}.jsonl`);
    const lines = [];
    for (const src of spec.sources.filter((x) => x.label === label)) for await (const text of readSourceDocs(src)) if (!inMix.has(text)) lines.push(JSON.stringify({ text }));
    writeFileSync(af, lines.join('\n') + '\n');
    c.avoid = await readSentences([af], { ...READER, limit: Number(n), seed: spec.seed + 7 });
    console.log(`avoid ${name}: ${c.avoid.length} sentences of ${label} from ${lines.length} documents outside the mix`);
  }
  const row = [];
  const calibIdx = c.general.length <= 2000 ? c.general.map((_, i) => i) : new Rng(spec.seed + 2).sample(c.general.length, 2000).sort((a, b) => a - b);
  let calib = calibIdx.map((i) => c.general[i]);
  const cache = new Map();
  async function scored(m) {
    if (cache.has(m)) return cache.get(m);
    // stop~METHOD: METHOD fitted and scored with English function words blanked
    // (as STOP=drop, for this method only), so z:A|stop~A fuses the two views late.
    if (m.startsWith('stop~')) {
      const inner = m.slice(5);
      const prev = cache.get(inner);
      cache.delete(inner);
      const saved = [c.task, c.general, c.sentences, calib];
      [c.task, c.general, c.sentences, calib] = saved.map((a) => a.map(stripStop));
      try {
        const r = await scored(inner);
        cache.set(m, r);
        return r;
      } finally {
        [c.task, c.general, c.sentences, calib] = saved;
        cache.delete(inner);
        if (prev) cache.set(inner, prev);
      }
    }
    // A component ending in ~perword has its sentence scores divided by the sentence's word
    // count (a per-word score: DSIR's log importance weight is a sum over n-grams).
    // ~sqrtword divides by the square root of the word count instead.
    if (m.endsWith('~perword') || m.endsWith('~sqrtword')) {
      const sqrt = m.endsWith('~sqrtword');
      const base = await scored(m.slice(0, m.lastIndexOf('~')));
      const words = (t) => { const n = Math.max(1, t.split(/\s+/).filter(Boolean).length); return sqrt ? Math.sqrt(n) : n; };
      const r = { scores: Float64Array.from(base.scores, (x, i) => x / words(c.sentences[i])), cal: Float64Array.from(base.cal, (x, i) => x / words(calib[i])) };
      cache.set(m, r);
      return r;
    }
    // gst:{...} the research form of self-training by segments (the product's
    // form: src/select/self-training.ts): the general sample is drawn as whole
    // segments of the mix; after each fit of BASE the sample's segments are ranked by their
    // length-weighted mean score and the top ones join the task side (expand*(round+1) of the
    // sample's sentences), the rest stay general; BASE is refitted on that. The product's
    // default already self-trains: give "options":{"rounds":0} to self-train it only here.
    // anchor=q (tried, rejected): take the segments whose mean beats the q-quantile of
    // held-out task sentences, at most cap of the sample.
    if (m.startsWith('gst:')) {
      const o = { rounds: 2, expand: 0.1, base: 'contrast', options: {}, sample: 20000, keepTask: true, ...JSON.parse(m.slice(4)) };
      const starts = [];
      let at = 0;
      for (const s of c.segs) { starts.push(at); at += s[1]; }
      const perm = new Rng(spec.seed + 1 + Number(process.env.FITSEED ?? 0)).shuffle(c.segs.map((_, i) => i));
      const gs = [];
      const gg = [];
      for (const si of perm) {
        if (gs.length >= o.sample) break;
        for (let j = 0; j < c.segs[si][1]; j++) { gs.push(c.sentences[starts[si] + j]); gg.push(si); }
      }
      let task = c.task;
      let general = gs;
      const seed = spec.seed + Number(process.env.FITSEED ?? 0);
      // anchor=q: the groups taken are those whose mean scores at or below the q-quantile of
      // held-out task sentences (scored by a fit without them), at most cap of the sample.
      const useHeld = o.anchor !== undefined || o.trace;
      const heldIdx = new Set(useHeld ? new Rng(seed + 5).sample(c.task.length, Math.round(0.2 * c.task.length)) : []);
      const taskTrain = c.task.filter((_, i) => !heldIdx.has(i));
      const taskHeld = c.task.filter((_, i) => heldIdx.has(i));
      let model = await fitModel({ method: o.base, task: useHeld ? taskTrain : task, general, seed, options: o.options });
      // trace: AUROC of held-out task sentences against the whole sample after each fit, and
      // the in-domain share of the segments moved (a drift signal, research only).
      const trace = async (label, movedGroups) => {
        if (!o.trace) return;
        const sc = await openScorer(model);
        const a = await sc.score(taskHeld);
        const b = await sc.score(gs);
        await sc.dispose();
        const auc = taskAuroc(a, b);
        const prec = movedGroups ? [...movedGroups].filter((g) => c.segs[g][0] === c.inIdx).length / Math.max(1, movedGroups.size) : NaN;
        console.log(`  trace ${name} ${label}: held-out task AUROC ${auc.toFixed(4)}; moved segments in-domain ${(100 * prec).toFixed(1)}%`);
      };
      await trace('fit 0');
      let pos = [];
      for (let r = 0; r < o.rounds; r++) {
        const sc = await openScorer(model);
        const s = await sc.score(gs);
        const th = o.anchor !== undefined ? Float64Array.from(await sc.score(taskHeld)).sort() : undefined;
        await sc.dispose();
        const sum = new Map();
        gs.forEach((t, i) => { const w = Math.max(1, Math.min(400, t.length)); const e = sum.get(gg[i]) ?? [0, 0]; e[0] += w * s[i]; e[1] += w; sum.set(gg[i], e); });
        if (process.env.DUMP) writeFileSync(`${process.env.DUMP}-${name}-r${r}.json`, JSON.stringify({ means: [...sum].map(([g, e]) => [c.segs[g][0] === c.inIdx ? 1 : 0, e[0] / e[1], c.labels[c.segs[g][0]]]), task: th ? [...th] : [] }));
        let groups = [...sum.keys()].sort((a, b) => sum.get(a)[0] / sum.get(a)[1] - sum.get(b)[0] / sum.get(b)[1] || a - b);
        // consensus: [[methodA, optionsA], [methodB, optionsB]] fitted apart on the
        // round's task and general sides; a segment moves by the worse of its two ranks (both
        // views must rank it high: co-training's guard against one view's drift).
        if (o.consensus) {
          const ranks = [];
          // The views drop function words when the default would (a task of titles: telegraphic.ts).
          const telegraphic = functionWordFigures(c.task, gs, 'auto').skipped;
          for (const [vm, vo] of o.consensus) {
            const vopts = telegraphic && (vo.features ?? 'chars-folded') === 'chars-folded' ? { ...vo, features: 'chars-folded-content' } : vo;
            const vmodel = await fitModel({ method: vm, task, general, seed: seed + r, options: vopts });
            const vs = await openScorer(vmodel);
            const vsc = await vs.score(gs);
            await vs.dispose();
            const vsum = new Map();
            gs.forEach((t, i) => { const w = Math.max(1, Math.min(400, t.length)); const e = vsum.get(gg[i]) ?? [0, 0]; e[0] += w * vsc[i]; e[1] += w; vsum.set(gg[i], e); });
            const order = [...vsum.keys()].sort((a, b) => vsum.get(a)[0] / vsum.get(a)[1] - vsum.get(b)[0] / vsum.get(b)[1] || a - b);
            ranks.push(new Map(order.map((g, k) => [g, k])));
          }
          const key = (g) => Math.max(...ranks.map((rk) => rk.get(g)));
          const sumKey = (g) => ranks.reduce((acc, rk) => acc + rk.get(g), 0);
          groups = [...sum.keys()].sort((a, b) => key(a) - key(b) || sumKey(a) - sumKey(b) || a - b);
        }
        const want = th ? Math.round((o.cap ?? 0.5) * gs.length) : Math.round(o.expand * (o.grow === false ? 1 : r + 1) * gs.length);
        const thr = th ? th[Math.min(th.length - 1, Math.floor(o.anchor * th.length))] : Infinity;
        const top = new Set();
        let n = 0;
        const count = new Map();
        gg.forEach((g) => count.set(g, (count.get(g) ?? 0) + 1));
        for (const g of groups) { if (n >= want || sum.get(g)[0] / sum.get(g)[1] > thr) break; top.add(g); n += count.get(g); }
        if (process.env.VERBOSE) console.error(`${name} ${m} round ${r}: ${n} of ${gs.length} sample sentences to the task side`);
        pos = gs.filter((_, i) => top.has(gg[i]));
        general = gs.filter((_, i) => !top.has(gg[i]));
        // taskRepeat: the task's sentences k times ("auto": as many times as it takes
        // for them to outnumber the moved ones), so that what the corpus lends never outweighs it.
        const anchorTask = (th && r + 1 < o.rounds) || o.trace ? taskTrain : c.task;
        const reps = o.taskRepeat === 'auto' ? Math.max(1, Math.ceil(pos.length / anchorTask.length)) : (o.taskRepeat ?? 1);
        // moveTo "none": the top segments only leave the general side (PU
        // cleaning), so the corpus's wording never becomes evidence for the task.
        if (o.moveTo === 'none') pos = [];
        task = o.keepTask ? [...Array.from({ length: reps }, () => anchorTask).flat(), ...pos] : pos;
        model = await fitModel({ method: o.base, task, general, seed: seed + r + 1, options: o.options });
        await trace(`round ${r + 1}`, top);
      }
      return scoreWith(m, model);
    }
    // pur: and bnd: start from the default without its own boundary fit (boundary=off), as they
    // were measured: the sample's segment means under it, most task-like first.
    async function firstOrder() {
      const first = await scored('contrast:{"boundary":"off"}');
      const sc = await openScorer(first.model);
      const gscores = Float64Array.from(await sc.score(c.general));
      await sc.dispose();
      const means = segmentMeans(c.general, gscores, c.generalGroups);
      const order = [...means.keys()].sort((a, b) => means.get(a).mean - means.get(b).mean || a - b);
      return { first, means, order };
    }
    /** Whether most of a sample segment's sentences are in-domain (labels for the report only). */
    function inDomainSegment(means) {
      if (!c.textIn) {
        c.textIn = new Map();
        let at = 0;
        for (const [l, n] of c.segs) { for (let j = 0; j < n; j++) c.textIn.set(c.sentences[at + j], l === c.inIdx); at += n; }
      }
      return (g) => { const ss = means.get(g).sentences; return ss.filter((i) => c.textIn.get(c.general[i])).length * 2 > ss.length; };
    }
    // pur:{...} (research): the negatives the cut itself finds. The default is fitted; the
    // sample's segments it ranks most task-like (cand x the share kept) are the candidates;
    // each candidate's k nearest segments of the whole sample (cosine on an LSA of task + sample)
    // are counted: a candidate whose neighbours are mostly not candidates is the task-like tail
    // of a larger kind of text, one whose neighbours are candidates is a kind of its own. The
    // candidates under `drop` of candidate neighbours are avoided (fit --avoid, avoidShare) in a refit.
    if (m.startsWith('pur:')) {
      const o = { cand: 3, k: 10, drop: 0.3, dims: 100, avoidShare: 0.05, ...JSON.parse(m.slice(4)) };
      const { first, means, order } = await firstOrder();
      const nCand = Math.max(o.k + 1, Math.round(o.cand * spec.keep * order.length));
      const candSet = new Set(order.slice(0, nCand));
      const lsa = Lsa.fit([...c.task, ...c.general], { dims: o.dims, seed: spec.seed });
      const segIds = order;
      // ref "task": the neighbours are drawn from the sample's segments and the task's pieces
      // of 15 sentences, and a candidate's figure is the share of them that are task pieces.
      const taskPieces = [];
      if (o.ref === 'task') for (let i = 0; i < c.task.length; i += 15) taskPieces.push(c.task.slice(i, i + 15).join(' '));
      const texts = [...segIds.map((g) => means.get(g).sentences.map((i) => c.general[i]).join(' ')), ...taskPieces];
      const vec = lsa.transform(texts);
      const d = lsa.dims;
      const purity = new Map();
      for (let a = 0; a < nCand; a++) {
        const sims = [];
        for (let b = 0; b < texts.length; b++) {
          if (b === a) continue;
          let dot = 0;
          for (let j = 0; j < d; j++) dot += vec[a * d + j] * vec[b * d + j];
          sims.push([dot, b]);
        }
        sims.sort((x, y) => y[0] - x[0]);
        let inC = 0;
        for (let t = 0; t < o.k; t++) if (o.ref === 'task' ? sims[t][1] >= segIds.length : candSet.has(segIds[sims[t][1]])) inC++;
        purity.set(segIds[a], inC / o.k);
      }
      const avoidSegs = [...purity].filter(([, p]) => p < o.drop).map(([g]) => g);
      // What purity tells apart: in-domain candidates against the rest (labels for the report only).
      const isIn = inDomainSegment(means);
      const inP = [...purity].filter(([g]) => isIn(g)).map(([, p]) => p);
      const outP = [...purity].filter(([g]) => !isIn(g)).map(([, p]) => p);
      const mean = (xs) => (xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : NaN);
      const avIn = avoidSegs.filter(isIn).length;
      console.log(`  pur ${name}: ${nCand} candidates (${inP.length} in-domain), purity in ${mean(inP).toFixed(2)} out ${mean(outP).toFixed(2)}; avoided ${avoidSegs.length} (${avIn} in-domain)`);
      if (avoidSegs.length === 0) { cache.set(m, first); return first; }
      const avoid = avoidSegs.flatMap((g) => means.get(g).sentences.map((i) => c.general[i]));
      const options = optionsWithKeep('contrast', { avoidShare: o.avoidShare, boundary: 'off' }, spec.keep, KEEP_BY);
      const model = await fitModel({ method: 'contrast', task: c.task, general: c.general, generalGroups: Uint32Array.from(c.generalGroups), seed: spec.seed + Number(process.env.FITSEED ?? 0), options, avoid });
      return scoreWith(m, model);
    }
    // bnd:{...} (research): a second fit on the first cut's boundary. The default is fitted; the
    // sample's segments it ranks just past the share kept (from lo x to hi x the keep, by
    // sentences, at most cap of the sample) are avoided (fit --avoid) in a refit, so the refit
    // learns what sets the kept side apart from the text that nearly made it.
    if (m.startsWith('bnd:')) {
      const o = { lo: 1, hi: 3, avoidShare: 0.05, ...JSON.parse(m.slice(4)) };
      const { means, order } = await firstOrder();
      const avoidSegs = [];
      let n = 0;
      for (const g of order) {
        const k = means.get(g).sentences.length;
        if (n >= o.lo * spec.keep * c.general.length && n < Math.min(o.hi * spec.keep, o.cap ?? 1) * c.general.length) avoidSegs.push(g);
        n += k;
      }
      const isIn = inDomainSegment(means);
      console.log(`  bnd ${name}: avoided ${avoidSegs.length} segments (${avoidSegs.filter(isIn).length} in-domain)`);
      const avoid = avoidSegs.flatMap((g) => means.get(g).sentences.map((i) => c.general[i]));
      const options = optionsWithKeep('contrast', { avoidShare: o.avoidShare, boundary: 'off' }, spec.keep, KEEP_BY);
      const model = await fitModel({ method: 'contrast', task: c.task, general: c.general, generalGroups: Uint32Array.from(c.generalGroups), seed: spec.seed + Number(process.env.FITSEED ?? 0), options, avoid });
      return scoreWith(m, model);
    }
    const [method, json] = m.split(/:(.*)/s);
    // An `embedder` option ({"kind":"onnx","modelDir":...}) goes to the fit, not the method.
    const { embedder, ...given } = json ? JSON.parse(json) : {};
    // The moves of self-training are sized by the share kept, as `tadpole eval` sizes them.
    const options = optionsWithKeep(method, given, spec.keep, KEEP_BY);
    const model = await fitModel({ method, task: c.task, general: c.general, generalGroups: Uint32Array.from(c.generalGroups), seed: spec.seed + Number(process.env.FITSEED ?? 0), options, ...(embedder ? { embedder } : {}), ...(c.avoid ? { avoid: c.avoid } : {}), log: (l) => process.env.VERBOSE && process.stderr.write(`${name} ${m}: ${l}\n`) });
    return scoreWith(m, model);
  }
  // COVER=1: does the kept text look as task-like as the task itself? AUROC of
  // task sentences against the kept mix sentences (0.5: kept text as task-like as the task;
  // 1: every task sentence more task-like than any kept one): held out (20% of the task, a
  // refit on the rest) and in-sample (the method's own fit, the whole task).
  async function coverage(method, { scores, model: own }, cut) {
    /** The scores of the sentences in the segments a cut by `all` keeps. */
    const keptOf = (all) => {
      const kept = keptSegments(all, c.segs, spec.keep, cut, c.lens);
      const out = [];
      let at = 0;
      c.segs.forEach(([, n], i) => { if (kept[i]) for (let j = 0; j < n; j++) out.push(all[at + j]); at += n; });
      return out;
    };
    const seed = spec.seed + Number(process.env.FITSEED ?? 0);
    const held = new Set(new Rng(seed + 5).sample(c.task.length, Math.round(0.2 * c.task.length)));
    const model = await fitModel({ method, task: c.task.filter((_, i) => !held.has(i)), general: c.general, generalGroups: Uint32Array.from(c.generalGroups), seed, options: {} });
    const sc = await openScorer(model);
    const heldScores = await sc.score(c.task.filter((_, i) => held.has(i)));
    const mixScores = new Float64Array(c.sentences.length);
    for (let i = 0; i < c.sentences.length; i += 4096) mixScores.set(await sc.score(c.sentences.slice(i, i + 4096)), i);
    await sc.dispose();
    const fs = await openScorer(own);
    const taskIn = await fs.score(c.task);
    await fs.dispose();
    console.log(`  cover ${name} ${method}: held-out task vs kept ${taskAuroc(heldScores, keptOf(mixScores)).toFixed(3)}, vs whole mix ${taskAuroc(heldScores, mixScores).toFixed(3)}; in-sample task vs kept ${taskAuroc(taskIn, keptOf(scores)).toFixed(3)}`);
  }
  /** Every mix sentence and the calibration sentences scored by `model`, cached under `m`. */
  async function scoreWith(m, model) {
    const scorer = await openScorer(model);
    const scores = new Float64Array(c.sentences.length);
    for (let i = 0; i < c.sentences.length; i += 4096) scores.set(await scorer.score(c.sentences.slice(i, i + 4096)), i);
    const cal = await scorer.score(calib);
    await scorer.dispose();
    const r = { scores, cal, model };
    cache.set(m, r);
    return r;
  }
  /**
   * sep:A|B|...: fit every part, take the share kept of the general sample's
   * segments under each (its most task-like segments, as the filter would keep them), and
   * measure how well a fresh classifier (SEP_JUDGE, a component spec, default
   * classifier:rounds=0) tells held-out task sentences from held-out sentences of that kept
   * sample, as `auto` measures a candidate (AUROC, 0.5 = the kept text reads as the task). The part whose kept sample is least separable is chosen.
   */
  async function separable(m) {
    const parts = m.slice(4).split('|');
    const judge = process.env.SEP_JUDGE ?? 'classifier:rounds=0';
    const figs = [];
    for (const p of parts) {
      const r = await scored(p);
      const sc = await openScorer(r.model);
      const gscores = await sc.score(c.general);
      await sc.dispose();
      const means = segmentMeans(c.general, gscores, c.generalGroups);
      const order = [...means.keys()].sort((a, b) => means.get(a).mean - means.get(b).mean || a - b);
      const want = spec.keep * c.general.length;
      const kept = [];
      for (const g of order) { if (kept.length >= want) break; for (const i of means.get(g).sentences) kept.push(c.general[i]); }
      const choice = await chooseCandidate({ task: c.task, general: kept, seed: spec.seed, options: {} }, [judge], AUTO_DEFAULTS.holdout);
      figs.push({ p, auc: choice.candidates[0].auroc, r });
    }
    const best = figs.reduce((x, y) => (y.auc < x.auc ? y : x));
    console.log(`  sep ${name}: ${figs.map((f) => `${f.p} ${f.auc.toFixed(4)}`).join(', ')}; chose ${best.p}`);
    return best.r.scores;
  }
  async function combined(m) {
    const kind = m.slice(0, 2);
    // One at a time: a stop~ component swaps the sentences while it fits.
    const parts = [];
    for (const p of m.slice(2).split('|')) parts.push(await scored(p));
    const out = new Float64Array(c.sentences.length);
    for (const { scores, cal } of parts) {
      if (kind === 'z:') {
        let mean = 0;
        for (const x of cal) mean += x;
        mean /= cal.length;
        let v = 0;
        for (const x of cal) v += (x - mean) ** 2;
        const std = Math.sqrt(v / cal.length) || 1;
        for (let i = 0; i < out.length; i++) out[i] += (scores[i] - mean) / std;
      } else {
        const sorted = Float64Array.from(cal).sort();
        for (let i = 0; i < out.length; i++) {
          let lo = 0;
          let hi = sorted.length;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (sorted[mid] < scores[i]) lo = mid + 1;
            else hi = mid;
          }
          out[i] += lo / sorted.length;
        }
      }
    }
    return out;
  }
  /** [length-weighted mean score, segment index] of every mix segment under method `m`, lowest first (ties by index). */
  async function segmentOrder(m) {
    const { scores } = await scored(m);
    const means = [];
    let at = 0;
    c.segs.forEach(([, n], i) => { let s = 0; let w = 0; for (let j = 0; j < n; j++) { const l = Math.max(1, Math.min(400, c.lens[at + j])); s += l * scores[at + j]; w += l; } means.push([s / w, i]); at += n; });
    return means.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }
  /** Each mix segment's place (0 = lowest mean score, 1 = highest) under method `m`. */
  async function segmentPlaces(m) {
    const means = await segmentOrder(m);
    const place = new Float64Array(c.segs.length);
    means.forEach(([, i], k) => (place[i] = k / Math.max(1, means.length - 1)));
    return place;
  }
  /** Mean place of a group's pieces (`unit` maps the kept sentences to their segments). */
  function groupPlace(place, g, unit) {
    const pieces = new Set(g.indices.map((k) => unit[k]));
    let s = 0;
    for (const p of pieces) s += place[p];
    return s / pieces.size;
  }
  // AGREE=1: do the classifier and DSIR, fitted apart, agree on the mix's top 5% of
  // segments, and how pure (in-domain) is each top set: does agreement foretell a pure first move?
  if (process.env.AGREE) {
    const top = async (m) => {
      const means = await segmentOrder(m);
      return new Set(means.slice(0, Math.round(0.05 * means.length)).map(([, i]) => i));
    };
    const pure = (set) => [...set].filter((i) => c.segs[i][0] === c.inIdx).length / set.size;
    const a = await top('classifier:{"rounds":0}');
    const b = await top('dsir:{"features":"chars-folded","norm":"mean"}');
    const p = await top('tadpole:{"rounds":0}');
    const inter = [...a].filter((i) => b.has(i)).length;
    console.log(`agree ${name}: jaccard ${(inter / (a.size + b.size - inter)).toFixed(3)}; top 5% in-domain: classifier ${(100 * pure(a)).toFixed(1)}, dsir ${(100 * pure(b)).toFixed(1)}, pair ${(100 * pure(p)).toFixed(1)}, both ${(100 * [...a].filter((i) => b.has(i) && c.segs[i][0] === c.inIdx).length / Math.max(1, inter)).toFixed(1)}`);
  }
  for (const [k, m] of methods.entries()) {
    const t0 = performance.now();
    // METHOD@CUT scores segments another way (segment-cut.js), e.g. tadpole@mean. Without
    // @, env CUT or the product's default: length-weighted, document context 15.
    const [sm, cut = process.env.CUT ?? 'lendoc:15'] = m.split('@');
    const scores = sm.startsWith('sep:') ? await separable(sm) : sm.startsWith('z:') || sm.startsWith('r:') ? await combined(sm) : (await scored(sm)).scores;
    const share = keptCharShare(scores, c, spec.keep, cut, spec);
    results[k].push(share);
    if (process.env.BREAKDOWN) {
      const kept = process.env.QUOTA || cut.startsWith('q:') ? quotaKept(scores, c, spec.keep, cut, spec) : keptSegments(scores, c.segs, spec.keep, cut, c.lens);
      const by = new Map();
      let all = 0;
      c.segs.forEach(([l, , bytes], i) => { if (kept[i]) { by.set(c.labels[l], (by.get(c.labels[l]) ?? 0) + bytes); all += bytes; } });
      console.log(`  ${name} ${m} kept: ${[...by].sort((a, b) => b[1] - a[1]).map(([l, b]) => `${l} ${(100 * b / all).toFixed(1)}`).join(', ')}`);
    }
    // KEPT_GROUPS=K: the kept text grouped as `tadpole inspect` groups it, each group's
    // sources by characters; KEPT_GROUPS_AVOID=N then plays a user who avoids the largest group
    // that is mostly not in-domain: N seeded sentences of it passed to a refit as `avoid`.
    if (process.env.KEPT_GROUPS) {
      const kept = keptSegments(scores, c.segs, spec.keep, cut, c.lens);
      const sents = [];
      const unit = [];
      const lab = [];
      let at = 0;
      c.segs.forEach(([l, n], i) => { if (kept[i]) for (let j = 0; j < n; j++) { sents.push(c.sentences[at + j]); unit.push(i); lab.push(c.labels[l] === spec.inDomain || l === c.alsoIdx ? 'IN' : c.labels[l]); } at += n; });
      const idxOf = new Map(sents.map((t, i) => [t, i]));
      const groups = groupText(sents, unit, { groups: Number(process.env.KEPT_GROUPS), seed: spec.seed, reference: c.task });
      // KEPT_GROUPS_STYLE=1: each group's style rank, the mean over its pieces of
      // the piece's place (0 = most task-like) among all the mix's segments under a style
      // classifier fitted on the task against the sample.
      const styleRank = process.env.KEPT_GROUPS_STYLE ? await segmentPlaces('classifier:{"rounds":0,"features":"style"}') : undefined;
      const inShare = (g) => { const by = new Map(); for (const t of g.sentences) { const l = lab[idxOf.get(t)]; by.set(l, (by.get(l) ?? 0) + t.length); } return by; };
      // The user avoids what is plainly not theirs: groups at least 75% out of domain; the
      // largest (KEPT_GROUPS_PICK=one) or all of them (all), N sentences drawn from their union.
      const picks = [];
      for (const g of groups) {
        const by = inShare(g);
        const comp = [...by].sort((a, b) => b[1] - a[1]).map(([l, v]) => `${l} ${(100 * v / g.chars).toFixed(0)}`).join(' ');
        const sty = styleRank ? ` style ${groupPlace(styleRank, g, unit).toFixed(2)}` : '';
        console.log(`  group ${name} ${g.id}: ${(100 * g.share).toFixed(1)}% task ${(100 * g.referenceShare).toFixed(1)}%${sty} [${comp}] ${g.words.join(' ')} | ${g.examples[0]}`);
        if ((by.get('IN') ?? 0) / g.chars <= 0.25 && (process.env.KEPT_GROUPS_PICK === 'all' || picks.length === 0)) picks.push(g);
      }
      const pick = picks.length ? { id: picks.map((g) => g.id).join('+'), share: picks.reduce((a, g) => a + g.share, 0), sentences: picks.flatMap((g) => g.sentences) } : undefined;
      if (process.env.KEPT_GROUPS_AVOID && pick && !sm.includes('~')) {
        const nA = Number(process.env.KEPT_GROUPS_AVOID);
        const chosen = new Rng(spec.seed + 7).sample(pick.sentences.length, Math.min(nA, pick.sentences.length)).map((i) => pick.sentences[i]);
        const [method, json] = sm.split(/:(.*)/s);
        const options = optionsWithKeep(method, json ? JSON.parse(json) : {}, spec.keep, KEEP_BY);
        const model = await fitModel({ method, task: c.task, general: c.general, generalGroups: Uint32Array.from(c.generalGroups), seed: spec.seed + Number(process.env.FITSEED ?? 0), options, avoid: chosen });
        const sc = await openScorer(model);
        const s2 = new Float64Array(c.sentences.length);
        for (let i = 0; i < c.sentences.length; i += 4096) s2.set(await sc.score(c.sentences.slice(i, i + 4096)), i);
        await sc.dispose();
        let after = keptCharShare(s2, c, spec.keep, cut, spec);
        // KEPT_GROUPS_ROUNDS=R: look again R - 1 times: group the refit's kept text, add N
        // sentences of its groups at least 75% out of domain to the text avoided, refit.
        let avoided = chosen;
        let scores2 = s2;
        for (let round = 1; round < Number(process.env.KEPT_GROUPS_ROUNDS ?? 1); round++) {
          const kept2 = keptSegments(scores2, c.segs, spec.keep, cut, c.lens);
          const t2 = [];
          const u2 = [];
          const l2 = [];
          let at2 = 0;
          c.segs.forEach(([l, n], i) => { if (kept2[i]) for (let j = 0; j < n; j++) { t2.push(c.sentences[at2 + j]); u2.push(i); l2.push(l === c.inIdx || l === c.alsoIdx); } at2 += n; });
          const g2 = groupText(t2, u2, { groups: Number(process.env.KEPT_GROUPS), seed: spec.seed + round });
          const foreign = g2.filter((g) => g.indices.filter((k) => l2[k]).reduce((a, k) => a + t2[k].length, 0) / g.chars <= 0.25);
          const pool2 = foreign.flatMap((g) => g.sentences);
          if (pool2.length === 0) break;
          avoided = [...avoided, ...new Rng(spec.seed + 7 + round).sample(pool2.length, Math.min(nA, pool2.length)).map((i) => pool2[i])];
          const model2 = await fitModel({ method, task: c.task, general: c.general, generalGroups: Uint32Array.from(c.generalGroups), seed: spec.seed + Number(process.env.FITSEED ?? 0), options, avoid: avoided });
          const sc2 = await openScorer(model2);
          scores2 = new Float64Array(c.sentences.length);
          for (let i = 0; i < c.sentences.length; i += 4096) scores2.set(await sc2.score(c.sentences.slice(i, i + 4096)), i);
          await sc2.dispose();
          const next = keptCharShare(scores2, c, spec.keep, cut, spec);
          console.log(`  group-avoid ${name} ${m} round ${round + 1}: ${foreign.length} more groups, ${avoided.length} sentences avoided: ${(100 * after).toFixed(1)} -> ${(100 * next).toFixed(1)}`);
          after = next;
        }
        console.log(`  group-avoid ${name} ${m}: group ${pick.id} (${(100 * pick.share).toFixed(1)}% of kept, ${chosen.length} sentences avoided): ${(100 * share).toFixed(1)} -> ${(100 * after).toFixed(1)}`);
        (results.groupAvoid ??= []).push([name, share, after]);
      } else if (process.env.KEPT_GROUPS_AVOID) {
        console.log(`  group-avoid ${name} ${m}: no group mostly out of domain: ${(100 * share).toFixed(1)}`);
        (results.groupAvoid ??= []).push([name, share, share]);
      }
    }
    // COVER refits the method by name, so only plain method names, which the cache holds with their model.
    if (process.env.COVER && !sm.includes(':') && !sm.includes('~')) await coverage(sm, await scored(sm), cut);
    row.push(`${m} ${(100 * share).toFixed(1)}% (${((performance.now() - t0) / 1000).toFixed(1)}s)`);
  }
  console.log(`${name}: ${row.join(' | ')}`);
}
console.log(`\nmethod\t${names.join('\t')}\tmean\tmin`);
methods.forEach((m, k) => {
  const r = results[k];
  console.log(`${m}\t${r.map((x) => (100 * x).toFixed(1)).join('\t')}\t${((100 * r.reduce((a, b) => a + b, 0)) / r.length).toFixed(1)}\t${(100 * Math.min(...r)).toFixed(1)}`);
});

// Leave-one-domain-out: for each mix, the method with the best minimum over the others.
const lodo = names.map((held, h) => {
  let best = 0;
  let bestMin = -Infinity;
  methods.forEach((_, k) => {
    const m = Math.min(...results[k].filter((_, j) => j !== h));
    if (m > bestMin) {
      bestMin = m;
      best = k;
    }
  });
  return { held, chosen: methods[best], score: results[best][h] };
});
console.log(`\nleave-one-domain-out (worst ${(100 * Math.min(...lodo.map((l) => l.score))).toFixed(1)}):`);
for (const l of lodo) console.log(`  ${l.held}: ${l.chosen} keeps ${(100 * l.score).toFixed(1)}`);
if (results.groupAvoid) {
  const b = results.groupAvoid.map((r) => r[1]);
  const a = results.groupAvoid.map((r) => r[2]);
  const mean = (x) => (100 * x.reduce((p, q) => p + q, 0)) / x.length;
  console.log(`group-avoid: mean ${mean(b).toFixed(1)} -> ${mean(a).toFixed(1)}, min ${(100 * Math.min(...b)).toFixed(1)} -> ${(100 * Math.min(...a)).toFixed(1)}`);
}
if (process.env.OUT) writeFileSync(process.env.OUT, JSON.stringify({ mixes: names, rows: methods.map((m, k) => ({ method: m, byMix: results[k] })) }, null, 1));
