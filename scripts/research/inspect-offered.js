// The user who follows `tadpole inspect`: on every mix of SUITE_DIR, the default, then the
// default refitted with every `--avoid` that `inspect --task` offers on its kept text
// (`avoidKeptGroups: {"pick": "offered"}`, src/eval/kept-groups.ts), through the eval itself.
// Prints, per mix, the in-domain share of the kept characters before and after, and which of
// the kept text's groups were offered (with their out-of-domain share, from the labels).
//
// usage: SUITE_DIR=corpora/suite node scripts/research/inspect-offered.js [SPEC...]
// env KEEPBY=sentences keeps a share of the sentences (default bytes, as `tadpole eval`).
import { defaultEngine } from '../../dist/eval/engine-default.js';
import { runEval } from '../../dist/eval/run.js';
import { loadSpec } from '../../dist/eval/spec.js';
import { KEPT_GROUPS_DEFAULTS } from '../../dist/eval/kept-groups-spec.js';
import { specNames } from './suite-cache.js';

const keepBy = process.env.KEEPBY === 'sentences' ? 'sentences' : 'bytes';
const pct = (x) => `${(100 * x).toFixed(1)}`;
const rows = [];
for (const { name, file } of specNames(process.argv.slice(2))) {
  const spec = await loadSpec(file);
  spec.methods = [{ name: 'contrast', title: 'offered', avoidKeptGroups: { ...KEPT_GROUPS_DEFAULTS, pick: 'offered' } }];
  const t0 = performance.now();
  const r = await runEval(spec, { engine: defaultEngine, keepBy });
  const m = r.methods[0];
  const g = m.keptGroups;
  const before = g.precisionCharsBefore;
  const after = g.avoided.length ? m.precisionChars : before;
  const offered = g.avoided.map((id) => `${id}: ${pct(g.groups[id - 1].share)}% of the kept text, ${pct(g.groups[id - 1].outOfDomain)}% out of domain, ${pct(g.groups[id - 1].taskShare ?? NaN)}% of the task`);
  rows.push({ name, before, after });
  console.log(`${name}: ${pct(before)} -> ${pct(after)} (${offered.length ? `offered ${offered.join('; ')}` : 'nothing offered'}) ${((performance.now() - t0) / 1000).toFixed(0)}s`);
}
const drops = rows.map((r) => r.after - r.before);
console.log(`\n${rows.length} mixes: mean ${pct(rows.reduce((a, r) => a + r.before, 0) / rows.length)} -> ${pct(rows.reduce((a, r) => a + r.after, 0) / rows.length)}; largest drop ${pct(-Math.min(0, ...drops))} points; ${drops.filter((d) => d > 0).length} rose, ${drops.filter((d) => d < 0).length} fell`);
