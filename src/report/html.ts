import type { EvalResult, MethodResult } from '../eval/run.js';
import { esc, fmtNum, labelColors, line, niceStep, rect, svg, text } from './svg.js';

const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;

const CSS = `
:root{--ink:#1d2433;--muted:#6b7280;--line:#e5e7eb;--bg:#f7f7f4;--card:#fff}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{max-width:1080px;margin:0 auto;padding:32px 24px 48px}
h1{font-size:26px;margin:0 0 4px;letter-spacing:-.01em}
h2{font-size:18px;margin:0 0 4px}
.sub{color:var(--muted);margin:0 0 20px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px 22px;margin:0 0 20px}
.card p.note{color:var(--muted);margin:2px 0 14px;font-size:14px}
.kpis{display:flex;flex-wrap:wrap;gap:12px;margin:0 0 20px}
.kpi{flex:1 1 180px;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}
.kpi b{display:block;font-size:24px;line-height:1.2}
.kpi span{color:var(--muted);font-size:13px}
.legend{display:flex;flex-wrap:wrap;gap:14px;margin:4px 0 10px;font-size:13px;color:var(--muted)}
.legend i{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:14px}
.hist h3{font-size:14px;margin:0;font-weight:600}
.hist p{margin:0 0 4px;font-size:12px;color:var(--muted)}
table{border-collapse:collapse;width:100%;font-size:14px;font-variant-numeric:tabular-nums}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
th{color:var(--muted);font-weight:600}
tr.mix td{color:var(--muted);font-style:italic}
td.best{font-weight:700}
svg text{font-family:inherit}
footer{color:var(--muted);font-size:12px;margin-top:24px}
`;

function legend(labels: string[], colors: Map<string, string>, inDomain: string): string {
  return `<div class="legend">${labels
    .map((l) => `<span><i style="background:${colors.get(l)}"></i>${esc(l)}${l === inDomain ? ' (in-domain)' : ''}</span>`)
    .join('')}</div>`;
}

/** Figure 5 as 100% stacked bars: the mix on top, then each method, in-domain share labelled. */
function keptShareChart(r: EvalResult, colors: Map<string, string>): string {
  const rows: Array<{ name: string; shares: Record<string, number>; mix: boolean }> = [
    { name: 'input mix', shares: Object.fromEntries(r.mix.map((m) => [m.label, m.share])), mix: true },
    ...r.methods.map((m) => ({ name: m.name, shares: m.kept_share, mix: false })),
  ];
  const labelW = 230;
  const barW = 640;
  const rightW = 120;
  const rowH = 34;
  const top = 26;
  const W = labelW + barW + rightW;
  const H = top + rows.length * rowH + 8;
  const parts: string[] = [];
  for (let t = 0; t <= 100; t += 20) {
    const x = labelW + (barW * t) / 100;
    parts.push(line(x, top - 6, x, H - 6, 'stroke="#e5e7eb" stroke-width="1"'));
    parts.push(text(x, top - 10, `${t}%`, 'font-size="11" fill="#6b7280" text-anchor="middle"'));
  }
  rows.forEach((row, i) => {
    const y = top + i * rowH;
    parts.push(text(labelW - 12, y + rowH / 2 + 4, row.name, `font-size="13" text-anchor="end" fill="${row.mix ? '#6b7280' : '#1d2433'}"${row.mix ? ' font-style="italic"' : ''}`));
    let x = labelW;
    for (const l of r.labels) {
      const w = barW * (row.shares[l] ?? 0);
      if (w > 0) {
        parts.push(rect(x, y + 6, w, rowH - 12, colors.get(l) as string, `opacity="${row.mix ? 0.55 : 1}"`, `${row.name} — ${l}: ${pct(row.shares[l] ?? 0)}`));
        if (w > 38) parts.push(text(x + w / 2, y + rowH / 2 + 4, pct(row.shares[l] ?? 0, 0), 'font-size="11" fill="#fff" text-anchor="middle" font-weight="600"'));
      }
      x += w;
    }
    const inShare = row.shares[r.inDomain] ?? 0;
    parts.push(text(W - 4, y + rowH / 2 + 5, pct(inShare), `font-size="15" font-weight="700" fill="${colors.get(r.inDomain)}" text-anchor="end"`));
  });
  parts.push(text(W - 4, top - 10, `${r.inDomain} kept`, `font-size="11" fill="#6b7280" text-anchor="end"`));
  // Where random selection would land: the in-domain share of the mix.
  const mixIn = r.mix.find((m) => m.label === r.inDomain)?.share ?? 0;
  const xr = labelW + barW * mixIn;
  parts.push(line(xr, top + rowH - 2, xr, H - 6, 'stroke="#1d2433" stroke-width="1.5" stroke-dasharray="4 3"'));
  return svg(W, H, parts.join(''), `share of kept sentences per source, per method`);
}

