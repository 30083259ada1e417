import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runMain, tempDir } from '../helpers/cli.js';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';

const tmp = tempDir();
const f = (name: string) => join(tmp.dir, name);
afterAll(() => tmp.cleanup());

describe('fit --option: checked at fit time (real text)', () => {
  it('without --general a bad value fails the fit (exit 2, no model written), not the filter later', async () => {
    writeFileSync(f('task.jsonl'), builtinTaskSentences(300).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
    const bad = await runCli(['fit', '--task', f('task.jsonl'), '--option', 'moveBy=median', '-o', f('bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid moveBy "median" for method contrast: should be one of: mean, consensus/);
    expect(existsSync(f('bad.json'))).toBe(false);
    const good = await runMain(['fit', '-q', '--task', f('task.jsonl'), '--option', 'moveBy=consensus', '-o', f('good.json')]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toBe('');
    const style = await runMain(['fit', '--task', f('task.jsonl'), '--option', 'style=maybe', '-o', f('bad.json')]);
    expect(style.code).toBe(2);
    expect(style.stderr).toMatch(/invalid style "maybe" for method contrast: should be one of: off, on, guard/);
    expect((await runMain(['fit', '-q', '--task', f('task.jsonl'), '--option', 'moveBy=consensus', 'style=on', '-o', f('good.json')])).stderr).toBe('');
  });

  it('an unknown option is a usage error with the nearest name, before any text is read; no model is written', async () => {
    writeFileSync(f('mix.jsonl'), builtinMix(30).map((d) => JSON.stringify(d)).join('\n') + '\n');
    for (const general of [[], ['--general', f('mix.jsonl')]]) {
      const typo = await runMain(['fit', '-q', '--task', f('task.jsonl'), ...general, '--option', 'round=0', '-o', f('typo.json')]);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toBe("tadpole fit: error: unknown option 'round' for method contrast; did you mean 'rounds'? (see tadpole fit --method contrast --help)\n");
      expect(existsSync(f('typo.json'))).toBe(false);
    }
    // Another method's option says whose it is.
    const other = await runMain(['fit', '--task', f('task.jsonl'), '--method', 'tadpole', '--option', 'moveBy=consensus', '-o', f('typo.json')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/unknown option 'moveBy' for method tadpole: it is an option of contrast/);
  });

  it('a declared option this setting does not use is a warning under -q, with or without --general; the model is still written', async () => {
    for (const general of [[], ['--general', f('mix.jsonl')]]) {
      const unused = await runMain(['fit', '-q', '--task', f('task.jsonl'), ...general, '--option', 'guardShare=0.5', '-o', f('unused.json')]);
      expect(unused.code, unused.stderr).toBe(0);
      expect(unused.stderr).toMatch(/^tadpole: warning: --option guardShare was not used by this contrast fit and changes nothing \(guardShare: style=guard: .*\); see tadpole fit --method contrast --help\n$/);
      expect(existsSync(f('unused.json'))).toBe(true);
    }
  });
});
