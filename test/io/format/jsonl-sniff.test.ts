import { describe, expect, it } from 'vitest';
import { looksLikeJsonl, peekChunks } from '../../../src/io/format/jsonl-sniff.js';

describe('looksLikeJsonl: { then " starts a JSONL record of objects, and almost no prose', () => {
  it.each([
    ['{"text": "a"}\n', true],
    ['\uFEFF{"text": "a"}\n', true],
    ['\n\n  { "id": 1, "text": "a"}\n', true],
    ['{"te', true], // a prefix is enough: every reader of the same bytes decides the same
    ['{a} is a set.\n', false],
    ['{\n  "config": true\n}', false], // pretty-printed JSON: not one record per line
    ['The {"quoted"} braces are mid-sentence.', false],
    ['[{"text": "a"}]', false],
    ['', false],
  ])('%j -> %s', (text, want) => {
    expect(looksLikeJsonl(Buffer.from(text))).toBe(want);
  });
});

describe('peekChunks', () => {
  async function* gen(parts: string[]): AsyncGenerator<Buffer> {
    for (const p of parts) yield Buffer.from(p);
  }
  async function all(chunks: AsyncIterable<Buffer>): Promise<string> {
    const out: Buffer[] = [];
    for await (const c of chunks) out.push(c);
    return Buffer.concat(out).toString();
  }

  it('gives the head and every byte again, from chunks of any size', async () => {
    const parts = ['{', '"te', 'xt": "a"}\n', 'x'.repeat(5000), 'tail'];
    const { head, chunks } = await peekChunks(gen(parts));
    expect(head.toString().startsWith('{"text"')).toBe(true);
    expect(head.length).toBe(4096);
    expect(await all(chunks)).toBe(parts.join(''));
  });

  it('a short stream: the head is all of it, and nothing is read twice', async () => {
    const { head, chunks } = await peekChunks(gen(['ab', 'c']));
    expect(head.toString()).toBe('abc');
    expect(await all(chunks)).toBe('abc');
  });
});
