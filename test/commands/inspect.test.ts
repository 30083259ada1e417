import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { inspectText } from '../../src/commands/inspect.js';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const reader = { ...DEFAULT_READER, format: 'auto' as const };

function corpus(name: string, docs: number): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, builtinMix(docs).map((d) => JSON.stringify(d)).join('\n') + '\n');
  return file;
}

describe('inspectText (tadpole inspect as a library call)', () => {
  it('groups a sample, places it against the task, and writes the group files, removing those of an earlier run with more groups', async () => {
    const text = corpus('mix.jsonl', 20);
    const task = join(tmp.dir, 'task.txt');
    writeFileSync(task, builtinTaskSentences(200).join('\n') + '\n');
    const dir = join(tmp.dir, 'groups');
    mkdirSync(dir);
    for (const k of [1, 5, 9]) writeFileSync(join(dir, `group-${k}.txt`), 'stale\n');
    const r = await inspectText({ inputs: [text], reader, groups: 4, sample: 3000, examples: 2, seed: 0, taskFiles: [task], writeGroups: dir });
    expect(r.groups.map((g) => g.id)).toEqual([1, 2, 3, 4]);
    expect(r.groups.reduce((a, g) => a + g.sentences.length, 0)).toBe(r.sentences);
    expect(r.taskSentences).toBe(200);
    expect(r.removed.sort()).toEqual(['group-5.txt', 'group-9.txt']);
    expect(existsSync(join(dir, 'group-5.txt'))).toBe(false);
    expect(r.files).toEqual(r.groups.map((g) => join(dir, `group-${g.id}.txt`)));
    // group-1.txt was the earlier run's: now it holds this run's group 1, a sentence a line.
    expect(readFileSync(join(dir, 'group-1.txt'), 'utf8').trim().split('\n')).toHaveLength(r.groups[0]!.sentences.length);
    for (const g of r.groups) {
      expect(g.examples.length).toBeLessThanOrEqual(2);
      for (const e of g.examples) expect(e).not.toMatch(/\s{2}|\n/);
      expect(g.rarer === null || (typeof g.rarer === 'number' && g.rarer > 0)).toBe(true);
    }
  });

  it('without a task the groups carry no rarity, and an empty text is an input error', async () => {
    const r = await inspectText({ inputs: [corpus('mix2.jsonl', 10)], reader, groups: 3, sample: 1000, examples: 1, seed: 1 });
    expect(r.taskSentences).toBeUndefined();
    expect(r.groups.every((g) => g.rarer === undefined)).toBe(true);
    expect(r.files).toEqual([]);
    const empty = join(tmp.dir, 'empty.jsonl');
    writeFileSync(empty, '');
    await expect(inspectText({ inputs: [empty], reader, groups: 3, sample: 100, examples: 1, seed: 0 })).rejects.toMatchObject({ code: 'TADPOLE_INPUT' });
  });
});
