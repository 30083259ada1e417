import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { Moments } from '../../src/passes/spill-pass.js';
import { planRanges, rangeSizes, RANGES_PER_THREAD } from '../../src/threads/ranges-place.js';
import { fingerprintInputs } from '../../src/passes/fingerprint.js';
import { resolveInputs } from '../../src/io/input-kind.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-ranges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('input ranges: where they apply and how the input is cut', () => {
  const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ text: `Document ${i}. ${'word '.repeat(i % 37)}` })).join('\n') + '\n';
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  writeFileSync(a, lines);
  writeFileSync(b, lines.slice(0, lines.indexOf('\n', 20_000) + 1));

  it('ranges shrink towards the end of the input: each takes a 1/(2 x threads) share of the pieces left, the last ones a piece each', () => {
    expect(rangeSizes(8, 2)).toEqual([2, 2, 1, 1, 1, 1]);
    expect(rangeSizes(40, 2)).toEqual([10, 8, 6, 4, 3, 3, 2, 1, 1, 1, 1]);
    for (const [pieces, threads] of [[128, 2], [12, 3], [256, 4], [1, 2]] as const) {
      const sizes = rangeSizes(pieces, threads);
      expect(sizes.reduce((x, y) => x + y, 0)).toBe(pieces);
      for (let i = 1; i < sizes.length; i++) expect(sizes[i]!).toBeLessThanOrEqual(sizes[i - 1]!);
      expect(sizes[sizes.length - 1]).toBe(1);
    }
  });

  it('plain files: ranges that shrink towards the end, every document in exactly one range, cut at line starts', () => {
    const inputs = [a, b];
    const jobs = planRanges(resolveInputs(inputs, DEFAULT_READER.format), fingerprintInputs(inputs), DEFAULT_READER, 3, 0)!;
    expect(jobs.length).toBeGreaterThan(1);
    expect(jobs.length).toBeLessThanOrEqual(3 * RANGES_PER_THREAD);
    // The first range (2 of the 12 pieces) is larger than the last (1 piece, of the second file).
    const lengths = [lines.length, lines.indexOf('\n', 20_000) + 1];
    const size = (j: (typeof jobs)[number]) => j.only.reduce((n, i) => {
      const r = new Map(j.ranges).get(i) ?? { start: 0, end: Infinity };
      return n + Math.min(r.end, lengths[i]!) - r.start;
    }, 0);
    expect(size(jobs[jobs.length - 1]!)).toBeGreaterThan(0);
    expect(size(jobs[0]!)).toBeGreaterThan(1.5 * size(jobs[jobs.length - 1]!));
    // Laid end to end, the ranges tile each file from 0 to its end, with no gap or overlap.
    for (const [i, text] of [[0, lines], [1, lines.slice(0, lines.indexOf('\n', 20_000) + 1)]] as const) {
      const pieces = jobs
        .filter((j) => j.only.includes(i))
        .map((j) => new Map(j.ranges).get(i) ?? { start: 0, end: Number.MAX_SAFE_INTEGER })
        .sort((x, y) => x.start - y.start);
      expect(pieces[0]!.start).toBe(0);
      for (let k = 1; k < pieces.length; k++) {
        expect(pieces[k]!.start).toBe(pieces[k - 1]!.end);
        expect(text[pieces[k]!.start - 1]).toBe('\n');
      }
      expect(Math.min(pieces[pieces.length - 1]!.end, text.length)).toBe(text.length);
    }
  });

  it('a compressed file is one whole range: many of them make ranges, one alone does not', () => {
    const gzs = Array.from({ length: 6 }, (_, i) => {
      const gz = join(dir, `c${i}.jsonl.gz`);
      writeFileSync(gz, gzipSync(lines.slice(0, lines.indexOf('\n', 1000 * (i + 1)) + 1)));
      return gz;
    });
    const many = planRanges(resolveInputs(gzs, DEFAULT_READER.format), fingerprintInputs(gzs), DEFAULT_READER, 2, 0)!;
    expect(many.length).toBeGreaterThanOrEqual(4);
    for (const j of many) expect(j.ranges).toEqual([]); // whole files only
    expect(many.flatMap((j) => j.only).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(planRanges(resolveInputs([gzs[0]!], DEFAULT_READER.format), fingerprintInputs([gzs[0]!]), DEFAULT_READER, 2, 0)).toBeUndefined();
  });

  it('not for one thread, small inputs or stdin', () => {
    expect(planRanges(resolveInputs([a], DEFAULT_READER.format), fingerprintInputs([a]), DEFAULT_READER, 1, 0)).toBeUndefined();
    expect(planRanges(resolveInputs([a], DEFAULT_READER.format), fingerprintInputs([a]), DEFAULT_READER, 2)).toBeUndefined(); // under RANGE_MIN_BYTES
    expect(planRanges(resolveInputs(['-', a], DEFAULT_READER.format), [{ idx: 0, path: '-', size: -1, mtimeMs: 0, headTailSha256: '', gzip: false }, ...fingerprintInputs([a])], DEFAULT_READER, 2, 0)).toBeUndefined();
  });
});

describe('Moments.merge', () => {
  it('the moments of two halves merged equal those of the whole, to rounding', () => {
    const xs = Array.from({ length: 10_001 }, (_, i) => Math.sin(i) * 3 + (i % 7) - 1.5);
    const whole = new Moments();
    for (const x of xs) whole.add(x);
    const left = new Moments();
    const right = new Moments();
    xs.forEach((x, i) => (i < 4321 ? left : right).add(x));
    left.merge(right);
    expect(left.n).toBe(whole.n);
    expect(left.mean).toBeCloseTo(whole.mean, 12);
    expect(left.std).toBeCloseTo(whole.std, 12);
    const empty = new Moments();
    empty.merge(whole);
    expect(empty.mean).toBe(whole.mean);
    expect(empty.std).toBe(whole.std);
  });
});
