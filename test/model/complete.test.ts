import { describe, expect, it } from 'vitest';
import { completeModel, completesFromCorpus, deferFit, needsCompletion } from '../../src/model/complete.js';
import { validateModel } from '../../src/model/file.js';
import { fitModel } from '../../src/model/fit.js';
import { openScorer } from '../../src/model/open.js';
import type { SentenceSample } from '../../src/io/sample.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';

const task = chemprotSentences(400);
const news = corpusRecords('news-bbc/docs.jsonl.gz', 60).flatMap((r) => String(r.text).split(/(?<=\.)\s+/)).slice(0, 600);

function sampleOf(sentences: string[]): SentenceSample {
  return { sentences, size: 1000, seed: 3, sampler: 'reservoir', bytesRead: 1, documents: 1, draws: 0, fingerprint: 'f00dfeedf00dfeed' };
}

describe('completesFromCorpus', () => {
  it('methods that contrast with general text and the default detector wait for the corpus; named detectors and task-only methods do not', () => {
    for (const m of ['dsir', 'moore-lewis', 'distance']) expect(completesFromCorpus(m, {}), m).toBe(true);
    expect(completesFromCorpus('tadpole', {})).toBe(true);
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

  it.each(['dsir', 'moore-lewis', 'tadpole'])('%s: completing = the method\'s own fit with the sample as general text', async (method) => {
    const deferred = deferFit({ method, task, seed: 3, options: {}, sampleSize: 1000 });
    const done = await completeModel(deferred, sampleOf(news));
    expect(needsCompletion(done)).toBe(false);
    expect(done.completion?.task).toBeUndefined();
    expect(done.completion?.sample).toMatchObject({ fingerprint: 'f00dfeedf00dfeed', sentences: news.length, seed: 3, sampler: 'reservoir' });
    expect(done.counts.generalSentences).toBe(news.length);
    const direct = await fitModel({ method, task, general: news, seed: 3, options: {} });
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

  it('refuses an empty sample and a model that does not wait', async () => {
    const deferred = deferFit({ method: 'dsir', task, seed: 0, options: {}, sampleSize: 10 });
    await expect(completeModel(deferred, sampleOf([]))).rejects.toThrow(/no sentences to complete the model/);
    const fitted = await fitModel({ method: 'dsir', task, general: news, seed: 0, options: {} });
    await expect(completeModel(fitted, sampleOf(news))).rejects.toThrow(/does not wait/);
    expect(() => deferFit({ method: 'nope', task, seed: 0, options: {}, sampleSize: 10 })).toThrow(/unknown method/);
  });
});
