import { describe, expect, it } from 'vitest';
import { completeModel, completesFromCorpus, deferFit, needsCompletion, SAMPLE_FULL_KEEP, SAMPLE_MAX_GROWTH, sampleSizeFor } from '../../src/model/complete.js';
import { validateModel } from '../../src/model/file.js';
import { AVOID_DEFAULTS } from '../../src/select/avoid.js';
import { fitModel } from '../../src/model/fit.js';
import { openScorer } from '../../src/model/open.js';
import type { SentenceSample } from '../../src/io/sample.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';

const task = chemprotSentences(400);
const news = corpusRecords('news-bbc/docs.jsonl.gz', 60).flatMap((r) => String(r.text).split(/(?<=\.)\s+/)).slice(0, 600);

/** A sample whose segments are runs of 15 sentences, as io/sample.ts draws them. */
function sampleOf(sentences: string[]): SentenceSample {
  return { sentences, groups: groupsOf(sentences), size: 1000, seed: 3, sampler: 'reservoir', bytesRead: 1, documents: 1, draws: 0, fingerprint: 'f00dfeedf00dfeed' };
}

function groupsOf(sentences: string[]): Uint32Array {
  return Uint32Array.from(sentences, (_, i) => Math.floor(i / 15));
}

describe('sampleSizeFor', () => {
  it('keeps the size asked for down to a keep of SAMPLE_FULL_KEEP, then grows it as the keep falls', () => {
    expect(sampleSizeFor(20000, undefined)).toBe(20000);
    expect(sampleSizeFor(20000, 0.2)).toBe(20000);
    expect(sampleSizeFor(20000, SAMPLE_FULL_KEEP)).toBe(20000);
    expect(sampleSizeFor(20000, 0.01)).toBe(50000);
    expect(sampleSizeFor(1000, 0.01)).toBe(2500);
    expect(sampleSizeFor(20000, 0.007)).toBe(Math.ceil((20000 * SAMPLE_FULL_KEEP) / 0.007));
  });
  it('grows at most SAMPLE_MAX_GROWTH times, and sizes nothing for a keep of 0 or 1', () => {
    expect(sampleSizeFor(20000, 0.0001)).toBe(20000 * SAMPLE_MAX_GROWTH);
    expect(sampleSizeFor(20000, 0)).toBe(20000);
    expect(sampleSizeFor(20000, 1)).toBe(20000);
  });
});

describe('completesFromCorpus', () => {
  it('methods that contrast with general text (the default among them) wait for the corpus; the paper\'s method and task-only methods do not', () => {
    for (const m of ['contrast', 'auto', 'dsir', 'moore-lewis', 'distance']) expect(completesFromCorpus(m, {}), m).toBe(true);
    expect(completesFromCorpus('tadpole', { detector: 'auto' })).toBe(true);
    expect(completesFromCorpus('tadpole', {})).toBe(false);
    expect(completesFromCorpus('tadpole', { detector: 'iforest' })).toBe(false);
    expect(completesFromCorpus('tadpole', { detector: 'task-knn' })).toBe(false);
    expect(completesFromCorpus('random', {})).toBe(false);
    expect(completesFromCorpus('knn-tapt', {})).toBe(false);
  });
});

