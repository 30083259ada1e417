import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER } from '../../src/io/documents.js';
import { splitDocuments } from '../../src/io/split-documents.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('splitDocuments (tadpole split)', () => {
  it('writes JSONL input as {doc, i, text} records, plain text as a sentence a line with its inner line breaks as spaces', async () => {
    const jsonl = join(tmp.dir, 'docs.jsonl');
    writeFileSync(jsonl, JSON.stringify({ text: 'The cell divides. Then it rests.' }) + '\n' + JSON.stringify({ text: 'One more.' }) + '\n');
    const out = join(tmp.dir, 'out.jsonl');
    const r = await splitDocuments({ inputs: [jsonl], reader: DEFAULT_READER, output: out, stdout: new PassThrough() });
    expect(r.closedEarly).toBe(false);
    expect(readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { doc: 0, i: 0, text: 'The cell divides.' },
      { doc: 0, i: 1, text: 'Then it rests.' },
      { doc: 1, i: 0, text: 'One more.' },
    ]);

    const text = join(tmp.dir, 'prose.txt');
    writeFileSync(text, 'A sentence that is\nhard-wrapped here. A second one.\n');
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    await splitDocuments({ inputs: [text], reader: DEFAULT_READER, stdout });
    expect(Buffer.concat(chunks).toString('utf8')).toBe('A sentence that is hard-wrapped here.\nA second one.\n');
  });

  it('returns what the reader skipped, as --stats counts it', async () => {
    const jsonl = join(tmp.dir, 'bad.jsonl');
    writeFileSync(jsonl, JSON.stringify({ text: 'Kept here.' }) + '\nnot json\n' + JSON.stringify({ body: 'no text field' }) + '\n');
    const r = await splitDocuments({ inputs: [jsonl], reader: DEFAULT_READER, outFormat: 'lines', output: join(tmp.dir, 'bad.txt'), stdout: new PassThrough() });
    expect(readFileSync(join(tmp.dir, 'bad.txt'), 'utf8')).toBe('Kept here.\n');
    expect(Object.values(r.reader).reduce((a, b) => a + b, 0)).toBeGreaterThan(1);
  });
});
