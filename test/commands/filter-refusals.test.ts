import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TadpoleError } from '../../src/core/errors.js';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { Sink } from '../../src/io/sink.js';
import type { ModelFile } from '../../src/model/file.js';
import { runFilter } from '../../src/commands/filter.js';
import { testDir } from '../helpers/temp.js';

describe('runFilter refusing its options', () => {
  it.each([
    [{ keep: 1.5 }, /--keep must be between 0 and 1/],
    [{ segment: 0 }, /--segment must be a positive integer/],
    [{ docContext: -1 }, /--doc-context must be a number >= 0/],
  ])('%o: a usage error, and the sink\'s temp file is removed', async (bad, message) => {
    const dir = testDir();
    const input = join(dir, 'in.txt');
    writeFileSync(input, 'One sentence here. Another one there.\n');
    const sink = Sink.toFile(join(dir, 'kept.txt'));
    // The options are refused before the model is looked at: any model will do.
    const err = await runFilter({ inputs: [input], reader: DEFAULT_READER, model: {} as ModelFile, keep: 0.2, segment: 15, keepBy: 'sentences', sink, ...bad }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(message);
    await new Promise((resolve) => setTimeout(resolve, 100)); // a temp file left open would be on disk by now
    expect(readdirSync(dir)).toEqual(['in.txt']);
  });
});
