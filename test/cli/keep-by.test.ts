import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, type CommandSpec } from '../../src/cli/args.js';
import { keepByFlag, keepByFrom } from '../../src/cli/keep-by.js';
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
