import type { RankResult, RankRow } from './result.js';

function fmt(v: number, digits: number): string {
  return Number.isFinite(v) ? v.toFixed(digits) : String(v);
}

function rate(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : v.toFixed(0);
}

/** Aligned text table; with repeats, each cell is mean±std. */
export function formatRankTable(result: RankResult): string {
  const head = ['detector', 'F1', 'F1 best', 'AUROC', 'AP', 'fit s', 'score/s'];
  const cell = (r: RankRow, key: 'f1' | 'f1_best' | 'auroc' | 'ap') => (r.std ? `${fmt(r[key], 3)}±${fmt(r.std[key], 3)}` : fmt(r[key], 3));
  const rows = result.detectors.map((r) => [r.name, cell(r, 'f1'), cell(r, 'f1_best'), cell(r, 'auroc'), cell(r, 'ap'), fmt(r.fit_s, 2), rate(r.score_per_s)]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] as string).length)));
  const line = (cols: string[]) => cols.map((s, c) => (c === 0 ? s.padEnd(widths[c] as number) : s.padStart(widths[c] as number))).join('  ').trimEnd();
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of rows) out.push(line(row));
  out.push(`train ${result.train} task rows; test ${result.test_task} task + ${result.test_general} general rows; seed ${result.seed}${result.repeat > 1 ? `, ${result.repeat} repeats (mean±std)` : ''}`);
  return out.join('\n') + '\n';
}