describe('deferFit + completeModel', () => {
  it('a deferred model is a valid model file that keeps the task and refuses to score until completed', async () => {
    const m = deferFit({ method: 'dsir', task, seed: 3, options: {}, sampleSize: 1000 });
    const back = validateModel(JSON.parse(JSON.stringify(m)));
    expect(needsCompletion(back)).toBe(true);
    expect(back.completion?.task).toEqual(task);
    expect(back.selector).toBeUndefined();
    await expect(openScorer(back)).rejects.toThrow(/fitted without --general .* tadpole filter/);
  });

  it.each(['dsir', 'moore-lewis', 'contrast'])('%s: completing = the method\'s own fit with the sample as general text', async (method) => {
    const deferred = deferFit({ method, task, seed: 3, options: {}, sampleSize: 1000 });
    const done = await completeModel(deferred, sampleOf(news));
    expect(needsCompletion(done)).toBe(false);
    expect(done.completion?.task).toBeUndefined();
    expect(done.completion?.sample).toMatchObject({ fingerprint: 'f00dfeedf00dfeed', sentences: news.length, seed: 3, sampler: 'reservoir' });
    expect(done.counts.generalSentences).toBe(news.length);
    const direct = await fitModel({ method, task, general: news, generalGroups: groupsOf(news), seed: 3, options: {} });
    const probe = [...task.slice(0, 20), ...news.slice(0, 20)];
    const [a, b] = await Promise.all([openScorer(done), openScorer(direct)]);
    expect(Array.from(await a.score(probe))).toEqual(Array.from(await b.score(probe)));
    // And it is a real filter: task sentences score below news (lower = keep).
    const s = await a.score(probe);
    const mean = (xs: ArrayLike<number>, from: number, to: number) => Array.from(xs).slice(from, to).reduce((x, y) => x + y, 0) / (to - from);
    expect(mean(s, 0, 20)).toBeLessThan(mean(s, 20, 40));
    await a.dispose();
    await b.dispose();
  }, 60_000);

  it('the share the filter keeps sizes the default\'s self-training; a keep or expand named at fit time wins; other methods are left alone', async () => {
    const state = (m: Awaited<ReturnType<typeof completeModel>>) => m.selector as { params: Record<string, unknown>; state: { selfTraining: { moved: Array<{ sentences: number }> } } };
    const byKeep = await completeModel(deferFit({ method: 'contrast', task, seed: 3, options: {}, sampleSize: 1000 }), sampleOf(news), { keep: 0.08 });
    expect(byKeep.fit.options).toEqual({ keep: 0.08 });
    expect(state(byKeep).params).toMatchObject({ keep: 0.08, expand: 0.02 });
    // Round 1 moves 2% of the sample in whole segments of 15.
    const first = state(byKeep).state.selfTraining.moved[0]!.sentences;
    expect(first).toBeGreaterThanOrEqual(0.02 * news.length);
    expect(first).toBeLessThan(0.02 * news.length + 15);
    const named = await completeModel(deferFit({ method: 'contrast', task, seed: 3, options: { expand: 0.03 }, sampleSize: 1000 }), sampleOf(news), { keep: 0.08 });
    expect(named.fit.options).toEqual({ expand: 0.03 });
    expect(state(named).params.expand).toBe(0.03);
    const dsir = await completeModel(deferFit({ method: 'dsir', task, seed: 3, options: {}, sampleSize: 1000 }), sampleOf(news), { keep: 0.08 });
    expect(dsir.fit.options).toEqual({});
  }, 60_000);

  it('text to avoid is stored with the task, weighs in the completed fit as in a direct one, then is dropped; other methods refuse it', async () => {
    const avoid = news.slice(300, 380);
    const general = news.slice(0, 300);
    const deferred = deferFit({ method: 'contrast', task, seed: 3, options: {}, sampleSize: 1000, avoid, avoidFiles: ['posts.txt'] });
    const back = validateModel(JSON.parse(JSON.stringify(deferred)));
    expect(back.completion?.avoid).toEqual(avoid);
    expect(back.counts).toMatchObject({ avoidSentences: 80, avoidFiles: ['posts.txt'] });
    const done = await completeModel(back, sampleOf(general));
    expect(done.completion?.avoid).toBeUndefined();
    expect(done.counts).toMatchObject({ avoidSentences: 80, avoidFiles: ['posts.txt'] });
    expect((done.selector?.state as { avoid: unknown }).avoid).toMatchObject({ sentences: 80, used: Math.min(80, Math.round(AVOID_DEFAULTS.share * 300)), share: AVOID_DEFAULTS.share });
    const direct = await fitModel({ method: 'contrast', task, general, generalGroups: groupsOf(general), seed: 3, options: {}, avoid });
    const without = await fitModel({ method: 'contrast', task, general, generalGroups: groupsOf(general), seed: 3, options: {} });
    const [a, b, c] = await Promise.all([openScorer(done), openScorer(direct), openScorer(without)]);
    const probe = [...task.slice(0, 20), ...avoid.slice(0, 40)];
    const sa = await a.score(probe);
    expect(Array.from(sa)).toEqual(Array.from(await b.score(probe)));
    // The avoided sentences score as less task-like than without them (higher = dropped first).
    const mean = (xs: ArrayLike<number>) => Array.from(xs).slice(20).reduce((x, y) => x + y, 0) / 40;
    const sc = await c.score(probe);
    const gap = (xs: Float64Array) => mean(xs) - Array.from(xs).slice(0, 20).reduce((x, y) => x + y, 0) / 20;
    expect(gap(sa)).toBeGreaterThan(gap(sc));
    await Promise.all([a.dispose(), b.dispose(), c.dispose()]);
    expect(() => deferFit({ method: 'dsir', task, seed: 0, options: {}, sampleSize: 10, avoid })).toThrow(/--avoid works with the default fit/);
    await expect(fitModel({ method: 'tadpole', task, general, seed: 0, options: { detector: 'iforest' }, avoid })).rejects.toThrow(/--detector iforest does not take text to avoid/);
  }, 60_000);

  it('refuses an empty sample and a model that does not wait', async () => {
    const deferred = deferFit({ method: 'dsir', task, seed: 0, options: {}, sampleSize: 10 });
    await expect(completeModel(deferred, sampleOf([]))).rejects.toThrow(/no sentences to complete the model/);
    const fitted = await fitModel({ method: 'dsir', task, general: news, seed: 0, options: {} });
    await expect(completeModel(fitted, sampleOf(news))).rejects.toThrow(/does not wait/);
    expect(() => deferFit({ method: 'nope', task, seed: 0, options: {}, sampleSize: 10 })).toThrow(/unknown method/);
  });
});
