import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { STDIN } from '../../src/io/input.js';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { deferFit } from '../../src/model/complete.js';
import { writeModel } from '../../src/model/file.js';
import { fitModel } from '../../src/model/fit.js';
import { scoreCorpus } from '../../src/commands/score.js';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const reader = { ...DEFAULT_READER, format: 'jsonl' as const };

describe('scoreCorpus (tadpole score as a library call)', () => {
  const corpus = join(tmp.dir, 'corpus.jsonl');
  writeFileSync(corpus, builtinMix(8).map((d) => JSON.stringify(d)).join('\n') + '\n');
  const base = { inputs: [corpus], reader, embedder: {}, workers: 1, segment: 15, docContext: 0 };

  it('reads the model file and writes a record per sentence to the stream, or per segment to a file', async () => {
    const model = join(tmp.dir, 'model.json');
    writeModel(model, await fitModel({ method: 'dsir', task: builtinTaskSentences(300), general: builtinMix(20).map((d) => d.text), seed: 0, options: {} }));
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (c: Buffer) => (text += c.toString()));
    const r = await scoreCorpus({ ...base, model, stdout });
    expect(r.mode).toBe('records');
    const records = text.trim().split('\n').map((l) => JSON.parse(l) as { doc: number; i: number; score: number; text: string });
    expect(records.length).toBeGreaterThan(50);
    expect(records.every((x) => Number.isFinite(x.score) && x.text.length > 0)).toBe(true);
    const out = join(tmp.dir, 'segments.jsonl');
    await scoreCorpus({ ...base, model, output: out, segments: true, withText: false });
    const segments = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { sentences: number; text?: string });
    expect(segments.reduce((a, s) => a + s.sentences, 0)).toBe(records.length);
    expect(segments.every((s) => s.text === undefined)).toBe(true);
  });

  it('refuses a model to be completed from the corpus on stdin, which it would read twice', async () => {
    const model = join(tmp.dir, 'deferred.json');
    writeModel(model, deferFit({ method: 'dsir', task: builtinTaskSentences(300), seed: 0, options: {}, sampleSize: 500 }));
    await expect(scoreCorpus({ ...base, inputs: [STDIN], model, stdin: new PassThrough(), stdout: new PassThrough() })).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
  });
});
