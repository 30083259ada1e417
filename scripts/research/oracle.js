// Ceiling of the features: how much in-domain text would the hashed 1-2-gram
// logistic regression keep if it were trained on the MIX'S OWN LABELS instead of on the
// task? Two folds by document (even / odd mix ordinal): fit in-domain vs the rest on one
// fold's sentences, score the other fold, cut the spec's keep share by 15-sentence segment
// means, report the in-domain share of kept characters (mean of the two folds). A mix
// where even this falls short of 90% is limited by features or labels, not by the task.
//
// usage: node scripts/research/oracle.js [SPEC...]   (default: every corpora/suite spec;
//   the mix cached by suite.js). env AS=news:finance counts label finance as news too;
//   SUITE_DIR=corpora/suite-check reads another suite's specs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { segmentScores } from '../../dist/threads/segment-scores.js';
import { selectKeptInMemory } from '../../dist/cut/exact.js';
import { fitLogistic, CLASSIFIER_DEFAULTS } from '../../dist/select/classifier.js';
import { NgramHasher } from '../../dist/text/fast-ngrams.js';
import { loadSuiteSpec, sampleCacheDir, specNames } from './suite-cache.js';

const READER = { format: 'jsonl', textField: 'text', docPerLine: false, strict: true };
const [asLabel, extra] = (process.env.AS ?? ':').split(':');

for (const { name, file } of specNames(process.argv.slice(2))) {
  // keep "share" (the scarce suite): the in-domain share of the mix's sentences, as suite.js keeps.
  const { spec, keepShare } = await loadSuiteSpec(file);
  // The mix suite.js cached (SAMPLE as suite.js was given it): run suite.js on it first.
  const dir = sampleCacheDir(spec);
  const docLabel = readFileSync(join(dir, 'mix.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).source);
  const inDomain = (l) => l === spec.inDomain || (asLabel === spec.inDomain && l === extra);
  const sentences = [];
  const recorder = { method: 'record', score: async (s) => { sentences.push(...s); return new Float64Array(s.length); }, dispose: async () => {} };
  const segs = [];
  for await (const b of segmentScores({ inputs: [join(dir, 'mix.jsonl')], reader: READER, scorer: recorder, segment: spec.segment })) segs.push(...b);
  let at = 0;
  for (const s of segs) {
    s.from = at;
    at += s.sentences;
  }
  if (keepShare) {
    let inS = 0;
    for (const sg of segs) if (inDomain(docLabel[sg.doc])) inS += sg.sentences;
    spec.keep = inS / at;
  }
  const shares = [];
  for (const fold of [0, 1]) {
    const pos = [];
    const neg = [];
    // UNIT=seg: whole segments (their sentences joined) are the examples and what is scored.
    const bySeg = process.env.UNIT === 'seg';
    const segText = (s) => sentences.slice(s.from, s.from + s.sentences).join(' ');
    for (const s of segs) if (s.doc % 2 === fold) {
      if (bySeg) (inDomain(docLabel[s.doc]) ? pos : neg).push(segText(s));
      else for (let i = s.from; i < s.from + s.sentences; i++) (inDomain(docLabel[s.doc]) ? pos : neg).push(sentences[i]);
    }
    const { weights, bias } = fitLogistic(pos, neg, { ...CLASSIFIER_DEFAULTS, seed: spec.seed });
    const h = new NgramHasher(weights.length);
    const test = segs.filter((s) => s.doc % 2 !== fold);
    // Minus the logit of a text, as the classifier scores a sentence.
    const scoreText = (t) => {
      const n = h.hash(t);
      let z = 0;
      for (let j = 0; j < n; j++) z += weights[h.ids[j]];
      return -(bias + (n ? z / Math.sqrt(n) : 0));
    };
    const score = test.map((s) => {
      if (bySeg) return scoreText(segText(s));
      let sum = 0;
      for (let i = s.from; i < s.from + s.sentences; i++) sum += scoreText(sentences[i]);
      return sum / s.sentences;
    });
    const kept = selectKeptInMemory(Float64Array.from(score), Float64Array.from(test, (s) => s.sentences), spec.keep);
    let all = 0;
    let good = 0;
    test.forEach((s, i) => {
      if (!kept[i]) return;
      all += s.bytes;
      if (inDomain(docLabel[s.doc])) good += s.bytes;
    });
    shares.push(good / all);
  }
  console.log(`${name}\t${((100 * (shares[0] + shares[1])) / 2).toFixed(1)}`);
}
