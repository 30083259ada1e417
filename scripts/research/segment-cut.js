// The cut the product makes, in memory: each segment scored by the mean of its sentences'
// scores, then the lowest-scoring `keep` share of sentences kept (selectKeptInMemory).
// `segs[i][1]` is segment i's sentence count; its sentences are the next ones in `scores`.
//
// Other ways to score a segment, named by a CUT string (suite.js takes
// it after `@` in a method, e.g. `tadpole@doc:5`). They need `segs[i][3]` = the segment's
// document ordinal and, for the length-weighted ones, `lens` = every sentence's length.
//   mean       the product's segment mean (the default)
//   doc:K      shrink the segment mean toward its document's mean with K pseudo-sentences:
//              (n_seg*mean_seg + K*mean_doc) / (n_seg + K)
//   blend:A    A*mean_seg + (1-A)*mean_doc
//   docmean    every segment scored by its document's mean (doc:∞)
//   len        sentences weighted by their length in characters (capped at 400)
//   len:C      sentences weighted by min(length, C) characters
//   lendoc:K:G lendoc:K, then shrunk toward the mean of all sentences by G average sentences
//              against the document's whole weight (empirical Bayes: short documents move most)
//   lendoc:K   len, then doc:K with length-weighted means and K in units of the mean weight:
//              the product's --doc-context K (src/segment/context.ts; default lendoc:15)
import { KEEP_BY } from './suite-cache.js';
import { selectKeptInMemory } from '../../dist/cut/exact.js';

export function keptSegments(scores, segs, keep, cut = 'mean', lens) {
  return selectKeptInMemory(segmentScoresBy(scores, segs, cut, lens), Float64Array.from(segs, (s) => (KEEP_BY === 'bytes' ? s[2] : s[1])), keep);
}

export function segmentScoresBy(scores, segs, cut = 'mean', lens) {
  const [kind, arg, arg2] = cut.split(':');
  const k = Number(arg);
  // lendoc:K:G also shrinks every score toward the mean of all sentences by G sentences of
  // average weight against the document's whole weight (short documents move most).
  const g = Number(arg2 ?? 0);
  const weighted = kind === 'len' || kind === 'lendoc';
  // env WCAP / WPOW (research): the weight's cap and power (the product's: 400 and 1).
  const cap = kind === 'len' && arg ? k : Number(process.env.WCAP ?? 400);
  const pow = Number(process.env.WPOW ?? 1);
  const w = (i) => (weighted ? Math.max(1, Math.min(cap, lens[i])) ** pow : 1);
  const segSum = new Float64Array(segs.length);
  const segW = new Float64Array(segs.length);
  let at = 0;
  segs.forEach(([, count], i) => {
    for (let j = 0; j < count; j++) {
      segSum[i] += w(at + j) * scores[at + j];
      segW[i] += w(at + j);
    }
    at += count;
  });
  const segScore = Float64Array.from(segSum, (s, i) => s / segW[i]);
  if (kind === 'mean' || kind === 'len') return segScore;
  if (segs.length && segs[0][3] === undefined) throw new Error(`cut ${cut} needs the segments' documents (rebuild the cache)`);
  // Per document: sum of weighted scores, of weights and of sentence counts.
  const docSum = new Map();
  segs.forEach((s, i) => {
    const d = docSum.get(s[3]) ?? [0, 0, 0];
    d[0] += segSum[i];
    d[1] += segW[i];
    d[2] += s[1];
    docSum.set(s[3], d);
  });
  let globalMean = 0;
  let globalUnit = 0;
  for (let i = 0; i < scores.length; i++) {
    globalMean += w(i) * scores[i];
    globalUnit += w(i);
  }
  globalMean /= globalUnit;
  globalUnit /= scores.length;
  return Float64Array.from(segScore, (m, i) => {
    const [sum, weight, n] = docSum.get(segs[i][3]);
    const docMean = sum / weight;
    if (kind === 'docmean') return docMean;
    if (kind === 'blend') return k * m + (1 - k) * docMean;
    if (kind === 'doc') return (segs[i][1] * m + k * docMean) / (segs[i][1] + k);
    if (kind === 'lendoc') {
      const unit = weight / n;
      const s = (segW[i] * m + k * unit * docMean) / (segW[i] + k * unit);
      return g > 0 ? (weight * s + g * globalUnit * globalMean) / (weight + g * globalUnit) : s;
    }
    throw new Error(`unknown cut ${cut}`);
  });
}
