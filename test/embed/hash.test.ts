import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embed/hash.js';

function cos(a: Float32Array, i: number, j: number, d: number): number {
  let s = 0;
  for (let k = 0; k < d; k++) s += a[i * d + k]! * a[j * d + k]!;
  return s;
}

describe('HashEmbedder', () => {
  const sentences = [
    'The protein binds to the receptor and inhibits kinase activity.',
    'The receptor protein inhibits the kinase activity when bound.',
    'Shares of the bank rose three percent on Tuesday.',
    '',
  ];

  it('rows are L2-normalised (empty sentence gives a zero row)', () => {
    const e = new HashEmbedder({ dims: 128 });
    const X = e.embedSync(sentences);
    expect(X.length).toBe(4 * 128);
    for (let i = 0; i < 3; i++) expect(cos(X, i, i, 128)).toBeCloseTo(1, 5);
    expect(cos(X, 3, 3, 128)).toBe(0);
  });

  it('is deterministic and depends on the seed', () => {
    const a = new HashEmbedder({ seed: 1 }).embedSync(sentences);
    const b = new HashEmbedder({ seed: 1 }).embedSync(sentences);
    const c = new HashEmbedder({ seed: 2 }).embedSync(sentences);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(c.buffer))).toBe(false);
  });

  it('sentences sharing words are closer than unrelated ones', () => {
    const X = new HashEmbedder({ dims: 256 }).embedSync(sentences);
    expect(cos(X, 0, 1, 256)).toBeGreaterThan(cos(X, 0, 2, 256) + 0.3);
  });

  it('is case-insensitive and ignores punctuation', () => {
    const X = new HashEmbedder().embedSync(['Hello, World!', 'hello world']);
    expect(cos(X, 0, 1, 256)).toBeCloseTo(1, 5);
  });

  it('a vector does not depend on its batch-mates', () => {
    const e = new HashEmbedder();
    const alone = e.embedSync([sentences[2]!]);
    const inBatch = e.embedSync(sentences).subarray(2 * 256, 3 * 256);
    expect(Array.from(alone)).toEqual(Array.from(inBatch));
  });

  it('fingerprint records what reproduces it', () => {
    expect(new HashEmbedder({ dims: 64, seed: 3 }).fingerprint).toMatchObject({ kind: 'hash', dims: 64, seed: 3 });
  });
});
