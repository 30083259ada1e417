import { describe, expect, it } from 'vitest';
import { AUTO_DEFAULTS } from '../../src/select/auto.js';
import { CLASSIFIER_DEFAULTS, classifierSelector } from '../../src/select/classifier.js';
import { parseComponentSpec } from '../../src/select/component-spec.js';
import { dsirSelector } from '../../src/select/dsir.js';
import { fitEnsemble, loadEnsemble, parseComponents } from '../../src/select/ensemble.js';
import { selectorFactory } from '../../src/select/registry.js';
import { HAVE_SHARED, inDomainShareOfKept, smallMix } from './fixture.js';

describe('component specs (name:key=value:...)', () => {
  it('parses a name with options, and a bare name', () => {
    expect(parseComponentSpec('dsir:features=chars-folded:charN=5')).toEqual({ name: 'dsir', options: { features: 'chars-folded', charN: '5' } });
    expect(parseComponentSpec('classifier')).toEqual({ name: 'classifier', options: {} });
    expect(parseComponents('classifier+dsir:features=chars-folded')).toEqual(['classifier', 'dsir:features=chars-folded']);
  });
  it('refuses an option that is not key=value, naming the fix', () => {
    expect(() => parseComponentSpec('dsir:chars')).toThrow(/"chars" is not key=value; write e.g. dsir:features=chars-folded/);
    expect(() => parseComponentSpec('dsir:features=')).toThrow(/not key=value/);
    expect(() => parseComponentSpec('dsir:=x')).toThrow(/not key=value/);
  });
  it('the default candidate pairs the classifier (its own per-sentence self-training cut to one 5% move) with DSIR on subword features', () => {
    expect(AUTO_DEFAULTS.candidates).toBe('classifier:rounds=1:expand=0.05+dsir:features=chars-folded:norm=mean');
    expect(CLASSIFIER_DEFAULTS.features).toBe('chars-folded');
  });
});

describe.skipIf(!HAVE_SHARED)('components with options on real text (ChemProt task, bio vs BBC news)', () => {
  it('an ensemble part fits with its own options, and its model file records and reloads them', async () => {
    const mix = smallMix();
    const state = await fitEnsemble({ task: mix.task, general: mix.general, seed: 3, options: {} }, ['classifier', 'dsir:features=chars-folded'], {});
    const parts = state.parts as Array<{ name: string; selector: { params: Record<string, unknown> } }>;
    expect(parts[1]?.name).toBe('dsir:features=chars-folded');
    expect(parts[1]?.selector.params.features).toBe('chars-folded');
    expect(parts[0]?.selector.params.features).toBe('chars-folded');
    const scorer = await loadEnsemble(JSON.parse(JSON.stringify(state)), { seed: 3, options: {} });
    expect(inDomainShareOfKept(await scorer.score(mix.sentences), mix.inDomain)).toBeGreaterThan(0.85);
    await scorer.dispose();
  });
  it('DSIR and the classifier score differently with subword features, and a model without the param loads as words', async () => {
    const mix = smallMix();
    const ctx = { task: mix.task, general: mix.general, seed: 2 };
    const words = await dsirSelector.fit({ ...ctx, options: {} });
    expect(words.params.features).toBe('words');
    const chars = await dsirSelector.fit({ ...ctx, options: { features: 'chars-folded' } });
    const sw = await (await dsirSelector.load(words, { seed: 2, options: {} })).score(mix.sentences);
    const sc = await (await dsirSelector.load(chars, { seed: 2, options: {} })).score(mix.sentences);
    expect(Array.from(sc)).not.toEqual(Array.from(sw));
    for (const s of [sw, sc]) expect(inDomainShareOfKept(s, mix.inDomain)).toBeGreaterThan(0.85);
    // Models written before subword features have no `features` param: they were word models.
    const old = await classifierSelector.fit({ ...ctx, options: { features: 'words', rounds: 1 } });
    const legacy = { ...old, params: Object.fromEntries(Object.entries(old.params).filter(([k]) => k !== 'features' && k !== 'charN')) };
    const a = await (await classifierSelector.load(old, { seed: 2, options: {} })).score(mix.sentences);
    const b = await (await classifierSelector.load(legacy, { seed: 2, options: {} })).score(mix.sentences);
    expect(Array.from(b)).toEqual(Array.from(a));
  });
  it('the default model (contrast) stores both parts with subword features', async () => {
    const mix = smallMix();
    const json = await selectorFactory('contrast').fit({ task: mix.task, general: mix.general, seed: 5, options: {} });
    const sel = (json.state as { selector: { method: string; state: { parts: Array<{ name: string; selector: { method: string; params: Record<string, unknown> } }> } } }).selector;
    expect(sel.method).toBe('ensemble');
    expect(sel.state.parts.map((p) => [p.selector.method, p.selector.params.features, p.selector.params.charN])).toEqual([
      ['classifier', 'chars-folded', 5],
      ['dsir', 'chars-folded', 5],
    ]);
  });
  it('refuses an unknown feature set, naming the ones there are', async () => {
    const mix = smallMix();
    await expect(dsirSelector.fit({ task: mix.task, general: mix.general, seed: 1, options: { features: 'letters' } })).rejects.toThrow(/words, chars, chars-folded/);
  });
});
