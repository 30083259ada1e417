// Per-sentence selection research: fit each method on a task, score a labelled mix, keep
// the lowest-scoring KEEP share, report where the kept sentences came from.
// usage: node scripts/research/run.js MIX TASK[,TASK] 'METHOD[:{"opt":v}]' ...
//   e.g. node scripts/research/run.js fig5 chemprot,acl-arc random distance 'tadpole:{"detector":"knn-ratio"}'
import { Rng } from '../../dist/core/rng.js';
import { selectorFactory } from '../../dist/select/registry.js';
import { loadMix, loadTask } from './mix.js';

const KEEP = Number(process.env.KEEP ?? 0.2);
const GENERAL = Number(process.env.GENERAL ?? 2000); // general sample drawn from the mix
const TOTAL = Number(process.env.TOTAL ?? 30000);
const SEED = Number(process.env.SEED ?? 1);
const BATCH = 1000;

const [mixName, tasks, ...specs] = process.argv.slice(2);
const mix = await loadMix(mixName, TOTAL, 1);
const general = new Rng(SEED + 7).sample(mix.sentences.length, GENERAL).map((i) => mix.sentences[i]);

export function keptShares(scores, labels, keep) {
  const order = Array.from(scores, (_, i) => i).sort((a, b) => scores[a] - scores[b] || a - b);
  const kept = order.slice(0, Math.round(keep * scores.length));
  const c = {};
  for (const i of kept) c[labels[i]] = (c[labels[i]] ?? 0) + 1;
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v / kept.length]));
}

for (const taskName of tasks.split(',')) {
  const { domain, task } = await loadTask(taskName);
  const cache = new Map();
  for (const spec of specs) {
    const t0 = performance.now();
    let scores, size = 0, t1 = t0;
    if (spec.startsWith('combo=')) {
      // z-score each part on the general sample's scores (streamable: fixed at fit), then sum
      scores = new Float64Array(mix.sentences.length);
      for (const part of spec.slice(6).split('+')) {
        const r = cache.get(part);
        const g = r.general;
        const mu = g.reduce((a, b) => a + b, 0) / g.length;
        const sd = Math.sqrt(g.reduce((a, b) => a + (b - mu) ** 2, 0) / g.length) || 1;
        for (let i = 0; i < scores.length; i++) scores[i] += (r.scores[i] - mu) / sd;
      }
    } else {
    const [method, optJson] = spec.split(/:(.*)/s);
    const options = optJson ? JSON.parse(optJson) : {};
    const f = selectorFactory(method);
    const json = await f.fit({ task, general, seed: SEED, options });
    size = JSON.stringify(json).length;
    const scorer = await f.load(json, { seed: SEED, options: {} });
    t1 = performance.now();
    scores = new Float64Array(mix.sentences.length);
    for (let i = 0; i < mix.sentences.length; i += BATCH) scores.set(await scorer.score(mix.sentences.slice(i, i + BATCH)), i);
    const gscores = Array.from(await scorer.score(general.slice(0, 1000)));
    await scorer.dispose();
    cache.set(spec, { scores, general: gscores });
    }
    const t2 = performance.now();
    const sh = keptShares(scores, mix.labels, KEEP);
    const shares = Object.entries(sh).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}`).join(', ');
    console.log(`${mixName}\t${taskName}\t${spec}\tin-domain(${domain}) ${(100 * (sh[domain] ?? 0)).toFixed(1)}%\t[${shares}]\tfit ${((t1 - t0) / 1000).toFixed(1)}s score ${((t2 - t1) / 1000).toFixed(1)}s model ${(size / 1e6).toFixed(2)}MB`);
  }
}
