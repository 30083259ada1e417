import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { chemprotSentences, realMix } from '../helpers/corpora.js';

const tmp = tempDir();
const f = (name: string) => join(tmp.dir, name);
afterAll(() => tmp.cleanup());

describe.skipIf(!sharedDir())('fit --option: checked at fit time (real text)', () => {
  it('without --general a bad value fails the fit (exit 2, no model written), not the filter later', async () => {
    writeFileSync(f('task.jsonl'), chemprotSentences(300).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
    const bad = await runCli(['fit', '--task', f('task.jsonl'), '--option', 'moveBy=median', '-o', f('bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown moveBy "median"; should be one of: mean, consensus/);
    expect(existsSync(f('bad.json'))).toBe(false);
    const good = await runCli(['fit', '-q', '--task', f('task.jsonl'), '--option', 'moveBy=consensus', '-o', f('good.json')]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toBe('');
    const style = await runCli(['fit', '--task', f('task.jsonl'), '--option', 'style=maybe', '-o', f('bad.json')]);
    expect(style.code).toBe(2);
    expect(style.stderr).toMatch(/unknown style "maybe"; should be one of: off, on/);
    expect((await runCli(['fit', '-q', '--task', f('task.jsonl'), '--option', 'moveBy=consensus', 'style=on', '-o', f('good.json')])).stderr).toBe('');
  });

  it('an option nobody reads is a warning under -q, with or without --general; the model is still written', async () => {
    writeFileSync(f('mix.jsonl'), realMix(30).map((d) => JSON.stringify(d)).join('\n') + '\n');
    for (const general of [[], ['--general', f('mix.jsonl')]]) {
      const typo = await runCli(['fit', '-q', '--task', f('task.jsonl'), ...general, '--option', 'round=0', '-o', f('typo.json')]);
      expect(typo.code, typo.stderr).toBe(0);
      expect(typo.stderr).toBe('tadpole: warning: --option round was not read by the tadpole fit and changes nothing: a typo, or an option of another method? (see tadpole fit --help)\n');
      expect(existsSync(f('typo.json'))).toBe(true);
    }
  });
});
