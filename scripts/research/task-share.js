// How well does filter estimate the share of the corpus's sentences that belong to the task's
// domain (src/cut/share-estimate.ts)? For every spec of SUITE_DIR whose mix suite.js has cached:
// the default fitted as the eval fits it (the sample sized by the share kept: cache the scarce
// suite with SAMPLE=100000), every mix sentence scored, segments scored as filter scores them, and
// the estimate from their sketch set beside the in-domain share of the mix's sentences.
//
// usage: SUITE_DIR=corpora/suite-scarce node scripts/research/task-share.js [SPEC...]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec } from '../../dist/eval/spec.js';
import { fitModel } from '../../dist/model/fit.js';
import { openScorer } from '../../dist/model/open.js';
import { optionsWithKeep, sampleSizeFor } from '../../dist/model/complete.js';
import { ScoreSketch } from '../../dist/cut/sketch.js';
import { estimateTaskShare } from '../../dist/cut/share-estimate.js';
import { segmentScoresBy } from './segment-cut.js';
import { cacheDir, inDomainShare, shareSpecCopy, specNames } from './suite-cache.js';

const rows = [];
for (const { name, file } of specNames(process.argv.slice(2))) {
  const keepShare = JSON.parse(readFileSync(file, 'utf8')).keep === 'share';
  const spec = await loadSpec(keepShare ? shareSpecCopy(file) : file);
  let c;
  try {
    c = JSON.parse(readFileSync(join(cacheDir(spec), 'cache.json'), 'utf8'));
  } catch {
    console.error(`${name}: no cache (run suite.js on it first)`);
    continue;
  }
  const truth = inDomainShare(c);
  const keep = keepShare ? truth : spec.keep;
  const n = Math.min(c.general.length, sampleSizeFor(spec.generalSample, keep));
  const model = await fitModel({ method: 'contrast', task: c.task, general: c.general.slice(0, n), generalGroups: Uint32Array.from(c.generalGroups.slice(0, n)), seed: spec.seed, options: optionsWithKeep('contrast', {}, keep) });
  const scorer = await openScorer(model);
  const scores = await scorer.score(c.sentences);
  await scorer.dispose();
  const seg = segmentScoresBy(scores, c.segs, 'lendoc:15', Float64Array.from(c.sentences, (s) => s.length));
  const sketch = new ScoreSketch();
  seg.forEach((x, i) => sketch.add(x, c.segs[i][1], 0));
  const est = estimateTaskShare(sketch);
  rows.push({ name, truth, est });
  const pct = (x) => `${(100 * x).toFixed(2)}%`;
  console.log(`${name}\ttruth ${pct(truth)}\t${est ? `estimate ${pct(est.estimate)} [${pct(est.low)}, ${pct(est.high)}]\tratio ${(est.estimate / truth).toFixed(2)}\tin range: ${est.low <= truth && truth <= est.high ? 'yes' : 'no'}` : 'no estimate'}`);
}
const ratios = rows.filter((r) => r.est).map((r) => r.est.estimate / r.truth);
const within = ratios.filter((x) => x >= 1 / 1.5 && x <= 1.5).length;
console.log(`within 1.5x: ${within} of ${rows.length} (${rows.length - ratios.length} without an estimate); ratio min ${Math.min(...ratios).toFixed(2)} max ${Math.max(...ratios).toFixed(2)}`);
