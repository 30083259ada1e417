import { describe, expect, it } from 'vitest';
import { TadpoleError } from '../../src/core/errors.js';
import { fitModel } from '../../src/model/fit.js';
import { chooseFor } from '../../src/select/auto.js';
import type { ChooseAside } from '../../src/select/choice.js';
import { chooseOnThread } from '../../src/threads/choice-thread.js';
import { HAVE_SHARED, smallMix } from '../select/fixture.js';

describe.skipIf(!HAVE_SHARED)("the default's held-out measure run aside", () => {
  const fit = async (chooseAside?: ChooseAside) => {
    const mix = smallMix();
    const lines: string[] = [];
    const model = await fitModel({ method: 'contrast', task: mix.task, general: mix.general, seed: 4, options: {}, log: (l) => lines.push(l), ...(chooseAside ? { chooseAside } : {}) });
    return { model, lines };
  };

  it('on its own thread, or aside on this one, gives the model fitted in turn, and still logs the figure', async () => {
    const inTurn = await fit();
    for (const aside of [chooseOnThread, chooseFor]) {
      const got = await fit(aside);
      expect(JSON.stringify(got.model)).toBe(JSON.stringify(inTurn.model));
      expect(got.lines.filter((l) => /held-out AUROC/.test(l))).toEqual(inTurn.lines.filter((l) => /held-out AUROC/.test(l)));
    }
    expect(inTurn.lines.some((l) => /held-out AUROC .*chose /.test(l))).toBe(true);
  });

  it("a failure on the measure's thread comes back as the error it threw", async () => {
    const mix = smallMix();
    const err = await chooseOnThread({ task: mix.task, general: mix.general, seed: 1, candidates: ['no-such-scorer'], holdout: 0.2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).code).toBe('TADPOLE_USAGE');
  });
});
