import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completeModel } from '../../src/model/complete.js';
import { describeModel, summarizeModel } from '../../src/model/describe.js';
import { validateModel } from '../../src/model/file.js';
import { openScorer } from '../../src/model/open.js';

const dir = new URL('../fixtures/legacy-models/', import.meta.url);
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
const { probe, scores } = read('scores.json') as { probe: string[]; scores: Record<string, number[]> };

// The general sentences the fixtures were fitted (or completed) with.
const general = Array.from({ length: 400 }, (_, i) => (i < 50 ? `a kinase protein ${i % 11} binds receptor cells ${i % 5}` : `the match ended ${i % 9} to ${i % 4} after extra time in the rain ${i}`));
const groups = Uint32Array.from(general, (_, i) => Math.floor(i / 5));

describe('model files from before the default was named contrast', () => {
  it.each(['auto.json', 'tadpole-detector-auto.json'])('%s loads and scores exactly as the code that wrote it', async (name) => {
    const model = validateModel(read(name));
    const scorer = await openScorer(model);
    try {
      expect(Array.from(await scorer.score(probe))).toEqual(scores[name]);
    } finally {
      await scorer.dispose();
    }
  });

  it('a waiting default (method tadpole, no detector) is completed as contrast, to the same scores', async () => {
    const waiting = validateModel(read('tadpole-waiting.json'));
    expect([waiting.method, waiting.fit.options.detector]).toEqual(['tadpole', undefined]);
    const sample = { sentences: general, groups, size: 400, seed: 3, sampler: 'reservoir' as const, bytesRead: 1, documents: 80, draws: 0, fingerprint: 'f00dfeedf00dfeed' };
    // The pinned scores were made with the moves counted in sentences (bytes are the default now).
    const completed = await completeModel(waiting, sample, { keep: 0.2, keepBy: 'sentences' });
    expect(completed.method).toBe('contrast');
    const scorer = await openScorer(completed);
    try {
      expect(Array.from(await scorer.score(probe))).toEqual(scores['tadpole-waiting.json']);
    } finally {
      await scorer.dispose();
    }
  });

  it('model show names them the default and says what it does', () => {
    for (const name of ['auto.json', 'tadpole-detector-auto.json', 'tadpole-waiting.json']) {
      const lines = describeModel(summarizeModel(validateModel(read(name))));
      expect(lines[0], name).toMatch(/^method: (auto|tadpole) \(the default, now named contrast\)/);
      expect(lines[1], name).toMatch(/^  contrast \(the default\): /);
    }
  });
});
