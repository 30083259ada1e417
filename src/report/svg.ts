/** Tiny SVG string helpers: no library, every value escaped. */

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Round to 2 decimals: shorter markup, no visible difference. */
export const n = (x: number) => String(Math.round(x * 100) / 100);

/** A rectangle; `title` becomes a hover tooltip. */
export function rect(x: number, y: number, w: number, h: number, fill: string, extra = '', title?: string): string {
  const head = `<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(0, w))}" height="${n(Math.max(0, h))}" fill="${fill}"${extra ? ' ' + extra : ''}`;
  return title ? `${head}><title>${esc(title)}</title></rect>` : `${head}/>`;
}

export function text(x: number, y: number, s: string, attrs = ''): string {
  return `<text x="${n(x)}" y="${n(y)}"${attrs ? ' ' + attrs : ''}>${esc(s)}</text>`;
}

export function line(x1: number, y1: number, x2: number, y2: number, attrs: string): string {
  return `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" ${attrs}/>`;
}

export function svg(w: number, h: number, body: string, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(label)}">${body}</svg>`;
}

/** Colour-blind-safe palette (Okabe–Ito, reordered); the in-domain source always gets the first. */
export const PALETTE = ['#009E73', '#0072B2', '#E69F00', '#CC79A7', '#D55E00', '#56B4E9', '#8C7A5B', '#999999', '#F0E442', '#4D4D4D'];

export function labelColors(labels: string[], inDomain: string): Map<string, string> {
  const m = new Map<string, string>();
  m.set(inDomain, PALETTE[0] as string);
  let k = 1;
  for (const l of labels) if (!m.has(l)) m.set(l, PALETTE[k++ % PALETTE.length] as string);
  return m;
}

/** A "nice" tick step (1, 2, 5 × 10^k) giving about `count` ticks over span. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / p;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
}

export function fmtNum(x: number): string {
  const a = Math.abs(x);
  if (a === 0) return '0';
  if (a >= 1000 || a < 0.01) return x.toExponential(1);
  return String(Number(x.toPrecision(3)));
}
