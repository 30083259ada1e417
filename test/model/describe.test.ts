import { describe, expect, it } from 'vitest';
import { completeModel, deferFit } from '../../src/model/complete.js';
import { describeModel, summarizeModel } from '../../src/model/describe.js';
import { fitModel } from '../../src/model/fit.js';
import type { SentenceSample } from '../../src/io/sample.js';

// Task-like and corpus-like sentences; the corpus's first 10 segments read like the task.
const task = Array.from({ length: 120 }, (_, i) => `the protein ${i % 13} binds the kinase receptor in cell line ${i % 7}`);
const general = Array.from({ length: 400 }, (_, i) => (i < 50 ? `a kinase protein ${i % 11} binds receptor cells ${i % 5}` : `the match ended ${i % 9} to ${i % 4} after extra time in the rain ${i}`));
const groups = Uint32Array.from(general, (_, i) => Math.floor(i / 5));

describe('a model file in words (tadpole model show)', () => {
  it('a fitted default: options, sizes, the choice with its AUROC, and every self-training move', async () => {
    const model = await fitModel({ method: 'contrast', task, general, generalGroups: groups, seed: 3, options: { moveBy: 'consensus', rounds: 2 }, taskFiles: ['task.txt'], generalFiles: ['corpus.txt'] });
    const s = summarizeModel(JSON.parse(JSON.stringify(model)));
    expect(s.state).toBe('fitted');
    const lines = describeModel(s);
    expect(lines[0]).toBe('method: contrast (model version 1), seed 3, options moveBy=consensus rounds=2');
    expect(lines[1]).toMatch(/^  contrast \(the default\): learns what sets your task text apart from a corpus sample,$/);
    expect(lines[3]).toMatch(/then self-trains on the corpus passages most like the task\.$/);
    expect(lines).toContain('task: 120 sentences from task.txt');
    expect(lines).toContain('general sample: 400 sentences from corpus.txt');
    // In words by default; the scorers' internal names only with verbose (model show -v).
    expect(lines.join('\n')).toMatch(/^contrast: held-out AUROC \d\.\d{3} \(24 task vs 80 corpus sentences set aside; 1 tells them apart, 0\.5 is chance\)$/m);
    expect(lines.join('\n')).not.toMatch(/classifier:|dsir:|[{}]/);
    const verbose = describeModel(s, { verbose: true }).join('\n');
    expect(verbose).toMatch(/^contrast: held-out AUROC \(24 task vs 80 corpus sentences\): classifier:.* \d\.\d{3}; chose classifier:/m);
    // The model file itself, as docs/reference/api.md shows it, gives the same lines.
    expect(describeModel(JSON.parse(JSON.stringify(model)))).toEqual(lines);
    const moved = s.selfTraining!.moved;
    expect(moved).toHaveLength(2);
    expect(lines.at(-1)).toBe(`self-training: 2 rounds of 0.05 of the sample's bytes, moved by consensus: round 1: ${moved[0]!.segments} segments (${moved[0]!.sentences} sentences); round 2: ${moved[1]!.segments} segments (${moved[1]!.sentences} sentences)`);
  });

  it('a model fitted without --general says it waits for the corpus, and once completed names its sample', async () => {
    const waiting = deferFit({ method: 'contrast', task, seed: 1, options: {}, sampleSize: 500 });
    const w = summarizeModel(waiting);
    expect(w.state).toBe('waiting');
    expect(describeModel(w)).toContain('general sample: none yet: filter completes the model from a seeded sample of 500 sentences of the corpus it filters (more when its --keep is under 2.5%)');
    expect(describeModel(w).join('\n')).toMatch(/held-out AUROC and self-training: measured by each filter when it completes the model .*--stats records it as heldOut/);
    const sample: SentenceSample = { sentences: general, groups, size: 500, seed: 1, sampler: 'reservoir', bytesRead: 2_500_000, documents: 80, draws: 0, fingerprint: 'abcdef0123456789' };
    const done = summarizeModel(await completeModel(waiting, sample));
    expect(done.state).toBe('completed');
    expect(describeModel(done)).toContain('general sample: 400 sentences of the corpus filtered (reservoir, 2.5 MB read), fingerprint abcdef0123456789');
    expect(describeModel(done).join('\n')).toMatch(/^contrast: held-out AUROC \d\.\d{3} /m);
    expect(JSON.stringify(done)).not.toMatch(/kinase/); // the summary holds no text and no state
  });
});
