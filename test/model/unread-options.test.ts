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

  it('a fit warns on log about a key it did not read, and not about the ones it did', async () => {
    const lines: string[] = [];
    await fitModel({ method: 'dsir', task, general, seed: 1, options: { norm: 'mean', nrom: 'sum' }, log: (l) => lines.push(l) });
    expect(lines).toEqual([describeUnread('dsir', ['nrom'])]);
    expect(lines[0]).toMatch(/^warning: --option nrom was not read by the dsir fit and changes nothing/);
    let unread: string[] = ['untouched'];
    await fitModel({ method: 'dsir', task, general, seed: 1, options: { norm: 'mean' }, onUnreadOptions: (k) => (unread = k) });
    expect(unread).toEqual(['untouched']);
  });

  it('a deferred fit tries its options now: a bad value throws the filter-time error, a typo is said', async () => {
    await expect(checkDeferredOptions({ method: 'tadpole', task, seed: 1, options: { moveBy: 'median' } })).rejects.toThrow(/unknown moveBy "median"/);
    await expect(checkDeferredOptions({ method: 'dsir', task, seed: 1, options: { buckets: 'many' } })).rejects.toThrow(/invalid buckets/);
    const lines: string[] = [];
    await checkDeferredOptions({ method: 'tadpole', task, seed: 1, options: { round: 0 }, log: (l) => lines.push(l) });
    expect(lines).toEqual([describeUnread('tadpole', ['round'])]);
    lines.length = 0;
    await checkDeferredOptions({ method: 'tadpole', task, seed: 1, options: { rounds: 0, moveBy: 'consensus' }, log: (l) => lines.push(l) });
    expect(lines).toEqual([]);
  });
});
