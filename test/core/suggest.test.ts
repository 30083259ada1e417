import { describe, expect, it } from 'vitest';
import { closest, nearMisses } from '../../src/core/suggest.js';

const filterFlags = ['--model', '--keep', '--keep-by', '--threshold', '--segment', '--doc-context', '--output', '--out-format', '--stats', '--format', '--text-field', '--doc-per-line'];

describe('"did you mean": near-miss flags', () => {
  it('a typo: the one closest by edit distance', () => {
    expect(nearMisses('--modle', filterFlags)).toEqual(['--model']);
    expect(nearMisses('--kep', filterFlags)).toEqual(['--keep']);
    expect(nearMisses('--genral', ['--general', '--task'])).toEqual(['--general']);
    expect(closest('fliter', ['fit', 'filter', 'split'])).toBe('filter');
  });

  it('a flag that shares its first word with known ones: every one of them (--keep-share: --keep, --keep-by)', () => {
    expect(nearMisses('--keep-share', filterFlags)).toEqual(['--keep', '--keep-by']);
    expect(nearMisses('--doc-lines', filterFlags)).toEqual(['--doc-context', '--doc-per-line']);
    // A prefix of several: all of them (--out: --output, --out-format).
    expect(nearMisses('--out', filterFlags)).toEqual(['--output', '--out-format']);
    expect(nearMisses('--thresh', filterFlags)).toEqual(['--threshold']);
  });

  it('nothing for a word far from every flag, or a first word too short to say anything', () => {
    expect(nearMisses('--zzzzzz', filterFlags)).toEqual([]);
    expect(nearMisses('--ab', filterFlags)).toEqual([]);
    // More than three that share it narrows nothing.
    expect(nearMisses('--doc-size', ['--doc-a', '--doc-b', '--doc-c', '--doc-d'])).toEqual([]);
  });
});
