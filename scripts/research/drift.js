// Does the default's self-training drift, round by round, and can held-out task text tell?
// For every cached mix of SUITE_DIR (run suite.js on it first): a seeded fifth of the task is
// held out; the default is fitted on the rest with 0..4 segment rounds (the first r rounds of
// the 4-round trajectory: the moves are sized by the share kept); after each, what the cut keeps
// of the mix (in-domain share of the kept bytes/sentences, KEEPBY as suite.js) beside two things
// a fit can see without labels: the held-out task's AUROC against a seeded sample of the mix
// (0.5: the model no longer tells the task from the corpus), and the held-out task's median
// rank among the mix's segments' scores.
//
// usage: KEEPBY=bytes SUITE_DIR=/tmp/tadpole-technical/specs node scripts/research/drift.js [SPEC...]
// env OPTIONS='{"candidates":"..."}' fits another form of the default.
import { fitModel } from '../../dist/model/fit.js';
import { openScorer } from '../../dist/model/open.js';
import { optionsWithKeep } from '../../dist/model/complete.js';
import { Rng } from '../../dist/core/rng.js';
import { auroc } from '../../dist/detect/metrics.js';
import { cachedMix, inDomainShare, KEEP_BY, specNames } from './suite-cache.js';
import { keptSegments } from './segment-cut.js';

const extra = process.env.OPTIONS ? JSON.parse(process.env.OPTIONS) : {};

async function scoresOf(model, sentences) {
  const scorer = await openScorer(model);
  try {
    const out = new Float64Array(sentences.length);
    for (let i = 0; i < sentences.length; i += 4096) out.set(await scorer.score(sentences.slice(i, i + 4096)), i);
    return out;
  } finally {
    await scorer.dispose();
  }
}

for (const { name, file } of specNames(process.argv.slice(2))) {
  const { spec, c } = await cachedMix(file);
  if (!c) {
    console.error(`${name}: not cached; run suite.js on it first`);
    continue;
  }
  const keep = inDomainShare(c);
  c.lens = Float64Array.from(c.sentences, (s) => s.length);
  const n = Math.min(spec.generalSample, c.general.length);
  const general = c.general.slice(0, n);
  const groups = Uint32Array.from(c.generalGroups.slice(0, n));
  const heldIdx = new Set(new Rng(spec.seed + 31).sample(c.task.length, Math.round(0.2 * c.task.length)));
  const train = c.task.filter((_, i) => !heldIdx.has(i));
  const held = c.task.filter((_, i) => heldIdx.has(i));
  const probeIdx = new Rng(spec.seed + 32).sample(c.sentences.length, Math.min(5000, c.sentences.length));
  const probe = probeIdx.map((i) => c.sentences[i]);
  const rows = [];
  for (let rounds = 0; rounds <= 4; rounds++) {
    const options = optionsWithKeep('contrast', { ...extra, rounds }, keep, KEEP_BY);
    const model = await fitModel({ method: 'contrast', task: train, general, generalGroups: groups, seed: spec.seed, options });
    const mix = await scoresOf(model, c.sentences);
    const kept = keptSegments(mix, c.segs, keep, 'lendoc:15', c.lens);
    let all = 0;
    let inD = 0;
    c.segs.forEach(([l, count, bytes], i) => {
      if (!kept[i]) return;
      const w = KEEP_BY === 'bytes' ? bytes : count;
      all += w;
      if (l === c.inIdx) inD += w;
    });
    const heldScores = await scoresOf(model, held);
    const probeScores = Float64Array.from(probeIdx, (i) => mix[i]);
    const both = Float64Array.from([...heldScores, ...probeScores]);
    const labels = Uint8Array.from(both, (_, i) => (i < heldScores.length ? 0 : 1));
    const sortedProbe = [...probeScores].sort((a, b) => a - b);
    const median = [...heldScores].sort((a, b) => a - b)[Math.floor(heldScores.length / 2)];
    const below = sortedProbe.findIndex((s) => s > median);
    rows.push({ rounds, kept: inD / all, auroc: auroc(both, labels), medianRank: (below < 0 ? sortedProbe.length : below) / sortedProbe.length, moved: model.selector?.state?.selfTraining?.moved?.map((m) => m.sentences) });
  }
  console.log(`${name} (keep ${(100 * keep).toFixed(2)}% of ${KEEP_BY}; ${train.length} task sentences fitted, ${held.length} held out, ${probe.length} mix sentences as the probe)`);
  for (const r of rows) console.log(`  rounds ${r.rounds}: kept ${(100 * r.kept).toFixed(1)}% in-domain; held-out task AUROC ${r.auroc.toFixed(4)}; its median past ${(100 * r.medianRank).toFixed(2)}% of the probe; moved ${JSON.stringify(r.moved ?? [])}`);
}
