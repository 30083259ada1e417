import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { budgets, buildMix, chooseDocs } from '../../src/eval/mix.js';
import type { SourceSpec } from '../../src/eval/spec.js';
import { testDir } from '../helpers/temp.js';

const dir = testDir('tadpole-mix-');
function source(label: string, n: number, len: number, share?: number): SourceSpec {
  const f = join(dir, `${label}.jsonl`);
  writeFileSync(f, Array.from({ length: n }, (_, i) => JSON.stringify({ text: `${label} ${i} `.padEnd(len, 'x') })).join('\n') + '\n');
  return { label, files: [f], format: 'jsonl-text', ...(share !== undefined ? { share } : {}) };
}

describe('budgets', () => {
  it('scales shares to the largest total every source can fill', () => {
    const sources: SourceSpec[] = [
      { label: 'a', files: ['x'], format: 'lines', share: 0.5 },
      { label: 'b', files: ['y'], format: 'lines', share: 0.25 },
    ];
    // a has 1000 bytes (fits a total of 2000), b has 300 (fits 1200): b limits.
    expect(budgets(sources, [1000, 300])).toEqual([600, 300]);
  });
});

describe('chooseDocs', () => {
  it('meets the byte budget to within half a document and is seeded', () => {
    const lens = Float64Array.from({ length: 200 }, (_, i) => 50 + (i % 7) * 10);
    const a = chooseDocs(lens, 3000, Infinity, new Rng(1));
    const b = chooseDocs(lens, 3000, Infinity, new Rng(1));
    expect([...a]).toEqual([...b]);
    const used = lens.reduce((s, l, i) => s + (a[i] ? l : 0), 0);
    expect(Math.abs(used - 3000)).toBeLessThanOrEqual(55);
  });
});

describe('buildMix', () => {
  it('writes one labelled JSONL line per document, docLabel in the same order', async () => {
    const sources = [source('bio', 300, 100, 0.4), source('news', 600, 100, 0.6)];
    const out = join(dir, 'mix.jsonl');
    const mix = await buildMix({ sources, seed: 3, out });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { text: string; source: string });
    expect(lines.length).toBe(mix.totalDocs);
    expect(lines.map((l) => l.source)).toEqual([...mix.docLabel].map((i) => mix.labels[i]));
    // bio (300 docs of 100 bytes) limits the total to 75,000 bytes; news gets 60% of it.
    expect(mix.counts.bio!.docs).toBe(300);
    expect(mix.counts.news!.docs).toBe(450);
  });
  it('interleaves: the first half of the mix already holds both sources near their shares', async () => {
    const sources = [source('p', 400, 80, 0.5), source('q', 400, 80, 0.5)];
    const mix = await buildMix({ sources, seed: 9, out: join(dir, 'mix2.jsonl') });
    const half = mix.docLabel.slice(0, mix.totalDocs / 2);
    const pShare = half.filter((l) => l === 0).length / half.length;
    expect(pShare).toBeGreaterThan(0.4);
    expect(pShare).toBeLessThan(0.6);
  });
  it('is deterministic for a seed and differs for another seed', async () => {
    const sources = [source('c', 100, 60, 0.3), source('d', 100, 60, 0.7)];
    const a = await buildMix({ sources, seed: 1, out: join(dir, 'a.jsonl') });
    const b = await buildMix({ sources, seed: 1, out: join(dir, 'b.jsonl') });
    const c = await buildMix({ sources, seed: 2, out: join(dir, 'c.jsonl') });
    expect(readFileSync(a.file, 'utf8')).toBe(readFileSync(b.file, 'utf8'));
    expect(readFileSync(a.file, 'utf8')).not.toBe(readFileSync(c.file, 'utf8'));
  });
});
