import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { runCli, runMain, tempDir } from '../helpers/cli.js';
import { chemprotSentences, realMix } from '../helpers/corpora.js';

const tmp = tempDir();
const f = (name: string) => join(tmp.dir, name);
afterAll(() => tmp.cleanup());

describe.skipIf(!sharedDir())('tadpole model show (real text)', () => {
  it('prints what fit printed, from the file; --json the same as data; a waiting model says so; errors exit 2 and 4', async () => {
    writeFileSync(f('task.jsonl'), chemprotSentences(400).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
    writeFileSync(f('mix.jsonl'), realMix(30).map((d) => JSON.stringify(d)).join('\n') + '\n');
    const fit = await runCli(['fit', '-v', '--task', f('task.jsonl'), '--general', f('mix.jsonl'), '-o', f('m.json')]);
    expect(fit.code, fit.stderr).toBe(0);
    const show = await runMain(['model', 'show', f('m.json')]);
    expect(show.code, show.stderr).toBe(0);
    const text = show.stdout.toString();
    // The choice and the moves, as fit -v said them, but in words: the scorers' internal names with -v only.
    const choice = fit.stderr.match(/contrast: held-out AUROC .*/)![0];
    expect(text).not.toContain(choice);
    expect(text).not.toMatch(/classifier:|dsir:|\{"/);
    const auroc = / (\d\.\d{3}); chose /.exec(choice)![1]!;
    expect(text).toMatch(new RegExp(`^contrast: held-out AUROC ${auroc.replace('.', '\\.')} \\(\\d+ task vs \\d+ corpus sentences set aside`, 'm'));
    expect((await runMain(['model', 'show', '-v', f('m.json')])).stdout.toString()).toContain(choice);
    expect(text).toMatch(/^self-training: 4 rounds of 0\.05 of the sample's bytes, moved by mean: round 1: \d+ segments/m);
    const json = JSON.parse((await runMain(['model', 'show', f('m.json'), '--json'])).stdout.toString());
    expect(text).toMatch(/^method: contrast \(model version \d+\), seed 0\n  contrast \(the default\): learns what sets/);
    expect(json).toMatchObject({ method: 'contrast', state: 'fitted', counts: { taskSentences: expect.any(Number) }, selfTraining: { rounds: 4, moveBy: 'mean' } });
    await runMain(['fit', '-q', '--task', f('task.jsonl'), '-o', f('w.json')]);
    expect((await runMain(['model', 'show', f('w.json')])).stdout.toString()).toMatch(/general sample: none yet: filter completes the model/);
    expect((await runMain(['model', 'show'])).code).toBe(2);
    expect((await runMain(['model', 'show', f('task.jsonl')])).code).toBe(4);
  });
});
