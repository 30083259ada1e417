import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { needsCompletion } from '../../src/model/complete.js';
import { readModel } from '../../src/model/file.js';
import { fitModelFile, type FitModelFileOptions } from '../../src/commands/fit.js';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const task = join(tmp.dir, 'task.txt');
writeFileSync(task, builtinTaskSentences(300).join('\n') + '\n');
const base = (over: Partial<FitModelFileOptions>): FitModelFileOptions => ({
  taskFiles: [task],
  generalFiles: [],
  avoid: [],
  reader: { ...DEFAULT_READER, docPerLine: true },
  method: undefined,
  given: {},
  sampleSize: 2000,
  seed: 0,
  output: join(tmp.dir, 'model.json'),
  log: () => {},
  ...over,
});

describe('fitModelFile (tadpole fit)', () => {
  it('with no general files stores a deferred fit the filter completes, and says how large a sample it will draw', async () => {
    const output = join(tmp.dir, 'deferred.json');
    const r = await fitModelFile(base({ output }));
    expect(r).toMatchObject({ method: 'contrast', output, task: 300, general: 0, deferred: { sampleSize: 2000 } });
    expect(r.explanation.length).toBeGreaterThan(0);
    expect(needsCompletion(readModel(output))).toBe(true);
  });

  it('fits on a sample of the general files, saying the sample on log', async () => {
    const general = join(tmp.dir, 'general.jsonl');
    writeFileSync(general, builtinMix(30).map((d) => JSON.stringify(d)).join('\n') + '\n');
    const lines: string[] = [];
    const output = join(tmp.dir, 'fitted.json');
    const r = await fitModelFile(base({ generalFiles: [general], output, workers: 1, log: (l) => lines.push(l) }));
    expect(r.deferred).toBeUndefined();
    expect(r.general).toBeGreaterThan(1000);
    expect(lines.some((l) => l.startsWith(`general sample: ${r.general} sentences`))).toBe(true);
    expect(needsCompletion(readModel(output))).toBe(false);
  });

  it('refuses a keep for a method that does not self-train before reading any text', async () => {
    const output = join(tmp.dir, 'never.json');
    await expect(fitModelFile(base({ taskFiles: [join(tmp.dir, 'missing.txt')], method: 'dsir', keep: 0.1, output }))).rejects.toMatchObject({ code: 'TADPOLE_USAGE', message: expect.stringMatching(/--keep sizes the self-training/) });
    expect(existsSync(output)).toBe(false);
  });
});
