// The inspect loop measured, with the mix's labels playing the user: the default filters the
// mix, its kept text is grouped as `tadpole inspect --task` groups it (src/eval/kept-groups.ts,
// with the task's words), every group whose kept characters are at least OOD (default 0.5) out
// of domain is avoided (200 seeded sentences of them, fit --avoid), and the refit is cut again.
// Prints the in-domain share of the kept characters before and after, per mix, and their mean
// and minimum. The keep counts sentences, as the figures in docs/benchmarks/task-share.md were
// measured (KEEPBY=bytes for filter's default).
//
// usage: [OOD=0.5] [KEEPBY=sentences] [LOOP_GROUPS=12] [LOOP_LIKE=6] node scripts/research/inspect-loop.js corpora/suite/*.json corpora/suite-check/*.json ...
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadSpec } from '../../dist/eval/spec.js';
import { runEval } from '../../dist/eval/run.js';
import { defaultEngineWith } from '../../dist/eval/engine-default.js';

const ood = Number(process.env.OOD ?? 0.5);
const method = { name: 'contrast', title: 'default + inspect --task + --avoid', avoidKeptGroups: { groups: Number(process.env.LOOP_GROUPS ?? 12), outOfDomain: ood, sentences: 200, ...(process.env.LOOP_LIKE ? { likeGroups: Number(process.env.LOOP_LIKE) } : {}) } };
const rows = [];
const pct = (x) => (100 * x).toFixed(1);
for (const file of process.argv.slice(2)) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  // A spec's own methods are replaced by the loop's one; its mix, task and keep stay.
  const dir = join(tmpdir(), 'tadpole-research', 'loop-specs');
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, file.split('/').pop());
  writeFileSync(copy, JSON.stringify({ ...raw, methods: [method] }));
  const spec = await loadSpec(copy);
  const t0 = performance.now();
  const r = await runEval(spec, { engine: defaultEngineWith(1), keepBy: process.env.KEEPBY ?? 'sentences' });
  const m = r.methods[0];
  const g = m.keptGroups;
  const before = g ? g.precisionCharsBefore : m.precisionChars;
  rows.push({ name: spec.name, before, after: m.precisionChars });
  const groups = g ? g.groups.map((x, i) => `${i + 1}:${pct(x.share)}/${pct(x.outOfDomain)}`).join(' ') : '';
  console.log(`${spec.name}\tkeep ${pct(r.keep)}%\tbefore ${pct(before)}\tafter ${pct(m.precisionChars)}\tavoided ${g?.avoided.join(',') || 'none'}\tgroups (share/out of domain) ${groups}\t${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
const mean = (k) => rows.reduce((a, r) => a + r[k], 0) / rows.length;
const min = (k) => Math.min(...rows.map((r) => r[k]));
console.log(`${rows.length} mixes: before mean ${pct(mean('before'))} min ${pct(min('before'))}; after mean ${pct(mean('after'))} min ${pct(min('after'))}; at least 90% after: ${rows.filter((r) => r.after >= 0.9).length}`);
