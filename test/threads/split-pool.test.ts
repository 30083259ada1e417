import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleSentences } from '../../src/io/sample.js';
import { readSentences } from '../../src/io/sentences.js';
import { parallelSplitter } from '../../src/threads/split-pool.js';
import { builtinMix } from '../helpers/builtin.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-split-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const reader = { format: 'jsonl' as const, textField: 'text', docPerLine: false, strict: false };

describe('parallelSplitter: the reservoir pass split on other threads', () => {
  it('one thread needs no pool', () => {
    expect(parallelSplitter(1)).toBeUndefined();
  });

  it('a gzip sample split on 3 threads is the in-thread sample, sentence for sentence', async () => {
    const path = join(dir, 'mix.jsonl.gz');
    writeFileSync(path, gzipSync(builtinMix(40).map((d) => JSON.stringify(d)).join('\n') + '\n'));
    const here = await sampleSentences([path], reader, { size: 500, seed: 3 });
    const splitter = parallelSplitter(3)!;
    try {
      const there = await sampleSentences([path], reader, { size: 500, seed: 3, split: splitter.split });
      expect(here.sampler).toBe('reservoir');
      expect(here.sentences.length).toBe(500);
      expect(there.sentences).toEqual(here.sentences);
      expect(there.fingerprint).toBe(here.fingerprint);
      // Every sentence, not only a sample: the same list in the same order.
      const all = await readSentences([path], reader, {}, splitter.split);
      expect(all).toEqual(await readSentences([path], reader));
      expect(all.length).toBeGreaterThan(1000);
    } finally {
      await splitter.dispose();
    }
  });
});
