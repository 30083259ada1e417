import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READER, readDocuments, readKinds, type Doc } from '../../src/io/documents.js';
import { resolveInput, resolveInputs, type InputKind } from '../../src/io/input-kind.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-kind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const records = '{"text": "One. Two."}\n{"text": "Three."}\n';

describe('resolveInput: an input\'s kind, decided once', () => {
  it('a plain JSONL file: seekable, its size, JSONL by name', () => {
    const f = join(dir, 'a.jsonl');
    writeFileSync(f, records);
    expect(resolveInput(f, 'auto')).toMatchObject({ input: f, bytes: 'text', format: 'jsonl', sniffedJsonl: false, formatFromStream: false, seekable: true, size: records.length });
  });
  it('JSONL under a name that says nothing: JSONL by its first bytes; --format text keeps it text', () => {
    const f = join(dir, 'b.txt');
    writeFileSync(f, records);
    expect(resolveInput(f, 'auto')).toMatchObject({ format: 'jsonl', sniffedJsonl: true, seekable: true });
    expect(resolveInput(f, 'text')).toMatchObject({ format: 'text', sniffedJsonl: false });
  });
  it('gzip under any name: not seekable, its format judged on the decoded stream when the name says nothing', () => {
    const f = join(dir, 'c.txt');
    writeFileSync(f, gzipSync(records));
    expect(resolveInput(f, 'auto')).toMatchObject({ bytes: 'gzip', format: 'text', formatFromStream: true, seekable: false });
    const named = join(dir, 'c.jsonl.gz');
    writeFileSync(named, gzipSync(records));
    expect(resolveInput(named, 'auto')).toMatchObject({ bytes: 'gzip', format: 'jsonl', formatFromStream: false, seekable: false });
  });
  it('stdin: nothing read now (the reader judges it as it streams); a missing file is refused here, before any thread or byte of work', () => {
    expect(resolveInput('-', 'auto')).toMatchObject({ bytes: 'text', formatFromStream: true, seekable: false, size: -1 });
    expect(() => resolveInput(join(dir, 'missing.txt'), 'auto')).toThrow(/missing\.txt: cannot read input \(ENOENT\)/);
  });
  it('a record resolved under another --format is resolved again; under the same one it is used as it is', () => {
    const f = join(dir, 'd.txt');
    writeFileSync(f, records);
    const k = resolveInput(f, 'auto');
    expect(resolveInputs([k], 'auto')[0]).toBe(k);
    expect(resolveInputs([k], 'text')[0]!.format).toBe('text');
  });
  it('the reader gives the same documents from paths and from their kinds', async () => {
    const files = ['e.jsonl', 'e.txt', 'e.txt.gz'].map((n) => join(dir, n));
    writeFileSync(files[0]!, records);
    writeFileSync(files[1]!, records);
    writeFileSync(files[2]!, gzipSync(records));
    const read = async (batches: AsyncIterable<Doc[]>) => {
      const out: Doc[] = [];
      for await (const b of batches) out.push(...b);
      return out.map((d) => [d.input, d.text, d.byteStart]);
    };
    const byPath = await read(readDocuments(files, DEFAULT_READER));
    expect(byPath).toHaveLength(6);
    const kinds: InputKind[] = resolveInputs(files, 'auto');
    expect(await read(readKinds(kinds, DEFAULT_READER))).toEqual(byPath);
  });
});
