import { describe, expect, it } from 'vitest';
import { knnTaptSelector } from '../../src/select/knn-tapt.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';

async function* batches(xs: string[], size: number): AsyncGenerator<string[]> {
  for (let i = 0; i < xs.length; i += size) yield xs.slice(i, i + size);
}

describe('knn-tapt form=paper (the k nearest corpus sentences of each task sentence)', () => {
  const task = chemprotSentences(40);
  const news = corpusRecords('news-bbc/docs.jsonl.gz', 40).flatMap((r) => String(r.text).split('\n').filter((l) => l.length > 40));
  // The corpus holds an exact copy of every task sentence among news sentences.
  const corpus = [...news.slice(0, 150), ...task, ...news.slice(150, 300)];

  it('selects each task sentence\'s nearest corpus sentence (its copy) and scores the selection first', async () => {
    const json = await knnTaptSelector.fit({ task, general: news.slice(0, 100), seed: 0, options: { form: 'paper', k: 1 } });
    const scorer = await knnTaptSelector.load(JSON.parse(JSON.stringify(json)), { seed: 0, options: {} });
    await scorer.prepare!(batches(corpus, 64));
    const scores: number[] = [];
    for await (const b of batches(corpus, 50)) scores.push(...(await scorer.score(b)));
    const selected = scores.map((s, i) => (s < -1 ? i : -1)).filter((i) => i >= 0);
    const copies = task.map((_, j) => 150 + j);
    expect(selected).toEqual(copies);
    await scorer.dispose();
  });

  it('refuses to score before it has seen the corpus', async () => {
    const json = await knnTaptSelector.fit({ task, general: [], seed: 0, options: { form: 'paper', k: 2 } });
    const scorer = await knnTaptSelector.load(json, { seed: 0, options: {} });
    await expect(scorer.score(['x'])).rejects.toThrow(/whole corpus/);
    await scorer.dispose();
  });
});
