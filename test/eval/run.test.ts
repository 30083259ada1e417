import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedDir } from '../../src/core/shared.js';
import { loadSpec } from '../../src/eval/spec.js';
import { runEval, type EvalResult } from '../../src/eval/run.js';
import { defaultEngine } from '../../src/eval/engine-default.js';
import { toJSON } from '../../src/report/table.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const SMOKE = join(root, 'corpora', 'smoke-bio.json');
// Three methods keep the test under ~10 s on 2 cores; every method is covered by test/select.
const METHODS = ['contrast', 'random', 'dsir'];
/**
 * The spec's mix at half its 400 KB, its sources in the same proportions: the runs that use it
 * read, fit and score all of it, and what they check holds at this size.
 */
async function smallSpec(): Promise<Awaited<ReturnType<typeof loadSpec>>> {
  const spec = await loadSpec(SMOKE);
  spec.mixBytes = 200_000;
  return spec;
}

function withoutSeconds(r: EvalResult): unknown {
  const j = toJSON(r) as { methods: Array<Record<string, unknown>> };
  return { ...j, methods: j.methods.map(({ seconds: _s, ...rest }) => rest) };
}

describe.skipIf(!sharedDir())('runEval on corpora/smoke-bio.json, keeping by sentences', () => {
  let first: EvalResult;
  it('gives identical results for the same seed (all but seconds)', async () => {
    const spec = await smallSpec();
    first = await runEval(spec, { engine: defaultEngine, methods: METHODS, keepBy: 'sentences' });
    const second = await runEval(await smallSpec(), { engine: defaultEngine, methods: METHODS, keepBy: 'sentences' });
    expect(withoutSeconds(second)).toEqual(withoutSeconds(first));
    expect(first.methods.map((m) => m.method)).toEqual(METHODS);
  }, 60_000);
  it('kept shares of every method sum to 1', () => {
    for (const m of first.methods) {
      const sum = Object.values(m.kept_share).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(1, 9);
    }
  });
  it('keeps the requested share of sentences to within half a segment', () => {
    for (const m of first.methods) {
      expect(Math.abs(m.keptSentences - first.keep * m.totalSentences)).toBeLessThanOrEqual(first.segment / 2);
    }
  });
  it('the mix holds every source and the in-domain precision of the default (contrast) beats random', () => {
    expect(first.mix.map((m) => m.label).sort()).toEqual(['bio', 'cs', 'finance', 'news']);
    const by = Object.fromEntries(first.methods.map((m) => [m.method, m]));
    expect(by.contrast!.precision).toBeGreaterThan(by.random!.precision);
    expect(by.contrast!.recall).toBeGreaterThan(0);
  });
  it('precision is the in-domain kept share and recall never exceeds keep / in-domain share (to within the half segment the cut may overshoot)', () => {
    const bioSentences = first.mix.find((m) => m.label === 'bio')!.sentences;
    for (const m of first.methods) {
      expect(m.precision).toBe(m.kept_share.bio);
      expect(m.recall).toBeLessThanOrEqual(Math.min(1, (first.keep * m.totalSentences + first.segment / 2) / bioSentences) + 1e-9);
    }
  });
});

describe.skipIf(!sharedDir())('runEval with text to avoid', () => {
  it('reads a seeded sample of maxSentences from the avoid files and hands it to the fit of that method only', async () => {
    const spec = await smallSpec();
    const avoid = { files: [join(sharedDir()!, 'corpora', 'fiction-gutenberg', 'docs.jsonl.gz')], format: 'jsonl-text' as const, maxSentences: 30 };
    spec.methods = [{ name: 'contrast', title: 'with avoid', avoid }, { name: 'random' }];
    const seen = new Map<string, string[] | undefined>();
    const engine = { ...defaultEngine, openScorer: async (...a: Parameters<typeof defaultEngine.openScorer>) => (seen.set(a[0].title ?? a[0].name, a[1].avoid), defaultEngine.openScorer(...a)) };
    await runEval(spec, { engine, methods: ['with avoid', 'random'] });
    expect(seen.get('with avoid')).toHaveLength(30);
    expect(seen.get('random')).toBeUndefined();
    spec.methods = [{ name: 'contrast', avoid: { ...avoid, files: [join(sharedDir()!, 'corpora', 'task-chemprot', 'nope.jsonl')] } }];
    await expect(runEval(spec, { engine: defaultEngine })).rejects.toThrow();
  }, 60_000);
});

