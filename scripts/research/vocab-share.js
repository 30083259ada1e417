// Research: how much of a mix's general sample is in the task's vocabulary, the way
// `inspect --task` reads a piece (src/inspect/task-words.ts): the share of the sample's
// sentences in segments whose content words are no more surprising under the task's word
// frequencies than 97.5% of the task's own held-out pieces are, beside the in-domain share of
// the mix's sentences (the truth a task-share estimate reads). Reads the mixes suite.js cached.
//
// usage: SUITE_DIR=corpora/suite node scripts/research/vocab-share.js [SPEC...]
import { taskWords } from '../../dist/inspect/task-words.js';
import { cachedMix, inDomainShare, specNames } from './suite-cache.js';

for (const { name, file } of specNames(process.argv.slice(2))) {
  const { spec, c } = await cachedMix(file);
  if (!c) { console.log(`${name}\tnot cached: run suite.js on it first`); continue; }
  const tw = taskWords(c.task, spec.seed);
  const bySeg = new Map();
  c.general.forEach((s, i) => { const g = c.generalGroups[i]; if (!bySeg.has(g)) bySeg.set(g, []); bySeg.get(g).push(s); });
  let like = 0;
  let all = 0;
  for (const ss of bySeg.values()) {
    all += ss.length;
    const x = tw.surpriseOf(ss);
    if (Number.isFinite(x) && x <= tw.threshold) like += ss.length;
  }
  const truth = inDomainShare(c);
  console.log(`${name}\ttruth ${(100 * truth).toFixed(2)}%\tin the task's words ${(100 * like / all).toFixed(2)}%\tratio ${(like / all / truth).toFixed(2)}`);
}
