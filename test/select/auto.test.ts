import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { warnNearRandom } from '../../src/model/warnings.js';
import { fitModel } from '../../src/model/fit.js';
import { openScorer } from '../../src/model/open.js';
import { AUTO_DEFAULTS, autoChoiceOf, contrastSelector, parseCandidates, withMovesSized, type AutoChoice } from '../../src/select/auto.js';
import type { SelfTrainingRecord } from '../../src/select/self-training.js';
import { HAVE_SHARED, inDomainShareOfKept, smallMix } from './fixture.js';

describe('auto candidates', () => {
  it('parses a comma list with + ensembles and refuses nesting auto or an empty part', () => {
    expect(parseCandidates('classifier, dsir ,classifier+dsir')).toEqual(['classifier', 'dsir', 'classifier+dsir']);
    expect(() => parseCandidates('')).toThrow(/no candidates/);
    expect(() => parseCandidates('auto,dsir')).toThrow(/invalid candidate/);
    expect(() => parseCandidates('dsir+')).toThrow(/invalid candidate/);
  });
});

describe('the classifier parts move at most a quarter of the keep', () => {
  it('sizes a classifier part by the keep, leaves the rest and larger keeps alone; a keep of 0 stops its move', () => {
    const pair = 'classifier:rounds=1:expand=0.05+dsir:features=chars-folded:norm=mean';
    expect(withMovesSized(pair, 0.2)).toBe(pair);
    expect(withMovesSized(pair, undefined)).toBe(pair);
    expect(withMovesSized(pair, 0.02)).toBe('classifier:rounds=1:expand=0.005+dsir:features=chars-folded:norm=mean');
    expect(withMovesSized(pair, 0)).toBe('classifier:rounds=0:expand=0.05+dsir:features=chars-folded:norm=mean');
    // Its own default move (0.1) is sized too; a part that does not move is left as it is.
    expect(withMovesSized('classifier', 0.02)).toBe('classifier:expand=0.005');
    expect(withMovesSized('classifier:rounds=0', 0.02)).toBe('classifier:rounds=0');
  });
});

