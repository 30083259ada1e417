import { describe, expect, it } from 'vitest';
import { halfToFloat } from '../../../src/embed/onnx/runtime.js';

/** The IEEE 754 binary16 value of bit pattern h, computed from its fields. */
function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

describe('halfToFloat', () => {
  it('gives the IEEE value of every one of the 65536 half bit patterns (signed zeros, subnormals, infinities, NaN)', () => {
    const all = new Uint16Array(65536);
    for (let h = 0; h < all.length; h++) all[h] = h;
    const got = halfToFloat(all);
    const wrong: number[] = [];
    for (let h = 0; h < all.length; h++) if (!Object.is(got[h], Math.fround(halfValue(h)))) wrong.push(h);
    expect(wrong).toEqual([]);
    expect(Object.is(got[0x8000], -0)).toBe(true);
    expect(got[0x3c00]).toBe(1);
    expect(got[0x7bff]).toBe(65504);
  });

  it('copies numbers a runtime already decoded', () => {
    expect([...halfToFloat([1.5, -2, 0])]).toEqual([1.5, -2, 0]);
  });
});
