import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { rankOnTask } from '../../src/rank/rank-task.js';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const reader = { ...DEFAULT_READER, format: 'auto' as const };

function files(): { task: string; general: string } {
  const task = join(tmp.dir, 'task.txt');
  // Every task sentence twice: deduplicated, half of them are left.
  const sentences = builtinTaskSentences(150);
  writeFileSync(task, [...sentences, ...sentences].join('\n') + '\n');
  const general = join(tmp.dir, 'general.jsonl');
  writeFileSync(general, builtinMix(15).map((d) => JSON.stringify(d)).join('\n') + '\n');
  return { task, general };
}

describe('rankOnTask (tadpole rank as a library call)', () => {
  const base = { reader, embedder: { kind: 'hash' as const }, detectors: ['knn', 'pca'], seed: 0, repeat: 1, maxGeneral: 500 };

  it('reads, embeds and ranks; dedupe drops the repeated task sentences before the split', async () => {
    const { task, general } = files();
    const deduped = await rankOnTask({ ...base, taskFiles: [task], generalFiles: [general], dedupe: true });
    const kept = await rankOnTask({ ...base, taskFiles: [task], generalFiles: [general], dedupe: false });
    expect(deduped.detectors.map((d) => d.name)).toEqual(['knn', 'pca']);
    expect(deduped.embedder.kind).toBe('hash');
    expect(deduped.train + deduped.test_task).toBe(150);
    expect(kept.train + kept.test_task).toBe(300);
    for (const d of deduped.detectors) expect(d.auroc).toBeGreaterThan(0.5);
  });

  it('refuses too few task sentences and an empty general text as input errors', async () => {
    const { task, general } = files();
    const short = join(tmp.dir, 'short.txt');
    writeFileSync(short, 'One sentence here.\nAnother one there.\n');
    const empty = join(tmp.dir, 'empty.txt');
    writeFileSync(empty, '');
    await expect(rankOnTask({ ...base, taskFiles: [short], generalFiles: [general], dedupe: true })).rejects.toThrow(/rank needs at least 3 task sentences, got 2/);
    await expect(rankOnTask({ ...base, taskFiles: [task], generalFiles: [empty], dedupe: true })).rejects.toMatchObject({ code: 'TADPOLE_INPUT' });
  });
});
