import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedPath } from '../../../src/core/shared.js';
import { loadTokenizer, tokenizerFromJson, tokenizerFromVocab } from '../../../src/embed/onnx/tokenizer.js';
// @ts-expect-error plain ESM helper shared with the fixture generator
import { referenceSentences } from './fixtures/reference-sentences.mjs';

const miniLm = sharedPath('models', 'all-MiniLM-L6-v2');

interface Reference {
  tokenizerJsonSha256: string;
  sentences: number;
  tokens: number;
  chunk: number;
  sha256: string;
  chunks: string[];
}
const reference = JSON.parse(readFileSync(new URL('./fixtures/tokenizer-reference.json', import.meta.url), 'utf8')) as Reference;

describe('WordPiece tokenizer', () => {
  const tok = loadTokenizer(miniLm);

  it('gives the same ids as Hugging Face tokenizers (Rust) on >= 10,000 real corpus sentences', async () => {
    const tokJson = readFileSync(join(miniLm, 'tokenizer.json'));
    expect(createHash('sha256').update(tokJson).digest('hex')).toBe(reference.tokenizerJsonSha256);
    const sentences = (await referenceSentences(sharedPath('corpora'))) as string[];
    expect(sentences.length).toBe(reference.sentences);
    expect(sentences.length).toBeGreaterThanOrEqual(10_000);
    const all = createHash('sha256');
    const badChunks: string[] = [];
    let tokens = 0;
    for (let c = 0; c * reference.chunk < sentences.length; c++) {
      const h = createHash('sha256');
      for (const s of sentences.slice(c * reference.chunk, (c + 1) * reference.chunk)) {
        const ids = tok.encode(s);
        tokens += ids.length;
        const line = Array.from(ids).join(',') + '\n';
        h.update(line);
        all.update(line);
      }
      if (h.digest('hex').slice(0, 16) !== reference.chunks[c]) badChunks.push(`sentences ${c * reference.chunk}..${(c + 1) * reference.chunk - 1}`);
    }
    expect(badChunks).toEqual([]);
    expect(tokens).toBe(reference.tokens);
    expect(all.digest('hex')).toBe(reference.sha256);
  });

  it('lowercases, strips accents and adds [CLS]/[SEP]', () => {
    const ids = Array.from(tok.encode('Héllo, WÖRLD!'));
    expect(ids).toEqual([101, 7592, 1010, 2088, 999, 102]);
  });

  it('empty string is just [CLS] [SEP]', () => {
    expect(Array.from(tok.encode(''))).toEqual([101, 102]);
    expect(Array.from(tok.encode(' \t\n'))).toEqual([101, 102]);
  });

  it('truncates to maxTokens including [CLS] and [SEP]', () => {
    const long = 'word '.repeat(1000);
    const ids = tok.encode(long, 16);
    expect(ids.length).toBe(16);
    expect(ids[0]).toBe(101);
    expect(ids[15]).toBe(102);
    expect(tok.encode('a b', 16).length).toBe(4);
  });

  it('a word over 100 characters becomes one [UNK]', () => {
    expect(Array.from(tok.encode('x'.repeat(101)))).toEqual([101, 100, 102]);
    expect(tok.encode('x'.repeat(100)).length).toBeGreaterThan(3);
  });

  it('special tokens written in the text map to their ids', () => {
    expect(Array.from(tok.encode('a [MASK] b'))).toEqual([101, 1037, 103, 1038, 102]);
  });

  it('vocab.txt + tokenizer_config.json gives the same ids as tokenizer.json', () => {
    const fromVocab = tokenizerFromVocab(readFileSync(join(miniLm, 'vocab.txt'), 'utf8'), JSON.parse(readFileSync(join(miniLm, 'tokenizer_config.json'), 'utf8')));
    for (const s of ['Héllo, WÖRLD!', 'The £600m deal — “quoted”.', '你好 [SEP] x', 'supercalifragilistic']) {
      expect(Array.from(fromVocab.encode(s))).toEqual(Array.from(tok.encode(s)));
    }
  });

  it('rejects a non-WordPiece tokenizer.json with a clear error', () => {
    expect(() => tokenizerFromJson({ model: { type: 'BPE' } })).toThrow(/only BERT WordPiece/);
  });

  it('a cased vocabulary keeps case and accents', () => {
    const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'Hé', 'hé', 'He', '##llo'].join('\n');
    const cased = tokenizerFromVocab(vocab, { do_lower_case: false });
    expect(Array.from(cased.encode('Hé'))).toEqual([2, 5, 3]);
    const uncased = tokenizerFromVocab(vocab, { do_lower_case: true });
    expect(Array.from(uncased.encode('Hello'))).toEqual([2, 1, 3]); // "he"+"##llo": "he" is not in this vocab
  });
});
