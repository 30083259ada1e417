import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpillWriter } from '../../src/cut/spill.js';
import { DocIndexWriter } from '../../src/passes/doc-index.js';
import { KeptTriage } from '../../src/passes/kept-triage.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-triage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Documents as pass 1 recorded them: [input, byteStart, byteEnd, segment scores]. */
type Scored = [number, number, number, number[]];

function triageOver(docs: Scored[], cut: { threshold: number; tieId: number }): KeptTriage {
  const index = new DocIndexWriter(join(dir, 'i'));
  const spill = new SpillWriter(join(dir, 's'));
  for (const [input, byteStart, byteEnd, scores] of docs) {
    index.write(scores.length, 10, { input, byteStart, byteEnd }, []);
    for (const s of scores) spill.write(s, 1, 10);
  }
  index.close();
  spill.close();
  return new KeptTriage(join(dir, 'i'), join(dir, 's'), cut);
}

describe('pass 2 triage by the doc index', () => {
  it('decodes documents with a kept segment, skims the rest, drops lines pass 1 skipped, steps over documents it is not asked about', () => {
    // Input 0 is read without triage (Parquet): its documents are never asked about.
    const t = triageOver(
      [
        [0, 0, 1, [0.1]],
        [0, 1, 2, [0.9]],
        [1, 0, 50, [0.9, 0.8]],
        [1, 80, 120, [0.9, 0.2]],
        [1, 120, 130, []],
        [2, 0, 40, [0.5]],
      ],
      { threshold: 0.5, tieId: 6 },
    );
    expect(t.triage(1, 0, 50)).toBe('skim');
    expect(t.triage(1, 51, 79)).toBe('drop'); // a bad JSON line between two documents
    expect(t.triage(1, 80, 120)).toBe('decode');
    expect(t.triage(1, 120, 130)).toBe('skim'); // a document with no sentences
    // Segment id 6 is the tie at the threshold and within tieId: kept.
    expect(t.triage(2, 0, 40)).toBe('decode');
    expect(t.triage(2, 41, 60)).toBe('drop');
    t.close();
  });

  it('a document whose byte length changed is decoded, so the caller can report it', () => {
    const t = triageOver([[0, 0, 50, [0.9]]], { threshold: 0.5, tieId: 0 });
    expect(t.triage(0, 0, 51)).toBe('decode');
    t.close();
  });

  it('the tie rule is the cut\'s: a segment at the threshold past tieId is not kept', () => {
    const t = triageOver([[0, 0, 5, [0.5]], [0, 6, 9, [0.5]]], { threshold: 0.5, tieId: 0 });
    expect(t.triage(0, 0, 5)).toBe('decode');
    expect(t.triage(0, 6, 9)).toBe('skim');
    t.close();
  });
});
