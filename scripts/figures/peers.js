#!/usr/bin/env node
// The figures beside the peers, drawn from the measured results files (never by hand):
//   docs/benchmarks/results/peers-quality.json (scripts/bench/peers-quality.js) -> docs/figures/peers-quality.svg
//   docs/benchmarks/results/peers-speed.json   (scripts/bench/peers.js, BENCH_PEERS_OUT) -> docs/figures/peers-speed.svg
// `node scripts/figures/peers.js` writes them; `--check` only compares and exits 1 on a
// difference (test/figures.test.ts does the same).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupedBars } from './bars.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** One colour per tool, the same in every figure; the legend's order. */
const TOOLS = [
  { key: 'default', name: 'tadpole default', short: 'tadpole', color: '#1f77b4' },
  { key: 'dsir', name: 'DSIR (data-selection)', short: 'DSIR', color: '#ff7f0e' },
  { key: 'fasttext', name: 'fastText classifier (DCLM recipe)', short: 'fastText', color: '#2ca02c' },
  { key: 'random', name: 'random', short: 'random', color: '#9a9a9a' },
];

const pct = (v) => `${Math.round(v * 100)}%`;

function quality(data) {
  const mean = (key) => data.mixes.reduce((a, m) => a + m.tools[key].precision, 0) / data.mixes.length;
  return groupedBars({
    title: 'In-domain share of the kept text, per labelled mix',
    subtitle: `each tool keeps ${pct(data.keep)} of the text of each ≈1.5 MB mix (tadpole: --keep-by bytes). Means: ${TOOLS.map((t) => `${t.short} ${(mean(t.key) * 100).toFixed(1)}%`).join(', ')}`,
    yLabel: 'in-domain share of kept characters',
    groups: data.mixes.map((m) => m.spec),
    series: TOOLS.map((t) => ({ name: t.name, color: t.color, values: data.mixes.map((m) => m.tools[t.key]?.precision ?? null) })),
    yMax: 1,
    yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1],
    format: pct,
    rotate: true,
    width: 1100,
    height: 480,
  });
}

function speed(data) {
  const present = TOOLS.filter((t) => data.tools[t.key]);
  const max = Math.max(...present.flatMap((t) => [data.tools[t.key].select_mb_per_cpu_s, data.tools[t.key].score_mb_per_cpu_s]));
  const step = max > 20 ? 5 : max > 10 ? 4 : 2;
  const yMax = Math.ceil((max * 1.08) / step) * step;
  return groupedBars({
    title: 'Throughput per core',
    subtitle: `MB of corpus per CPU-second, ${data.corpus.asked_mb} MB JSONL, one core each, Node ${data.node.replace(/^v/, '')} (higher is better)`,
    yLabel: 'MB per CPU-second',
    groups: ['select: task data to kept output', 'score: the pass over the corpus'],
    series: present.map((t) => ({ name: t.name, color: t.color, values: [data.tools[t.key].select_mb_per_cpu_s, data.tools[t.key].score_mb_per_cpu_s] })),
    yMax,
    yTicks: Array.from({ length: yMax / step + 1 }, (_, i) => i * step),
    format: (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2)),
    valueLabels: true,
    width: 760,
    height: 420,
  });
}

/** Every figure: its results file, its SVG, how it is drawn. */
export const FIGURES = [
  { data: 'docs/benchmarks/results/peers-quality.json', out: 'docs/figures/peers-quality.svg', render: quality },
  { data: 'docs/benchmarks/results/peers-speed.json', out: 'docs/figures/peers-speed.svg', render: speed },
];

/** A figure's SVG from its results file, as committed. */
export function renderFigure(fig, root = ROOT) {
  return fig.render(JSON.parse(readFileSync(join(root, fig.data), 'utf8')));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const fig of FIGURES) {
    const svg = renderFigure(fig);
    const path = join(ROOT, fig.out);
    if (check) {
      let now = '';
      try {
        now = readFileSync(path, 'utf8');
      } catch {
        // missing: stale
      }
      if (now !== svg) {
        stale++;
        console.log(`${fig.out}: differs from ${fig.data}; run node scripts/figures/peers.js`);
      }
    } else {
      writeFileSync(path, svg);
      console.log(`wrote ${fig.out}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}
