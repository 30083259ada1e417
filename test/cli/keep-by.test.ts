import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, type CommandSpec } from '../../src/cli/args.js';
import { keepByFlag, keepByFrom, parseKeep } from '../../src/cli/keep-by.js';
import type { TadpoleError } from '../../src/core/errors.js';
import { testDir } from '../helpers/temp.js';

const spec: CommandSpec = { name: 'filter', summary: '', usage: '', flags: [keepByFlag, { name: 'run-dir', type: 'string', help: '' }] };
const dir = testDir('tadpole-keep-by-');

describe('--keep-by', () => {
  it('is bytes unless named; the help says so', () => {
    expect(keepByFrom(parseArgs(spec, []))).toBe('bytes');
    expect(keepByFrom(parseArgs(spec, ['--keep-by', 'sentences']))).toBe('sentences');
    expect(keepByFrom(parseArgs(spec, ['--keep-by=bytes']))).toBe('bytes');
    expect(keepByFlag.default).toBe('bytes');
  });
  it('a folder that holds no run yet gives the default; a unit named wins over the folder', () => {
    expect(keepByFrom(parseArgs(spec, ['--run-dir', dir]), dir)).toBe('bytes');
    expect(keepByFrom(parseArgs(spec, ['--keep-by', 'sentences']), join(dir, 'none'))).toBe('sentences');
  });
  it('a command line parsed elsewhere (no record of what it named) counts a unit it holds as named', () => {
    expect(keepByFrom({ flags: { keepBy: 'sentences' }, positionals: [] }, dir)).toBe('sentences');
    expect(keepByFrom({ flags: {}, positionals: [] })).toBe('bytes');
  });
});

describe('parseKeep: --keep as a share, a size or a count', () => {
  it('reads shares, sizes (KB = 1000, KiB = 1024) and counts (K M B T) in whole units', () => {
    expect(parseKeep('0.2', 'bytes')).toBe(0.2);
    expect(parseKeep('1', 'bytes')).toBe(1);
    expect(parseKeep('5GB', 'bytes')).toBe(5e9);
    expect(parseKeep('500MB', 'bytes')).toBe(5e8);
    expect(parseKeep('2.5GiB', 'bytes')).toBe(2.5 * 2 ** 30);
    expect(parseKeep('1.5KB', 'bytes')).toBe(1500);
    expect(parseKeep('5mb', 'bytes')).toBe(5e6);
    expect(parseKeep('2e9', 'tokens')).toBe(2e9);
    expect(parseKeep('2B', 'tokens')).toBe(2e9);
    expect(parseKeep('1.5M', 'sentences')).toBe(1.5e6);
  });

  it.each([
    ['5XB', 'bytes', /unknown unit "XB"/],
    ['-1MB', 'bytes', /must be between 0 and 1/],
    ['20', 'bytes', /a size with its unit/],
    ['2B', 'bytes', /B is billions/],
    ['5MB', 'tokens', /a size in bytes keeps text by its bytes/],
    ['2.5', 'tokens', /a whole count from 2/],
    ['abc', 'bytes', /must be between 0 and 1/],
  ])('%s by %s: a usage error', (text, unit, message) => {
    const err = (() => {
      try {
        parseKeep(text, unit as 'bytes' | 'tokens');
      } catch (e) {
        return e as TadpoleError;
      }
      return undefined;
    })();
    expect(err?.exitCode).toBe(2);
    expect(err?.message).toMatch(message);
  });
});
