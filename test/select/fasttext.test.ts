import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { FASTTEXT_ENV, fasttextProgram, fasttextSelector } from '../../src/select/fasttext.js';
import { MethodUnavailableError } from '../../src/select/unavailable.js';
import { HAVE_SHARED, inDomainShareOfKept, smallMix } from './fixture.js';

const saved = process.env[FASTTEXT_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[FASTTEXT_ENV];
  else process.env[FASTTEXT_ENV] = saved;
});

function haveFasttext(): boolean {
  try {
    fasttextProgram();
    return true;
  } catch {
    return false;
  }
}

const temps = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith(`tadpole-fasttext-${process.pid}-`));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('fasttext without the program', () => {
  it('fit and load say, in one line, to install it', async () => {
    process.env[FASTTEXT_ENV] = '/nonexistent/fasttext';
    const ctx = { task: ['a protein binds'], general: ['a match ended'], seed: 1, options: {} };
    const err = await fasttextSelector.fit(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MethodUnavailableError);
    expect((err as Error).message).toBe('method fasttext needs the fastText program, and TADPOLE_FASTTEXT=/nonexistent/fasttext is not an executable file; install it (apt-get install fasttext) or set TADPOLE_FASTTEXT to the program');
    process.env[FASTTEXT_ENV] = 'no-such-fasttext-program';
    await expect(fasttextSelector.load({ method: 'fasttext', params: {}, state: { model: '' } }, { seed: 1, options: {} })).rejects.toThrow(/there is no "no-such-fasttext-program" on PATH; install it \(apt-get install fasttext\)/);
    expect(temps()).toEqual([]);
  });
});

describe.skipIf(!HAVE_SHARED || !haveFasttext())('fasttext on a small real mix (ChemProt task; bio vs news)', () => {
  it('ranks task-domain sentences first, fits deterministically, round-trips, and leaves nothing behind', async () => {
    const mix = smallMix();
    const before = temps();
    const fit = (seed: number) => fasttextSelector.fit({ task: mix.task, general: mix.general, seed, options: {} });
    const json = await fit(3);
    expect(json.params).toMatchObject({ wordNgrams: 2, lr: 0.1, epoch: 5, minCount: 1, dim: 10, bucket: 200000, loss: 'softmax', thread: 1, seed: 3 });
    expect((await fit(3)).state.model).toBe(json.state.model);
    const scorer = await fasttextSelector.load(JSON.parse(JSON.stringify(json)), { seed: 3, options: {} });
    const pid = (scorer as unknown as { pid: number }).pid;
    expect(alive(pid)).toBe(true);
    // Several calls on one child, each line mapped back to its sentence; odd text stays one line.
    const scores = new Float64Array(mix.sentences.length);
    for (let i = 0; i < mix.sentences.length; i += 150) scores.set(await scorer.score(mix.sentences.slice(i, i + 150)), i);
    // DCLM's 5 epochs at lr 0.1 underfit 500 training lines (0.61 here, random 0.5); 25 epochs fit them.
    expect(inDomainShareOfKept(scores, mix.inDomain, 0.2)).toBeGreaterThan(0.55);
    const longer = await fasttextSelector.load(await fasttextSelector.fit({ task: mix.task, general: mix.general, seed: 3, options: { epoch: 25 } }), { seed: 3, options: {} });
    expect(inDomainShareOfKept(await longer.score(mix.sentences), mix.inDomain, 0.2)).toBeGreaterThan(0.75);
    await longer.dispose();
    const odd = ['', '  \n\t ', `two\nlines\r\nhere __label__hq </s> after`, 'x '.repeat(3000), mix.sentences[0]!];
    const [a, b, c, d, e] = await Promise.all([scorer.score(odd), scorer.score(mix.sentences.slice(0, 3))]);
    expect(a).toHaveLength(5);
    expect(a![4]).toBeCloseTo(scores[0]!, 10);
    expect(Array.from(b!)).toEqual(Array.from(scores.slice(0, 3)));
    expect([c, d, e]).toEqual([undefined, undefined, undefined]);
    expect(temps().length).toBe(before.length + 1);
    await scorer.dispose();
    expect(alive(pid)).toBe(false);
    expect(temps()).toEqual(before);
    await expect(scorer.score(['after'])).rejects.toThrow(/after dispose/);
  }, 20_000);
});
