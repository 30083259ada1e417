import { describe, expect, it } from 'vitest';
import { checkDeferredOptions } from '../../src/model/complete.js';
import { fitModel } from '../../src/model/fit.js';
import { describeUnread, trackOptionReads } from '../../src/model/unread-options.js';

const task = Array.from({ length: 40 }, (_, i) => `protein ${i} binds the kinase receptor in cell line ${i % 7}`);
const general = Array.from({ length: 40 }, (_, i) => `the match ended ${i} to ${i % 5} after extra time in the rain`);

describe('options the fit never read', () => {
  it('tracks the keys read by name; a copy of the options counts every key as read', () => {
    const t = trackOptionReads({ rounds: 0, round: 1, other: 2 });
    expect(t.tracked.rounds).toBe(0);
    expect(t.unread()).toEqual(['round', 'other']);
    const copy = { ...t.tracked };
    expect(copy).toEqual({ rounds: 0, round: 1, other: 2 });
    expect(t.unread()).toEqual([]);
  });

  it('a fit warns on log about a declared key it did not use, and not about the ones it did', async () => {
    const lines: string[] = [];
    // guardShare applies with style=guard only: declared, unread here.
    await fitModel({ method: 'contrast', task, general, seed: 1, options: { rounds: 0, guardShare: 0.5 }, log: (l) => lines.push(l) });
    const warnings = lines.filter((l) => l.startsWith('warning: --option'));
    expect(warnings).toEqual([describeUnread('contrast', ['guardShare'])]);
    expect(warnings[0]).toMatch(/^warning: --option guardShare was not used by this contrast fit and changes nothing \(guardShare: style=guard/);
    let unread: string[] = ['untouched'];
    await fitModel({ method: 'dsir', task, general, seed: 1, options: { norm: 'mean' }, onUnreadOptions: (k) => (unread = k) });
    expect(unread).toEqual(['untouched']);
  });

  it('a key no part of the method declares is an error before the fit, with the nearest names', async () => {
    await expect(fitModel({ method: 'dsir', task, general, seed: 1, options: { norm: 'mean', nrom: 'sum' } })).rejects.toThrow(/unknown option 'nrom' for method dsir; did you mean 'norm'\?/);
    await expect(fitModel({ method: 'contrast', task, general, seed: 1, options: { round: 0 } })).rejects.toThrow(/unknown option 'round' for method contrast; did you mean 'rounds'\?/);
  });

  it('a deferred fit tries its options now: a bad value or an unknown key throws the filter-time error', async () => {
    await expect(checkDeferredOptions({ method: 'contrast', task, seed: 1, options: { moveBy: 'median' } })).rejects.toThrow(/invalid moveBy "median" for method contrast: should be one of: mean, consensus/);
    await expect(checkDeferredOptions({ method: 'dsir', task, seed: 1, options: { buckets: 'many' } })).rejects.toThrow(/invalid buckets "many" for method dsir/);
    await expect(checkDeferredOptions({ method: 'contrast', task, seed: 1, options: { round: 0 } })).rejects.toThrow(/did you mean 'rounds'/);
    const lines: string[] = [];
    await checkDeferredOptions({ method: 'contrast', task, seed: 1, options: { rounds: 0, moveBy: 'consensus' }, log: (l) => lines.push(l) });
    expect(lines).toEqual([]);
  });
});
