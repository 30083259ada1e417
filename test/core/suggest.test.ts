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

  it('a flag that shares its first word with known ones: every one of them (--doc-size: --doc-context, --doc-per-line)', () => {
    expect(nearMisses('--doc-size', filterFlags)).toEqual(['--doc-context', '--doc-per-line']);
    // A prefix of several, none matching by words: all of them.
    expect(nearMisses('--ou', ['--output', '--outline'])).toEqual([]);
    expect(nearMisses('--outp', ['--outputs', '--outpost'])).toEqual(['--outputs', '--outpost']);
    expect(nearMisses('--thresh', filterFlags)).toEqual(['--threshold']);
  });

  it('the flag the user meant before one a few edits away: its words, then the known flag it extends', () => {
    const withOnnx = [...filterFlags, '--model-dir', '--onnx-file'];
    // --model-dir is 3 edits from --model-file, --model 5: the words decide.
    expect(nearMisses('--model-file', withOnnx)).toEqual(['--model']);
    expect(nearMisses('--keep-share', filterFlags)).toEqual(['--keep']);
    expect(nearMisses('--doc-lines', filterFlags)).toEqual(['--doc-per-line']);
    expect(nearMisses('--output-format', filterFlags)).toEqual(['--out-format']);
    expect(nearMisses('--out', filterFlags)).toEqual(['--output']);
    expect(nearMisses('--text-field-name', filterFlags)).toEqual(['--text-field']);
    expect(nearMisses('--sample-general', ['--general', '--general-sample', '--task', '--seed'])).toEqual(['--general-sample']);
    expect(nearMisses('--onnx', withOnnx)).toEqual(['--onnx-file']);
  });

  it('nothing for a word far from every flag, or a first word too short to say anything', () => {
    expect(nearMisses('--zzzzzz', filterFlags)).toEqual([]);
    expect(nearMisses('--ab', filterFlags)).toEqual([]);
    // More than three that share it narrows nothing.
    expect(nearMisses('--doc-size', ['--doc-a', '--doc-b', '--doc-c', '--doc-d'])).toEqual([]);
  });
});