describe.skipIf(!HAVE_SHARED)('auto on real text (ChemProt task, bio vs BBC news)', () => {
  it("at a scarce keep, self-trains only where the task's held-out median ranks within a fifth of it (selfTrain=always: whatever it ranks)", async () => {
    const mix = smallMix();
    const generalGroups = Uint32Array.from(mix.general, (_, i) => Math.floor(i / 5));
    const fit = (keep: string, selfTrain?: string) => fitModel({ method: 'contrast', task: mix.task, general: mix.general, generalGroups, seed: 4, options: { keep, ...(selfTrain ? { selfTrain } : {}) } });
    for (const keep of [0.002, 0.05, 0.2]) {
      const model = await fit(String(keep));
      const rank = autoChoiceOf(model.selector)!.candidates[0]!.taskMedianRank!;
      expect(rank).toBeGreaterThanOrEqual(0);
      expect(rank).toBeLessThanOrEqual(1);
      const record = model.selector.state.selfTraining as SelfTrainingRecord;
      const closed = keep <= AUTO_DEFAULTS.gateMaxKeep && rank > AUTO_DEFAULTS.gate * keep;
      expect(record.skipped !== undefined, `keep ${keep}, rank ${rank}`).toBe(closed);
      expect(record.moved.length > 0).toBe(!closed);
      // Closed: the pair is fitted without the classifier's own move either.
      if (closed) expect(JSON.stringify(model.selector.state.selector)).toContain('classifier:rounds=0');
    }
    // The bio half of this corpus outranks the task's median far past 0.2% of it: the gate closes there, and always opens it.
    expect(((await fit('0.002')).selector.state.selfTraining as SelfTrainingRecord).skipped).toMatch(/held-out median sentence ranks past/);
    expect(((await fit('0.002', 'always')).selector.state.selfTraining as SelfTrainingRecord).moved.length).toBeGreaterThan(0);
  });

  it('measures every candidate on held-out data, keeps the best, records it, and the model scores like its choice', async () => {
    const mix = smallMix();
    const lines: string[] = [];
    const model = await fitModel({ method: 'auto', task: mix.task, general: mix.general, seed: 4, options: { candidates: 'classifier,dsir,classifier+dsir' }, log: (l) => lines.push(l) });
    const choice = autoChoiceOf(model.selector) as AutoChoice;
    expect(choice.candidates.map((c) => c.name)).toEqual(['classifier', 'dsir', 'classifier+dsir']);
    const best = Math.max(...choice.candidates.map((c) => c.auroc));
    expect(choice.candidates.find((c) => c.name === choice.chosen)?.auroc).toBe(best);
    // Half of the 100-sentence general sample is bio, like the task: held-out AUROC is capped well below 1.
    expect(best).toBeGreaterThan(0.7);
    expect(choice.warning).toBeUndefined();
    expect(choice.heldOutTask).toBe(80);
    expect(lines.join('\n')).toMatch(/held-out AUROC .*chose /);
    const scorer = await openScorer(JSON.parse(JSON.stringify(model)));
    expect(inDomainShareOfKept(await scorer.score(mix.sentences), mix.inDomain)).toBeGreaterThan(0.9);
    await scorer.dispose();
  });

  it('warns (at fit and again at filter) when the task cannot be told from the corpus', async () => {
    const mix = smallMix();
    // Task and "corpus" drawn from the same text: any score is near random on held-out data.
    const same = mix.sentences.filter((_, i) => i % 2 === 0);
    const general = mix.sentences.filter((_, i) => i % 2 === 1);
    const lines: string[] = [];
    const model = await fitModel({ method: 'contrast', task: same, general, seed: 4, options: {}, log: (l) => lines.push(l) });
    const choice = autoChoiceOf(model.selector) as AutoChoice;
    expect(choice.candidates[0]!.auroc).toBeLessThan(0.7);
    expect(choice.warning).toMatch(/close to a random sample/);
    expect(lines.some((l) => l.startsWith('warning:'))).toBe(true);
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    warnNearRandom(model, (line) => stderr.write(`tadpole: warning: ${line}\n`));
    expect(err).toMatch(/^tadpole: warning: .*AUROC 0\.\d+/);
  });

  it('a separable task gives no filter-time warning', async () => {
    const mix = smallMix();
    const model = await fitModel({ method: 'contrast', task: mix.task, general: mix.general, seed: 4, options: {} });
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    warnNearRandom(model, (line) => stderr.write(`tadpole: warning: ${line}\n`));
    expect(err).toBe('');
  });

  it('too little text to hold out is said, not silently trusted', async () => {
    const mix = smallMix();
    const lines: string[] = [];
    const model = await fitModel({ method: 'auto', task: mix.task.slice(0, 30), general: mix.general, seed: 4, options: {}, log: (l) => lines.push(l) });
    const choice = autoChoiceOf(model.selector) as AutoChoice;
    expect(choice.candidates).toEqual([]);
    expect(choice.warning).toMatch(/too few to hold out/);
    expect(lines.some((l) => /^warning: 30 task and 100 general sentences are too few/.test(l))).toBe(true);
  });

  it('moveBy is kept in the model and its self-training record (the mean by default); another value is refused', async () => {
    const mix = smallMix();
    const generalGroups = Uint32Array.from(mix.general, (_, i) => Math.floor(i / 5));
    const fit = (moveBy?: string) =>
      fitModel({ method: 'auto', task: mix.task, general: mix.general, generalGroups, seed: 4, options: { candidates: 'classifier+dsir', rounds: '1', keepBy: 'sentences', ...(moveBy ? { moveBy } : {}) } });
    const model = await fit('consensus');
    expect(model.selector.params).toMatchObject({ moveBy: 'consensus', rounds: 1 });
    expect((await fit()).selector.params).toMatchObject({ moveBy: 'mean' });
    expect((model.selector.state.selfTraining as { moveBy?: string; moved: unknown[] })).toMatchObject({ moveBy: 'consensus', moved: [{ segments: 1, sentences: 5 }] });
    await expect(fit('median')).rejects.toThrow(/moveBy/);
  });

  it('style=on adds a style view to every candidate, but not for a task of titles; another value is refused', async () => {
    const mix = smallMix();
    const lines: string[] = [];
    const fit = (task: string[], style?: string) =>
      fitModel({ method: 'auto', task, general: mix.general, seed: 4, options: { candidates: 'classifier+dsir,dsir', rounds: '0', ...(style ? { style } : {}) }, log: (l) => lines.push(l) });
    const model = await fit(mix.task, 'on');
    expect(model.selector.params).toMatchObject({ style: 'on', candidates: ['classifier+dsir+classifier:rounds=0:features=style', 'dsir+classifier:rounds=0:features=style'] });
    expect(lines.join('\n')).toMatch(/style=on: every candidate gets a style view/);
    const scorer = await openScorer(JSON.parse(JSON.stringify(model)));
    expect(inDomainShareOfKept(await scorer.score(mix.sentences), mix.inDomain)).toBeGreaterThan(0.9);
    await scorer.dispose();
    expect((await fit(mix.task)).selector.params).toMatchObject({ style: 'off', candidates: ['classifier+dsir', 'dsir'] });
    // Titles: the task's sentences cut to their capitalised words, so few function words are left.
    const titles = mix.task.map((t) => t.split(' ').filter((w) => /^[A-Z]/.test(w)).join(' ')).filter((t) => t.length > 0);
    lines.length = 0;
    const telegraphic = await fit(titles, 'on');
    expect((telegraphic.selector.params.candidates as string[]).some((c) => c.includes('features=style'))).toBe(false);
    expect(lines.join('\n')).toMatch(/style=on, but the task carries too few function words for a style view: left out/);
    await expect(fit(mix.task, 'yes')).rejects.toThrow(/invalid style "yes" for method contrast: should be one of: off, on, guard/);
  });

  it('style=guard leaves the candidates alone and vetoes moves with a style view (its log line says so); guardShare is checked', async () => {
    const mix = smallMix();
    const generalGroups = Uint32Array.from(mix.general, (_, i) => Math.floor(i / 5));
    const lines: string[] = [];
    const fit = (options: Record<string, string>) =>
      fitModel({ method: 'auto', task: mix.task, general: mix.general, generalGroups, seed: 4, options: { candidates: 'classifier+dsir', rounds: '1', ...options }, log: (l) => lines.push(l) });
    const model = await fit({ style: 'guard' });
    expect(model.selector.params).toMatchObject({ style: 'guard', candidates: ['classifier+dsir'], chosen: 'classifier+dsir' });
    expect(lines.join('\n')).toMatch(/style=guard: a style view .* vetoes moving/);
    expect((model.selector.state.selfTraining as { moved: unknown[] }).moved).toHaveLength(1);
    await expect(fit({ style: 'guard', guardShare: '0' })).rejects.toThrow(/guardShare/);
  });

  it('needs a general sample', async () => {
    await expect(contrastSelector.fit({ task: smallMix().task, general: [], seed: 1, options: {} })).rejects.toThrow(/general/);
  });
});
