import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { runCli, runMain, tempDir } from '../helpers/cli.js';

// --doc-context (src/segment/context.ts) on real text: the built-in corpus's bio, cs, wiki,
// speech and fiction documents, its PubMedQA task.
const tmp = tempDir('tadpole-doc-context-');
const f = (name: string) => join(tmp.dir, name);

beforeAll(async () => {
  writeFileSync(f('task.jsonl'), builtinTaskSentences(800).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
  writeFileSync(f('mix.jsonl'), builtinMix(40).map((d) => JSON.stringify(d)).join('\n') + '\n');
  const fit = await runCli(['fit', '--task', f('task.jsonl'), '--general', f('mix.jsonl'), '-o', f('model.json')]);
  expect(fit.code, fit.stderr).toBe(0);
});
afterAll(() => tmp.cleanup());

interface SegmentRecord {
  doc: number;
  sentences: number;
  score: number;
}

async function segments(extra: string[]): Promise<SegmentRecord[]> {
  const r = await runMain(['score', '-m', f('model.json'), '--segments', '--no-text', '--segment', '3', f('mix.jsonl'), '-q', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as SegmentRecord);
}

describe('--doc-context', () => {
  it("is on by default, and pulls every segment of a many-segment document toward the document's mean", async () => {
    const plain = await segments(['--doc-context', '0']);
    const dflt = await segments([]);
    const explicit = await segments(['--doc-context', '15']);
    expect(dflt).toEqual(explicit);
    expect(dflt.length).toBe(plain.length);
    // Per document: the spread of its segment scores shrinks.
    const spread = (recs: SegmentRecord[]) => {
      const byDoc = new Map<number, number[]>();
      for (const s of recs) byDoc.set(s.doc, [...(byDoc.get(s.doc) ?? []), s.score]);
      let total = 0;
      let docs = 0;
      for (const xs of byDoc.values()) {
        if (xs.length < 2) continue;
        total += Math.max(...xs) - Math.min(...xs);
        docs++;
      }
      return { total, docs };
    };
    const a = spread(plain);
    const b = spread(dflt);
    expect(a.docs).toBeGreaterThan(20);
    expect(b.docs).toBe(a.docs);
    expect(b.total).toBeLessThan(0.6 * a.total);
  });

  // Segments of 3, so that most documents hold several: with segments of 15 this mix's
  // documents are mostly one segment each, and the cut can come out the same both ways.
  it('filter output differs from the plain mean, and is byte-identical with 1 and 2 workers', async () => {
    const outs: Record<string, Buffer> = {};
    for (const k of ['0', '15']) {
      for (const w of ['1', '2']) {
        const r = await runMain(['filter', '-m', f('model.json'), f('mix.jsonl'), '--doc-context', k, '--segment', '3', '--workers', w, '--batch-sentences', '64', '-o', f(`out-${k}-${w}.jsonl`), '--stats', f(`stats-${k}-${w}.json`), '-q']);
        expect(r.code, r.stderr).toBe(0);
        // --stats says which K made the scores: a --threshold from it holds for that K only.
        expect((JSON.parse(readFileSync(f(`stats-${k}-${w}.json`), 'utf8')) as { docContext: number }).docContext).toBe(Number(k));
        outs[`${k}/${w}`] = readFileSync(f(`out-${k}-${w}.jsonl`));
      }
      expect(outs[`${k}/1`]!.length).toBeGreaterThan(1000);
      expect(outs[`${k}/2`]!.equals(outs[`${k}/1`]!), `--doc-context ${k}: 1 and 2 workers differ`).toBe(true);
    }
    expect(outs['15/1']!.equals(outs['0/1']!)).toBe(false);
  });

  it('refuses a negative K with the fix', async () => {
    const r = await runMain(['filter', '-m', f('model.json'), f('mix.jsonl'), '--doc-context', '-1', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--doc-context must be a number >= 0 \(0 turns it off\)/);
  });
});
