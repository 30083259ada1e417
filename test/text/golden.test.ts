import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { accuracy, evaluateGolden, needsCleaning, parseGoldenJsonl, passes } from '../../src/text/golden.js';
import type { GoldenCase } from '../../src/text/golden.js';

const one = (text: string, expected: string[]): GoldenCase => ({ id: 'x', group: 'Golden Rules', text, expected });

describe('golden evaluation logic', () => {
  it('compares trimmed slices with the expected list exactly', () => {
    expect(passes(one('Hello World. My name is Jonas.', ['Hello World.', 'My name is Jonas.']))).toBe(true);
    expect(passes(one('Hello World. My name is Jonas.', ['Hello World. My name is Jonas.']))).toBe(false);
  });

  it('flags cases that only text cleaning can pass', () => {
    expect(needsCleaning(one('It was a cold \nnight in the city.', ['It was a cold night in the city.']))).toBe(true);
    expect(needsCleaning(one('One.  Two.', ['One.', 'Two.']))).toBe(false);
  });

  it('a splitter that never splits scores low (the score can fail)', () => {
    const cases = [one('A b. C d.', ['A b.', 'C d.']), one('E f.', ['E f.'])];
    const r = evaluateGolden(cases, (t) => [0, t.length]);
    expect(r.rules.exact).toBe(1);
    expect(r.rules.failing).toEqual(['x']);
  });
});

const shared = sharedDir();
const goldenPath = shared === undefined ? '' : join(shared, 'corpora', 'sentence-golden', 'golden_en.jsonl');

describe.skipIf(!goldenPath || !existsSync(goldenPath))('golden_en.jsonl', () => {
  const cases = parseGoldenJsonl(readFileSync(goldenPath, 'utf8'));
  const report = evaluateGolden(cases);

  it('has the documented subsets', () => {
    expect(cases).toHaveLength(258);
    expect(report.rulesAll.total).toBe(100);
    expect(report.rules.total).toBe(98);
  });

  it('Golden Rules (upstream-passing) exact match >= 0.90', () => {
    expect(accuracy(report.rules), report.rules.failing.join(' ')).toBeGreaterThanOrEqual(0.9);
  });
});
