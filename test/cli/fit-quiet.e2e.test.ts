import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runMain, tempDir } from '../helpers/cli.js';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';

const tmp = tempDir();
const f = (name: string) => join(tmp.dir, name);
afterAll(() => tmp.cleanup());

describe('fit -q: warnings only (real text)', () => {
  it('a good fit prints nothing under -q, a few lines by default, and its sample, rounds and choice under -v', async () => {
    writeFileSync(f('task.jsonl'), builtinTaskSentences(600).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
    writeFileSync(f('mix.jsonl'), builtinMix(40).map((d) => JSON.stringify(d)).join('\n') + '\n');
    const quiet = await runCli(['fit', '-q', '--task', f('task.jsonl'), '--general', f('mix.jsonl'), '-o', f('q.json')]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const plain = await runMain(['fit', '--task', f('task.jsonl'), '--general', f('mix.jsonl'), '-o', f('p.json')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr.trim().split('\n').length, plain.stderr).toBeLessThanOrEqual(6);
    expect(plain.stderr).not.toMatch(/self-training round/);
    const loud = await runMain(['fit', '-v', '--task', f('task.jsonl'), '--general', f('mix.jsonl'), '-o', f('l.json')]);
    expect(loud.stderr).toMatch(/general sample: \d+ sentences/);
    expect(loud.stderr).toMatch(/self-training round 1/);
    expect(loud.stderr).toMatch(/fitted contrast on \d+ task sentences \+ \d+ general; wrote /);
  });

  it('a task that cannot be told from the corpus still warns under -q, and so does a tiny task', async () => {
    // The corpus as its own task: held-out task sentences rank no higher than corpus ones.
    const mix = builtinMix(40);
    writeFileSync(f('self.jsonl'), mix.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const same = await runMain(['fit', '-q', '--task', f('self.jsonl'), '--general', f('self.jsonl'), '-o', f('s.json')]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toMatch(/^tadpole: warning: the best scorer ranks held-out task sentences above corpus sentences with AUROC 0\.\d{3} .*close to a random sample/);
    expect(same.stderr).not.toMatch(/classifier:|dsir:/); // no scorer's internal name without -v
    expect(same.stderr.trim().split('\n').every((l) => l.startsWith('tadpole: warning: '))).toBe(true);
    writeFileSync(f('tiny.txt'), 'One protein binds another.\n\nThe kinase is inhibited by the drug.\n');
    const tiny = await runMain(['fit', '-q', '--task', f('tiny.txt'), '-o', f('t.json')]);
    expect(tiny.code, tiny.stderr).toBe(0);
    expect(tiny.stderr).toMatch(/^tadpole: warning: the task has only 2 sentences/);
    expect(tiny.stderr).not.toMatch(/no --general/);
  });
});
