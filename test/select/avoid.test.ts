import { describe, expect, it } from 'vitest';
import { AVOID_DEFAULTS, avoidSide, describeAvoid } from '../../src/select/avoid.js';

describe('avoidSide', () => {
  const few = Array.from({ length: 50 }, (_, i) => `post ${i}`);
  it('counts a few sentences several times, so that they weigh the share of the sample asked', () => {
    const { side, record } = avoidSide(few, 20000, 0.1, 1);
    expect(record).toEqual({ sentences: 50, used: 50, copies: 40, share: 0.1 });
    expect(side).toHaveLength(2000);
    expect(side.filter((s) => s === 'post 7')).toHaveLength(40);
    expect(describeAvoid(record, 20000)).toBe("avoid: 50 sentences not to keep join the general side of every fit, each counted 40 times (10% of the sample's weight)");
  });

  it('takes a seeded subsample of many sentences, each once, in their order', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
    const a = avoidSide(many, 20000, AVOID_DEFAULTS.share, 7);
    expect(a.record).toMatchObject({ sentences: 5000, used: 20000 * AVOID_DEFAULTS.share, copies: 1 });
    expect(new Set(a.side).size).toBe(a.side.length);
    const at = a.side.map((s) => Number(s.slice(5)));
    expect(at).toEqual([...at].sort((x, y) => x - y));
    expect(avoidSide(many, 20000, AVOID_DEFAULTS.share, 7).side).toEqual(a.side);
    expect(avoidSide(many, 20000, AVOID_DEFAULTS.share, 8).side).not.toEqual(a.side);
    expect(describeAvoid(a.record, 20000)).toMatch(/^avoid: a seeded \d+ of 5000 sentences not to keep .* each counted 1 time \(\d+% of the sample's weight\)$/);
  });

  it('never drops below one copy of one sentence on a tiny sample', () => {
    expect(avoidSide(few, 3, 0.1, 1).record).toEqual({ sentences: 50, used: 1, copies: 1, share: 0.1 });
  });
});
