// A grouped bar chart as a standalone SVG string, with no dependencies: title, axis labels, a
// legend, grid lines. Every number is written with fixed decimals, so the same data gives the
// same bytes on any machine (test/figures.test.ts regenerates the committed figures and compares).

const FONT = 'font-family="Helvetica, Arial, sans-serif"';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (x) => (Math.round(x * 10) / 10).toFixed(1);

function text(x, y, s, attrs = '') {
  return `<text x="${n(x)}" y="${n(y)}" ${attrs}>${esc(s)}</text>`;
}

/**
 * groups: the category names along the x axis; series: [{ name, color, values }] with one value
 * per group (null: not measured, no bar); yMax and yTicks: the axis; format(v): a tick or value
 * label; valueLabels: print each bar's value above it; rotate: slant the group names (many groups).
 */
export function groupedBars({ title, subtitle, yLabel, xLabel, groups, series, yMax, yTicks, format, valueLabels = false, rotate = false, width = 960, height = 460 }) {
  const left = 72;
  const right = 16;
  const top = subtitle ? 92 : 74;
  const bottom = (rotate ? 110 : 52) + (xLabel ? 18 : 0);
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const y = (v) => top + plotH - (Math.min(v, yMax) / yMax) * plotH;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="12">`);
  out.push(`<title>${esc(title)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(text(width / 2, 24, title, 'text-anchor="middle" font-size="17" font-weight="bold" fill="#222222"'));
  if (subtitle) out.push(text(width / 2, 44, subtitle, 'text-anchor="middle" font-size="12" fill="#555555"'));
  // Legend: one row, centred under the title.
  const legendY = subtitle ? 66 : 48;
  const itemW = series.map((s) => 28 + s.name.length * 6.2);
  let lx = (width - itemW.reduce((a, b) => a + b, 0)) / 2;
  for (const [k, s] of series.entries()) {
    out.push(`<rect x="${n(lx)}" y="${n(legendY - 10)}" width="12" height="12" fill="${s.color}"/>`);
    out.push(text(lx + 17, legendY, s.name, 'fill="#222222"'));
    lx += itemW[k];
  }
  // Grid and y axis.
  for (const t of yTicks) {
    out.push(`<line x1="${left}" y1="${n(y(t))}" x2="${width - right}" y2="${n(y(t))}" stroke="${t === 0 ? '#444444' : '#dddddd'}" stroke-width="1"/>`);
    out.push(text(left - 6, y(t) + 4, format(t), 'text-anchor="end" fill="#444444"'));
  }
  out.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${n(top + plotH)}" stroke="#444444" stroke-width="1"/>`);
  out.push(text(18, top + plotH / 2, yLabel, `text-anchor="middle" fill="#222222" transform="rotate(-90 18 ${n(top + plotH / 2)})"`));
  // Bars, group by group.
  const groupW = plotW / groups.length;
  const barW = (groupW * 0.8) / series.length;
  for (const [g, name] of groups.entries()) {
    const x0 = left + g * groupW + groupW * 0.1;
    for (const [k, s] of series.entries()) {
      const v = s.values[g];
      if (v === null || v === undefined) continue;
      const x = x0 + k * barW;
      out.push(`<rect x="${n(x)}" y="${n(y(v))}" width="${n(barW - 1)}" height="${n(top + plotH - y(v))}" fill="${s.color}"><title>${esc(`${name}, ${s.name}: ${format(v)}`)}</title></rect>`);
      if (valueLabels) out.push(text(x + barW / 2, y(v) - 4, format(v), 'text-anchor="middle" font-size="11" fill="#222222"'));
    }
    const cx = left + g * groupW + groupW / 2;
    const ly = top + plotH + 16;
    out.push(rotate ? text(cx, ly, name, `text-anchor="end" fill="#222222" transform="rotate(-40 ${n(cx)} ${n(ly)})"`) : text(cx, ly, name, 'text-anchor="middle" fill="#222222"'));
  }
  if (xLabel) out.push(text(left + plotW / 2, height - 10, xLabel, 'text-anchor="middle" fill="#222222"'));
  out.push('</svg>');
  return out.join('\n') + '\n';
}