describe.skipIf(!sharedDir())('runEval with the inspect + --avoid loop (avoidKeptGroups)', () => {
  it("groups the first cut's kept text, avoids the groups the labels call mostly out of domain in a refit, and reports both cuts", async () => {
    // The whole mix: at half of it the refit keeps no less bio than the first cut.
    const spec = await loadSpec(SMOKE);
    spec.methods = [
      { name: 'contrast', title: 'plain' },
      { name: 'contrast', title: 'loop', avoidKeptGroups: { groups: 4, outOfDomain: 0.5, sentences: 40 } },
    ];
    // The task is bio and the default keeps bio only; with news called the in-domain source,
    // every kept group is out of domain, so the refit runs with sentences of all of them.
    spec.inDomain = 'news';
    const seen: Array<string[] | undefined> = [];
    const engine = { ...defaultEngine, openScorer: async (...a: Parameters<typeof defaultEngine.openScorer>) => (seen.push(a[1].avoid), defaultEngine.openScorer(...a)) };
    const r = await runEval(spec, { engine });
    const [plain, loop] = r.methods;
    const g = loop!.keptGroups!;
    expect(g.groups).toHaveLength(4);
    expect(g.groups.reduce((a, x) => a + x.share, 0)).toBeCloseTo(1, 9);
    // The first cut of the loop is the plain method's cut.
    expect(g.precisionCharsBefore).toBe(plain!.precisionChars);
    expect(g.groups.every((x) => x.outOfDomain > 0.9)).toBe(true);
    expect(g.avoided).toEqual([1, 2, 3, 4]);
    // plain, the loop's first fit, its refit with 40 sentences of the avoided groups.
    expect(seen.map((a) => a?.length)).toEqual([undefined, undefined, 40]);
    // Avoiding what it kept moves the cut off the task's own domain, toward the others.
    expect(loop!.kept_share.bio!).toBeLessThan(plain!.kept_share.bio!);
    expect(plain!.keptGroups).toBeUndefined();
    expect((toJSON(r).methods as Array<Record<string, unknown>>)[1]).toHaveProperty('kept_groups.avoided', g.avoided);
  }, 60_000);
});

describe.skipIf(!sharedDir())('runEval with keep "share"', () => {
  it('keeps the in-domain share of the scored sentences, sizes the fit for it and records both', async () => {
    const spec = await loadSpec(SMOKE);
    spec.keep = 'share';
    const fitKeeps: Array<number | undefined> = [];
    const engine = { ...defaultEngine, openScorer: async (...a: Parameters<typeof defaultEngine.openScorer>) => (fitKeeps.push(a[1].keep), defaultEngine.openScorer(...a)) };
    // A prefix of the mix: the share is counted over what is scored, not the whole mix.
    const r = await runEval(spec, { engine, methods: ['contrast', 'random'], maxSentences: 1500, keepBy: 'sentences' });
    const bio = r.mix.find((m) => m.label === 'bio')!;
    const total = r.mix.reduce((a, m) => a + m.sentences, 0);
    expect(total).toBeLessThan(3000);
    expect(r.keepRule).toBe('share');
    expect(r.keep).toBe(bio.sentences / total);
    expect(r.inDomainShare).toBe(r.keep);
    expect(fitKeeps).toEqual([r.keep, r.keep]);
    for (const m of r.methods) expect(Math.abs(m.keptSentences - r.keep * m.totalSentences)).toBeLessThanOrEqual(r.segment / 2);
    // The same scores cut at 0.5x, 1x, 2x the share; 1x is the method's own cut.
    for (const m of r.methods) {
      expect(m.atShare.map((c) => c.keep)).toEqual([0.5 * r.keep, r.keep, 2 * r.keep]);
      expect(m.atShare[1]!.precisionChars).toBe(m.precisionChars);
      expect(m.atShare[0]!.recallChars).toBeLessThanOrEqual(m.atShare[1]!.recallChars);
      expect(m.atShare[1]!.recallChars).toBeLessThanOrEqual(m.atShare[2]!.recallChars);
    }
    expect(toJSON(r)).toMatchObject({ keep: r.keep, keep_rule: 'share', in_domain_share: r.keep });
  }, 60_000);
  it('by default (keepBy bytes), keeps the in-domain share of the scored bytes, and that share of the text', async () => {
    const spec = await loadSpec(SMOKE);
    spec.keep = 'share';
    const r = await runEval(spec, { engine: defaultEngine, methods: ['contrast', 'random'], maxSentences: 1500 });
    const bio = r.mix.find((m) => m.label === 'bio')!;
    const bytes = r.mix.reduce((a, m) => a + m.bytes, 0);
    expect(r.keepBy).toBe('bytes');
    // The share is counted before the fit, as the scoring measures segment bytes afterwards.
    expect(r.keep).toBe(bio.bytes / bytes);
    expect(r.inDomainShare).not.toBe(r.keep);
    // Every cut keeps its share of the bytes to within half a segment (of the ≈200 kB scored, under 1%).
    for (const m of r.methods) {
      expect(Math.abs(m.keptText - r.keep)).toBeLessThan(0.01);
      expect(m.atShare.map((c) => c.keep)).toEqual([0.5 * r.keep, r.keep, 2 * r.keep]);
      expect(m.atShare[1]!.keptText).toBe(m.keptText);
    }
    expect(toJSON(r)).toMatchObject({ keep_by: 'bytes', keep: r.keep });
  }, 60_000);
});