/** In-domain precision and recall per method as paired horizontal bars. */
function precisionRecallChart(r: EvalResult, colors: Map<string, string>): string {
  const labelW = 230;
  const barW = 300;
  const gap = 64;
  const rowH = 28;
  const top = 40;
  const W = labelW + 2 * barW + gap + 64;
  const H = top + r.methods.length * rowH + 8;
  const mixIn = r.mix.find((m) => m.label === r.inDomain)?.share ?? 0;
  const parts: string[] = [];
  const cols: Array<{ title: string; x0: number; get: (m: MethodResult) => number; ref: number; refLabel: string }> = [
    { title: 'precision (in-domain share of kept)', x0: labelW, get: (m) => m.precision, ref: mixIn, refLabel: 'random' },
    { title: 'recall (share of in-domain kept)', x0: labelW + barW + gap, get: (m) => m.recall, ref: r.keep, refLabel: 'random' },
  ];
  for (const c of cols) {
    parts.push(text(c.x0, 13, c.title, 'font-size="12" fill="#6b7280" font-weight="600"'));
    parts.push(rect(c.x0, top - 4, barW, H - top, '#f3f4f6'));
    r.methods.forEach((m, i) => {
      const y = top + i * rowH;
      const v = c.get(m);
      parts.push(rect(c.x0, y + 5, barW * v, rowH - 10, colors.get(r.inDomain) as string, 'rx="2"'));
      parts.push(text(c.x0 + barW * v + 6, y + rowH / 2 + 4, pct(v), 'font-size="12" fill="#1d2433"'));
    });
    const xr = c.x0 + barW * c.ref;
    parts.push(line(xr, top - 6, xr, H - 2, 'stroke="#1d2433" stroke-width="1.5" stroke-dasharray="4 3"'));
    parts.push(text(xr + 4, top - 8, `${c.refLabel} ${pct(c.ref, 0)}`, 'font-size="10" fill="#1d2433"'));
  }
  r.methods.forEach((m, i) => parts.push(text(labelW - 12, top + i * rowH + rowH / 2 + 4, m.name, 'font-size="13" text-anchor="end" fill="#1d2433"')));
  return svg(W, H, parts.join(''), 'in-domain precision and recall per method');
}

/** Score histogram stacked by source, kept side shaded, the cut as a line. */
function histogramChart(r: EvalResult, m: MethodResult, colors: Map<string, string>): string {
  const W = 340;
  const H = 190;
  const pl = 8;
  const pr = 8;
  const pt = 18;
  const pb = 34;
  const h = m.histogram;
  const bins = (h.counts[0] ?? []).length;
  const totals = new Array<number>(bins).fill(0);
  for (const row of h.counts) row.forEach((c, b) => (totals[b] = (totals[b] as number) + c));
  const maxT = Math.max(1, ...totals);
  const pw = W - pl - pr;
  const ph = H - pt - pb;
  const bw = pw / Math.max(1, bins);
  const xOf = (s: number) => pl + ((s - h.lo) / (h.hi - h.lo)) * pw;
  const parts: string[] = [];
  const xc = Math.min(pl + pw, Math.max(pl, xOf(h.cut)));
  parts.push(rect(pl, pt, xc - pl, ph, '#ecfdf5'));
  parts.push(text(pl + 4, pt - 5, '◀ kept', `font-size="11" fill="${colors.get(r.inDomain)}" font-weight="600"`));
  parts.push(text(pl + pw - 2, pt - 5, 'dropped ▶', 'font-size="11" fill="#6b7280" text-anchor="end"'));
  for (let b = 0; b < bins; b++) {
    let y = pt + ph;
    r.labels.forEach((l, li) => {
      const c = h.counts[li]?.[b] ?? 0;
      if (c <= 0) return;
      const hh = (c / maxT) * ph;
      y -= hh;
      parts.push(rect(pl + b * bw + 0.5, y, bw - 1, hh, colors.get(l) as string));
    });
  }
  parts.push(line(pl, pt + ph, pl + pw, pt + ph, 'stroke="#9ca3af" stroke-width="1"'));
  parts.push(line(xc, pt - 2, xc, pt + ph, 'stroke="#111827" stroke-width="2"'));
  parts.push(text(xc, pt + ph + 13, `cut ${fmtNum(h.cut)}`, `font-size="11" fill="#111827" font-weight="600" text-anchor="${xc > pl + pw * 0.75 ? 'end' : xc < pl + pw * 0.25 ? 'start' : 'middle'}"`));
  const step = niceStep(h.hi - h.lo, 4);
  for (let t = Math.ceil(h.lo / step) * step; t <= h.hi + 1e-12; t += step) {
    const x = xOf(t);
    if (Math.abs(x - xc) < 44) continue;
    const anchor = x < pl + 14 ? 'start' : x > pl + pw - 14 ? 'end' : 'middle';
    parts.push(text(x, pt + ph + 13, fmtNum(Number(t.toPrecision(6))), `font-size="10" fill="#6b7280" text-anchor="${anchor}"`));
  }
  parts.push(text(pl + pw / 2, H - 4, 'segment score (lower = more task-like)', 'font-size="10" fill="#9ca3af" text-anchor="middle"'));
  return svg(W, H, parts.join(''), `score histogram for ${m.name}`);
}

