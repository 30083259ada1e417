import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

interface Figure {
  data: string;
  out: string;
}
type FiguresModule = { FIGURES: Figure[]; renderFigure: (fig: Figure) => string };

const figures = async () => (await import(join(ROOT, 'scripts', 'figures', 'peers.js'))) as FiguresModule;

describe('docs/figures', () => {
  it('every figure is what its results file draws (regenerate: node scripts/figures/peers.js)', async () => {
    const { FIGURES, renderFigure } = await figures();
    expect(FIGURES.length).toBeGreaterThan(0);
    for (const fig of FIGURES) expect(readFileSync(join(ROOT, fig.out), 'utf8'), fig.out).toBe(renderFigure(fig));
  });

  it('draws one bar per measured tool and group, each with its value, from the results', async () => {
    const { FIGURES, renderFigure } = await figures();
    for (const fig of FIGURES) {
      const data = JSON.parse(readFileSync(join(ROOT, fig.data), 'utf8')) as { mixes?: Array<{ spec: string; tools: Record<string, unknown> }>; tools?: Record<string, unknown> };
      const svg = renderFigure(fig);
      const bars = svg.match(/<rect [^>]*><title>/g) ?? [];
      // quality: a bar per tool per mix; speed: select and score per tool.
      const expected = data.mixes ? data.mixes.reduce((a, m) => a + Object.keys(m.tools).length, 0) : 2 * Object.keys(data.tools ?? {}).length;
      expect(bars.length, fig.out).toBe(expected);
      for (const m of data.mixes ?? []) expect(svg).toContain(`>${m.spec}</text>`);
    }
  });

  it('the README shows one of them', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/!\[[^\]]+\]\(docs\/figures\/peers-[a-z]+\.svg\)/);
  });
});
