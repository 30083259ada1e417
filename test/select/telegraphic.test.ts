import { describe, expect, it } from 'vitest';
import { fitModel } from '../../src/model/fit.js';
import { openScorer } from '../../src/model/open.js';
import { describeFunctionWords, functionWordFigures, readsAsTitles, telegraphicTask, titleShare, withoutFunctionWords } from '../../src/select/telegraphic.js';
import { AUTO_DEFAULTS } from '../../src/select/auto.js';
import { HAVE_SHARED, smallMix } from './fixture.js';

const headlines = ['Injured Heskey to miss England friendly', 'Dutch cyclist defends Olympic gold', 'Kerr cruises into lead', 'Cowboys own Orange', 'Pros in Olympics still in question'];
const prose = ['The team said that it would not play the match on Sunday because of the weather.', 'He was one of the best players of his generation, and he has always been loved by the fans.'];

describe('telegraphic tasks', () => {
  it('a task with well under the sample share of function words is telegraphic; running text is not', () => {
    const t = functionWordFigures(headlines, prose, 'auto');
    expect(t.task).toBeCloseTo(5 / 24); // to, into, own, in, in
    expect(t.general).toBeGreaterThan(0.4);
    expect(t.skipped).toBe(true);
    expect(functionWordFigures(prose, prose, 'auto').skipped).toBe(false);
    expect(functionWordFigures(prose, prose, 'skip').skipped).toBe(true);
    expect(functionWordFigures(headlines, prose, 'keep').skipped).toBe(false);
    expect(functionWordFigures(headlines, [], 'auto').skipped).toBe(false);
    expect(describeFunctionWords(t)).toMatch(/reads as headlines or titles.*functionWords=keep/);
  });

  it('calls a task titles only when most of its sentences look like titles; terse notes are described by their figures', () => {
    // A Debian changelog: as few function words as headlines, but its items end with stops.
    const changelog = ['* Fix build on musl (Helmut Grohne). Closes: #1023053.', '* d/watch: Update to v4 and add repack options.', 'bash (5.2-3) unstable; urgency=medium', '* Apply upstream patches 003 - 015.', '* New patch release.'];
    const notes = functionWordFigures(changelog, prose, 'auto');
    expect(notes.skipped).toBe(true);
    expect(notes.titles).toBeCloseTo(1 / 5);
    expect(readsAsTitles(notes)).toBe(false);
    expect(describeFunctionWords(notes)).not.toMatch(/headlines|titles/);
    expect(describeFunctionWords(notes)).toMatch(/with so few in the task, function words are left out of the features/);
    expect(telegraphicTask(notes)).toBe('a task with few function words');
    const heads = functionWordFigures(headlines, prose, 'auto');
    expect(titleShare(headlines)).toBe(1);
    expect(telegraphicTask(heads)).toBe('a task of titles');
    // A model fitted before the share was recorded never claims titles.
    const { titles: _titles, ...older } = heads;
    expect(readsAsTitles(older)).toBe(false);
  });

  it('moves subword-feature components to the same features without function words, and leaves the rest', () => {
    expect(withoutFunctionWords(AUTO_DEFAULTS.candidates)).toBe('classifier:rounds=1:expand=0.05:features=chars-folded-content+dsir:features=chars-folded-content:norm=mean');
    expect(withoutFunctionWords('classifier')).toBe('classifier:features=chars-folded-content');
    for (const c of ['dsir', 'classifier:features=words', 'dsir:features=chars', 'moore-lewis', 'distance']) expect(withoutFunctionWords(c)).toBe(c);
  });
});

describe.skipIf(!HAVE_SHARED)('telegraphic tasks on real text (ChemProt as titles)', () => {
  it('the default records the figures, fits without function words, and its scores ignore them', async () => {
    const mix = smallMix();
    // The ChemProt task as a headline writer would give it: function words dropped.
    const fn = /\b(?:the|of|and|in|to|a|an|is|was|were|by|with|for|that|this|on|as|at|from|which|be|are|or|these|their|its|it)\b/gi;
    const task = mix.task.map((s) => s.replace(fn, ' ').replace(/\s+/g, ' ').trim());
    const lines: string[] = [];
    const model = await fitModel({ method: 'contrast', task, general: mix.general, seed: 4, options: { rounds: 0 }, log: (l) => lines.push(l) });
    const fw = model.selector.state.functionWords as { task: number; general: number; skipped: boolean };
    expect(fw.skipped).toBe(true);
    expect(fw.task).toBeLessThan(0.6 * fw.general);
    expect(String(model.selector.params.chosen)).toContain('features=chars-folded-content');
    // Its sentences still end with stops: few function words, but not titles, and it is not called so.
    expect(lines.join('\n')).toMatch(/with so few in the task, function words are left out/);
    expect(lines.join('\n')).not.toMatch(/headlines|titles/);
    // A task with few function words moves by consensus unless told otherwise; running text by the mean.
    expect(model.selector.params.moveBy).toBe('consensus');
    expect(lines.join('\n')).toMatch(/a task with few function words moves segments by consensus/);
    const scorer = await openScorer(JSON.parse(JSON.stringify(model)));
    const [a, b] = await scorer.score(['Kinase inhibitor binds receptor', 'The kinase inhibitor binds to the receptor']);
    expect(a).toBeCloseTo(b as number, 10);
    await scorer.dispose();
    const kept = await fitModel({ method: 'contrast', task, general: mix.general, seed: 4, options: { rounds: 0, functionWords: 'keep' } });
    expect(String(kept.selector.params.chosen)).not.toContain('content');
    expect(kept.selector.params.moveBy).toBe('mean');
    const told: string[] = [];
    const byMean = await fitModel({ method: 'contrast', task, general: mix.general, seed: 4, options: { rounds: 0, moveBy: 'mean' }, log: (l) => told.push(l) });
    expect(byMean.selector.params.moveBy).toBe('mean');
    expect(told.join('\n')).not.toMatch(/moves segments by consensus/);
  });
});
