import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/html.js';
import { formatTable, toJSON } from '../../src/report/table.js';
import type { EvalResult } from '../../src/eval/run.js';

/** Cuts at 0.5x, 1x, 2x the in-domain share (0.4 of the sentences). */
function cuts(precision: number[], recall: number[]): EvalResult['methods'][number]['atShare'] {
  return [0.5, 1, 2].map((factor, k) => ({ factor, keep: Math.min(1, factor * 0.4), keptText: Math.min(1, factor * 0.4), precisionChars: precision[k]!, recallChars: recall[k]! }));
}

function result(): EvalResult {
  const labels = ['news', 'bio'];
  const hist = { lo: 0, hi: 1, counts: [[5, 1, 0], [0, 2, 9]], cut: 0.4 };
  return {
    spec: 'toy <spec>',
    inDomain: 'bio',
    keep: 0.2,
    keepBy: 'sentences',
    keepRule: 'fixed',
    inDomainShare: 0.4,
    segment: 15,
    seed: 1,
    labels,
    mix: [
      { label: 'news', docs: 3, bytes: 300, sentences: 60, share: 0.6, availableBytes: 300 },
      { label: 'bio', docs: 2, bytes: 200, sentences: 40, share: 0.4, availableBytes: 200 },
    ],
    taskSentences: 10,
    generalSentences: 20,
    methods: [
      { name: 'tadpole[hash]', method: 'tadpole', embedder: 'hash', kept_share: { news: 0.1, bio: 0.9 }, precision: 0.9, precisionChars: 0.93, recall: 0.45, keptText: 0.21, seconds: 1.5, fitSeconds: 1, keptSentences: 20, totalSentences: 100, keptSegments: 2, totalSegments: 8, histogram: hist, atShare: cuts([0.95, 0.93, 0.6], [0.24, 0.46, 0.62]) },
      { name: 'random', method: 'random', embedder: null, kept_share: { news: 0.6, bio: 0.4 }, precision: 0.4, precisionChars: 0.4, recall: 0.2, keptText: 0.19, seconds: 0.1, fitSeconds: 0, keptSentences: 20, totalSentences: 100, keptSegments: 2, totalSegments: 8, histogram: hist, atShare: cuts([0.41, 0.4, 0.38], [0.1, 0.2, 0.39]) },
    ],
  };
}

describe('renderReport', () => {
  const html = renderReport(result());
  it('is one document with inline SVG charts and no external references', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect((html.match(/<svg /g) ?? []).length).toBeGreaterThanOrEqual(4);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|\ssrc=|\shref=/i);
    // The only URL is the SVG namespace, which is an identifier, not a fetch.
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')).not.toMatch(/https?:\/\//);
  });
  it('escapes names that hold markup', () => {
    expect(html).toContain('toy &lt;spec&gt;');
    expect(html).not.toContain('toy <spec>');
  });
  it('marks the cut in every histogram', () => {
    expect((html.match(/cut 0\.4/g) ?? []).length).toBe(2);
  });
});

describe('table and JSON', () => {
  it('the table has a row per method with precision, the in-domain share of kept characters, recall and seconds', () => {
    const t = formatTable(result());
    expect(t).toMatch(/tadpole\[hash\]\s+10\.0%\s+90\.0%\s+90\.0%\s+93\.0%\s+45\.0%\s+1\.5/);
    expect(t).toMatch(/method\s+news\s+bio\s+precision\s+chars\s+recall\s+seconds/);
    expect(t).toContain('chars: of the kept characters');
    expect(t).toMatch(/\(mix\)\s+60\.0%\s+40\.0%/);
  });
  it('with keep "share", the table adds each method\'s cuts at 0.5x, 1x and 2x the share; with a fixed keep only the JSON has them', () => {
    const shared = { ...result(), keep: 0.4, keepRule: 'share' as const };
    expect(formatTable({ ...shared, keepBy: 'bytes' })).toContain("keep 40.0% of bytes (the bio share of the mix's bytes)");
    const t = formatTable(shared);
    expect(t).toContain('keep 40.0% of sentences (the bio share of the mix\'s sentences)');
    expect(t).toContain('at 0.5x, 1x, 2x the bio share (keep 20.0%, 40.0%, 80.0% of sentences; one fit, sized for 1x)');
    expect(t).toMatch(/method\s+precision 0\.5x\s+recall 0\.5x\s+precision 1x\s+recall 1x\s+precision 2x\s+recall 2x/);
    expect(t).toMatch(/random\s+41\.0%\s+10\.0%\s+40\.0%\s+20\.0%\s+38\.0%\s+39\.0%/);
    expect(formatTable(result())).not.toContain('precision 0.5x');
    const j = toJSON(result()) as { keep_rule: string; in_domain_share: number; methods: Array<{ at_share: unknown }> };
    expect([j.keep_rule, j.in_domain_share]).toEqual(['fixed', 0.4]);
    expect(j.methods[1]!.at_share).toEqual([
      { factor: 0.5, keep: 0.2, kept_text: 0.2, precision_chars: 0.41, recall_chars: 0.1 },
      { factor: 1, keep: 0.4, kept_text: 0.4, precision_chars: 0.4, recall_chars: 0.2 },
      { factor: 2, keep: 0.8, kept_text: 0.8, precision_chars: 0.38, recall_chars: 0.39 },
    ]);
  });
  it('the JSON has the documented method keys', () => {
    const j = toJSON(result()) as { methods: Array<Record<string, unknown>> };
    expect(Object.keys(j.methods[0]!)).toEqual(expect.arrayContaining(['name', 'embedder', 'kept_share', 'precision', 'recall', 'seconds']));
    expect(j.methods[1]!.embedder).toBeNull();
  });
});
