import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READER, readDocuments } from '../../src/io/documents.js';
import { resolveInputs } from '../../src/io/input-kind.js';
import { fingerprintInputs } from '../../src/passes/fingerprint.js';
import { nextBoundary, planShard } from '../../src/passes/plan.js';
import { tempDir } from '../run/helpers.js';

describe('shard plan', () => {
  it('nextBoundary: a line start for JSONL, the start of a blank line for paragraphs', () => {
    const d = tempDir();
    const f = join(d, 'p.txt');
    const text = 'aaa\nbbb\n\nccc\n \nddd\n';
    writeFileSync(f, text);
    expect(nextBoundary(f, 1, text.length, true)).toBe(4);
    expect(nextBoundary(f, 4, text.length, true)).toBe(4);
    expect(nextBoundary(f, 1, text.length, false)).toBe(8);
    expect(nextBoundary(f, 9, text.length, false)).toBe(13);
    expect(nextBoundary(f, 16, text.length, false)).toBe(text.length);
  });

  it('every document lands in exactly one of n shards, in order, for n = 1..7', async () => {
    const d = tempDir();
    const f = join(d, 'p.txt');
    const paras = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} line one.\nLine two of ${i}.`);
    writeFileSync(f, paras.join('\n\n') + '\n');
    const fps = fingerprintInputs([f]);
    for (let n = 1; n <= 7; n++) {
      const seen: string[] = [];
      for (let i = 0; i < n; i++) {
        const plan = planShard(resolveInputs([f], DEFAULT_READER.format), fps, DEFAULT_READER, i, n);
        for await (const b of readDocuments([f], DEFAULT_READER, { only: plan.only, ranges: plan.ranges })) seen.push(...b.map((x) => x.text));
      }
      expect(seen).toEqual(paras);
    }
  });
});
