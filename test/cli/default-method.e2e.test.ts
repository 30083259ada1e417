import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir, sharedPath } from '../../src/core/shared.js';
import { runCli, runMain, tempDir } from '../helpers/cli.js';
import { corpusRecords, realMix } from '../helpers/corpora.js';

describe.skipIf(!sharedDir())('the default method end to end (real text)', () => {
  it('fit prints and stores the held-out AUROC; filter keeps mostly the task domain and prints no warning', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const corpus = join(dir, 'corpus.jsonl');
      const docs = realMix(60);
      writeFileSync(corpus, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const model = join(dir, 'model.json');
      const fit = await runMain(['fit', '-v', '--task', sharedPath('corpora', 'task-chemprot', 'train.jsonl.gz'), '--general', corpus, '-o', model]);
      expect(fit.code, fit.stderr).toBe(0);
      expect(fit.stderr).toMatch(/contrast: held-out AUROC \(\d+ task vs \d+ corpus sentences\): classifier:rounds=1:expand=0\.05\+dsir:features=chars-folded:norm=mean 0\.\d{3}; chose classifier:rounds=1:expand=0\.05\+dsir:features=chars-folded:norm=mean/);
      expect(fit.stderr).toMatch(/self-training round 1: \d+ sample segments \(\d+ sentences, \d+\.\d% of the sample's bytes\) taken as task text/);
      // Running text: function words are counted and kept.
      expect(fit.stderr).toMatch(/contrast: function words are \d+% of the task's words and \d+% of the corpus sample's\n/);
      const m = JSON.parse(readFileSync(model, 'utf8'));
      // No --method: the default, named contrast in the file; fit's last lines say what it does.
      expect([m.method, m.selector.method]).toEqual(['contrast', 'contrast']);
      const last = fit.stderr.trimEnd().split('\n').slice(-4);
      expect(last[0]).toMatch(/^tadpole: fitted contrast on \d+ task sentences \+ \d+ general; wrote /);
      expect(last[1]).toBe('tadpole: contrast (the default): learns what sets your task text apart from a corpus sample,');
      expect(last[3]).toMatch(/^tadpole: .*then self-trains on the corpus passages most like the task\.$/);
      expect(m.selector.state.choice.candidates[0].auroc).toBeGreaterThan(0.7);
      // Self-trained by the sample's segments (drawn whole from the corpus), 5/10/15/20% of it.
      expect(m.selector.state.selfTraining).toMatchObject({ rounds: 4, expand: 0.05, bySegments: true });
      expect(m.selector.state.selfTraining.moved.map((r: { sentences: number }) => r.sentences / m.counts.generalSentences)).toEqual([expect.closeTo(0.05, 1), expect.closeTo(0.1, 1), expect.closeTo(0.15, 1), expect.closeTo(0.2, 1)]);
      const out = join(dir, 'kept.jsonl');
      const f = await runMain(['filter', '-m', model, corpus, '-o', out, '-q']);
      expect(f.code, f.stderr).toBe(0);
      expect(f.stderr).not.toMatch(/warning/);
      const kept = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { source: string });
      // Four sources, 60 documents each: random keeps ~25% bio records.
      expect(kept.filter((d) => d.source === 'bio').length / kept.length).toBeGreaterThan(0.7);
    } finally {
      cleanup();
    }
  }, 60_000);

  it('a task of paper titles is fitted without function words, says so, and still finds its domain', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const corpus = join(dir, 'corpus.jsonl');
      writeFileSync(corpus, realMix(60).map((d) => JSON.stringify(d)).join('\n') + '\n');
      const task = join(dir, 'titles.jsonl');
      writeFileSync(task, corpusRecords('cs-scitldr-abstracts/dev.jsonl.gz', 400).map((r) => JSON.stringify({ text: String(r.title) })).join('\n') + '\n');
      const model = join(dir, 'model.json');
      const fit = await runMain(['fit', '-v', '--task', task, '--general', corpus, '-o', model]);
      expect(fit.code, fit.stderr).toBe(0);
      expect(fit.stderr).toMatch(/contrast: function words are 1\d% of the task's words and [34]\d% of the corpus sample's: the task reads as headlines or titles/);
      const m = JSON.parse(readFileSync(model, 'utf8'));
      expect(m.selector.state.functionWords.skipped).toBe(true);
      expect(m.selector.params.chosen).toBe('classifier:rounds=1:expand=0.05:features=chars-folded-content+dsir:features=chars-folded-content:norm=mean');
      const out = join(dir, 'kept.jsonl');
      const f = await runMain(['filter', '-m', model, corpus, '-o', out, '-q']);
      expect(f.code, f.stderr).toBe(0);
      const kept = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { source: string });
      expect(kept.filter((d) => d.source === 'cs').length / kept.length).toBeGreaterThan(0.6);
    } finally {
      cleanup();
    }
  }, 60_000);

  it('eval with several specs prints the suite table with mean and minimum', async () => {
    const r = await runCli(['eval', 'corpora/smoke-bio.json', 'corpora/smoke-bio.json', '--methods', 'random,dsir', '--max-sentences', '600']);
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout.toString();
    expect(text).toMatch(/suite of 2 mixes: in-domain share of kept characters/);
    expect(text).toMatch(/^method\s+smoke-bio\s+smoke-bio\s+mean\s+min\s+seconds$/m);
    expect(text).toMatch(/^dsir\s+\d+\.\d%\s+\d+\.\d%\s+\d+\.\d%\s+\d+\.\d%/m);
  }, 60_000);
});