function numbersTable(r: EvalResult): string {
  const bestP = Math.max(...r.methods.map((m) => m.precision));
  const head = `<tr><th>method</th><th>embedder</th>${r.labels.map((l) => `<th>${esc(l)}</th>`).join('')}<th>precision</th><th>recall</th><th>seconds</th></tr>`;
  const mixRow = `<tr class="mix"><td>input mix</td><td></td>${r.mix.map((m) => `<td>${pct(m.share)}</td>`).join('')}<td></td><td></td><td></td></tr>`;
  const rows = r.methods
    .map(
      (m) =>
        `<tr><td>${esc(m.name)}</td><td>${esc(m.embedder ?? '—')}</td>${r.labels.map((l) => `<td>${pct(m.kept_share[l] ?? 0)}</td>`).join('')}` +
        `<td${m.precision === bestP ? ' class="best"' : ''}>${pct(m.precision)}</td><td>${pct(m.recall)}</td><td>${m.seconds.toFixed(1)}</td></tr>`,
    )
    .join('');
  return `<table>${head}${mixRow}${rows}</table>`;
}

/** One self-contained HTML page (inline CSS and SVG, no scripts, no external references). */
export function renderReport(r: EvalResult, opts: { generated?: string } = {}): string {
  const colors = labelColors(r.labels, r.inDomain);
  const best = [...r.methods].sort((a, b) => b.precision - a.precision)[0];
  const mixIn = r.mix.find((m) => m.label === r.inDomain)?.share ?? 0;
  const totalSent = r.mix.reduce((a, m) => a + m.sentences, 0);
  const kpis = [
    best ? `<div class="kpi"><b style="color:${colors.get(r.inDomain)}">${pct(best.precision)}</b><span>best in-domain precision — ${esc(best.name)}</span></div>` : '',
    `<div class="kpi"><b>${pct(mixIn)}</b><span>${esc(r.inDomain)} share of the mix (what random keeps)</span></div>`,
    `<div class="kpi"><b>${totalSent.toLocaleString('en-US')}</b><span>mix sentences from ${r.labels.length} sources; ${r.taskSentences.toLocaleString('en-US')} task sentences</span></div>`,
    `<div class="kpi"><b>${pct(r.keep, 0)}</b><span>kept, in segments of ${r.segment} sentences (seed ${r.seed})</span></div>`,
  ].join('');
  const hists = r.methods
    .map((m) => `<div class="hist"><h3>${esc(m.name)}</h3><p>${pct(m.precision)} of kept is ${esc(r.inDomain)} · ${m.seconds.toFixed(1)} s</p>${histogramChart(r, m, colors)}</div>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>tadpole eval — ${esc(r.spec)}</title><style>${CSS}</style></head>
<body><main>
<h1>Where does the kept text come from?</h1>
<p class="sub">${esc(r.spec)} · task in-domain source: <b>${esc(r.inDomain)}</b> · each method keeps the ${pct(r.keep, 0)} of ${r.keepBy} it scores most task-like (TADPOLE paper, Figure 5)</p>
<div class="kpis">${kpis}</div>
<section class="card"><h2>Kept share per source</h2>
<p class="note">Each bar is 100% of what a method kept, split by the source it came from. The dashed line is the ${esc(r.inDomain)} share of the input mix: a method to the right of it prefers in-domain text.</p>
${legend(r.labels, colors, r.inDomain)}${keptShareChart(r, colors)}</section>
<section class="card"><h2>In-domain precision and recall</h2>
<p class="note">Precision: share of kept sentences from ${esc(r.inDomain)}. Recall: share of all ${esc(r.inDomain)} sentences that were kept (at most ${pct(Math.min(1, r.keep / Math.max(mixIn, 1e-9)), 0)} when the kept budget is ${pct(r.keep, 0)}).</p>
${precisionRecallChart(r, colors)}</section>
<section class="card"><h2>Segment scores</h2>
<p class="note">Sentences per score bin, stacked by source. Segments left of the cut are kept. A method separates the domains when the ${esc(r.inDomain)} colour sits left of the line and the others right of it.</p>
${legend(r.labels, colors, r.inDomain)}<div class="grid">${hists}</div></section>
<section class="card"><h2>Numbers</h2>${numbersTable(r)}</section>
<footer>tadpole eval${opts.generated ? ` · ${esc(opts.generated)}` : ''} · general sample ${r.generalSentences.toLocaleString('en-US')} sentences</footer>
</main></body></html>
`;
}

