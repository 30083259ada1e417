import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readSourceDocs } from '../../src/eval/sources.js';
import type { FileSetSpec } from '../../src/eval/spec.js';
import { testDir } from '../helpers/temp.js';

const dir = testDir('tadpole-sources-');
let k = 0;
function file(content: string, gz = true): string {
  const f = join(dir, `f${k++}${gz ? '.gz' : ''}`);
  writeFileSync(f, gz ? gzipSync(Buffer.from(content)) : content);
  return f;
}
async function docs(fs: FileSetSpec): Promise<string[]> {
  const out: string[] = [];
  for await (const d of readSourceDocs(fs)) out.push(d);
  return out;
}
const jl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('source adapters', () => {
  it('jsonl-text reads the named field and drops empty documents', async () => {
    const f = file(jl({ body: 'First doc.' }, { body: '   ' }, { other: 1 }, { body: 'Second.' }));
    expect(await docs({ files: [f], format: 'jsonl-text', field: 'body' })).toEqual(['First doc.', 'Second.']);
  });
  it('jsonl-sentences joins a sentence array with a space by default, newline on request', async () => {
    const f = file(jl({ source: ['One.', 'Two.'] }));
    expect(await docs({ files: [f], format: 'jsonl-sentences', field: 'source' })).toEqual(['One. Two.']);
    expect(await docs({ files: [f], format: 'jsonl-sentences', field: 'source', join: 'newline' })).toEqual(['One.\nTwo.']);
  });
  it('scisummnet takes the abstract, plus section sentences for parts=full', async () => {
    const f = file(jl({ abstract: ['Abs.'], sections: [{ title: 'Intro', sentences: ['S1.', 'S2.'] }] }));
    expect(await docs({ files: [f], format: 'scisummnet', parts: 'abstract' })).toEqual(['Abs.']);
    expect(await docs({ files: [f], format: 'scisummnet' })).toEqual(['Abs. S1. S2.']);
  });
  it('pubmedqa joins CONTEXTS and LONG_ANSWER per PMID', async () => {
    const f = file(JSON.stringify({ '1': { QUESTION: 'q?', CONTEXTS: ['C1.', 'C2.'], LONG_ANSWER: 'L.' }, '2': { CONTEXTS: ['D.'] } }, null, 2));
    expect(await docs({ files: [f], format: 'pubmedqa' })).toEqual(['C1. C2. L.', 'D.']);
  });
  it('pubmedqa with a field takes that one string per PMID and skips records without it', async () => {
    const f = file(JSON.stringify({ '1': { QUESTION: 'Is q?', CONTEXTS: ['C1.'] }, '2': { CONTEXTS: ['D.'] }, '3': { QUESTION: 'Does r?' } }));
    expect(await docs({ files: [f], format: 'pubmedqa', field: 'QUESTION' })).toEqual(['Is q?', 'Does r?']);
  });
  it('lines with blank-line documents groups paragraphs', async () => {
    const f = file('Head one\nBody one.\n\n\nHead two\nBody two.\n');
    expect(await docs({ files: [f], format: 'lines', docs: 'blank-line' })).toEqual(['Head one\nBody one.', 'Head two\nBody two.']);
  });
  it('lines strips a trailing label after the last separator (PhraseBank "text@label")', async () => {
    const f = file('Sales rose @ 5% .@positive\n');
    expect(await docs({ files: [f], format: 'lines', stripAfterLast: '@' })).toEqual(['Sales rose @ 5% .']);
  });
  it('csv joins the chosen columns by header name', async () => {
    const f = file('author,summary,extra\nA,"Shares rose, a lot.",x\nB,"Two\nlines.",y\n');
    expect(await docs({ files: [f], format: 'csv', columns: ['summary'] })).toEqual(['Shares rose, a lot.', 'Two\nlines.']);
  });
  it('csv names the missing column and the ones that exist', async () => {
    const f = file('a,b\n1,2\n');
    await expect(docs({ files: [f], format: 'csv', columns: ['text'] })).rejects.toThrow(/no column "text" \(columns: a, b\)/);
  });
  it('wikitext splits articles at top-level headings and unwraps sub-headings', async () => {
    const f = file(' \n = Lobster = \n \n Lobsters are big . \n \n = = Description = = \n \n They have claws . \n = Crab = \n Crabs walk sideways . \n');
    expect(await docs({ files: [f], format: 'wikitext', normalize: ['detokenize'] })).toEqual([
      'Lobster\nLobsters are big.\nDescription\nThey have claws.',
      'Crab\nCrabs walk sideways.',
    ]);
  });
  it('dedupe drops repeated documents after normalisation (ChemProt repeats a sentence per entity pair)', async () => {
    const f = file(jl({ text: 'A << x >> binds [[ y ]].' }, { text: 'A [[ x ]] binds << y >>.' }, { text: 'Other.' }));
    expect(await docs({ files: [f], format: 'jsonl-text', normalize: ['strip-markers'], dedupe: true })).toEqual(['A x binds y.', 'Other.']);
  });
  it('a bad JSON line is an input error naming file and line', async () => {
    const f = file('{"text":"ok"}\n{broken\n');
    await expect(docs({ files: [f], format: 'jsonl-text' })).rejects.toMatchObject({ code: 'TADPOLE_INPUT', line: 2 });
  });
});
