// The cut the product makes, in memory: each segment scored by the mean of its sentences'
// scores, then the lowest-scoring `keep` share of sentences kept (selectKeptInMemory).
// `segs[i][1]` is segment i's sentence count; its sentences are the next ones in `scores`.
import { selectKeptInMemory } from '../../dist/cut/exact.js';

export function keptSegments(scores, segs, keep) {
  const segScore = new Float64Array(segs.length);
  const weights = new Float64Array(segs.length);
  let at = 0;
  segs.forEach(([, count], i) => {
    let s = 0;
    for (let j = 0; j < count; j++) s += scores[at + j];
    at += count;
    segScore[i] = s / count;
    weights[i] = count;
  });
  return selectKeptInMemory(segScore, weights, keep);
}
