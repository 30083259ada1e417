import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPath } from '../../../src/core/shared.js';
import { createOnnxEmbedder, type OnnxEmbedderHandle } from '../../../src/embed/onnx/index.js';
import { EmbedHelpers, TOKENIZE_CHUNK } from '../../../src/embed/onnx/helpers.js';
import { l2NormalizeRows, poolTokens } from '../../../src/embed/onnx/pooling.js';
import { halfToFloat } from '../../../src/embed/onnx/runtime.js';
import { loadTokenizer } from '../../../src/embed/onnx/tokenizer.js';

const tinyBert = sharedPath('models', 'tadpole-tiny-bert');

/** Real sentences of varied length (news-bbc), with the awkward cases the tokenizer handles. */
async function corpusSentences(n: number): Promise<string[]> {
  const rl = createInterface({ input: createReadStream(sharedPath('corpora', 'news-bbc', 'docs.jsonl.gz')).pipe(createGunzip()) });
  const out = ['', 'Émile naïvely ordered café crème.', '[CLS] a special token in the text [SEP]', 'x'.repeat(300)];
  for await (const line of rl) {
    for (const para of (JSON.parse(line) as { text: string }).text.split('\n')) {
      for (const s of para.split(/(?<=[.!?])\s+/)) if (s.trim().length > 0) out.push(s.trim());
    }
    if (out.length >= n) break;
  }
  rl.close();
  return out.slice(0, n);
}

describe('onnx embedder with helper threads (tokenize and pool off the main thread)', () => {
  let sentences: string[];
  let plain: OnnxEmbedderHandle;
  let helped: OnnxEmbedderHandle;
  beforeAll(async () => {
    sentences = await corpusSentences(1300);
    // Several tokenize chunks and many batches; the sentences stay in their corpus order (unsorted).
    expect(sentences.length).toBeGreaterThan(2 * TOKENIZE_CHUNK);
    plain = await createOnnxEmbedder({ modelDir: tinyBert, device: 'cpu', batchSize: 48, threads: 1, log: () => {} });
    helped = await createOnnxEmbedder({ modelDir: tinyBert, device: 'cpu', batchSize: 48, threads: 1, helperThreads: 2, log: () => {} });
  });
  afterAll(async () => {
    await plain?.dispose();
    await helped?.dispose();
  });

  it('gives bit-identical vectors in the same order as the main-thread path', async () => {
    const a = await plain.embed(sentences);
    const b = await helped.embed(sentences);
    expect(b.length).toBe(sentences.length * plain.dims);
    expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
  });

  it('serves concurrent calls (the pipeline keeps one batch in flight ahead), each with its own vectors', async () => {
    const first = sentences.slice(0, 700);
    const second = sentences.slice(700).reverse();
    const [x, y] = await Promise.all([helped.embed(first), helped.embed(second)]);
    expect(Buffer.from(x.buffer).equals(Buffer.from((await plain.embed(first)).buffer))).toBe(true);
    expect(Buffer.from(y.buffer).equals(Buffer.from((await plain.embed(second)).buffer))).toBe(true);
  });

  it('matches with cls pooling and no normalisation too', async () => {
    const opts = { modelDir: tinyBert, device: 'cpu', batchSize: 32, pooling: 'cls', normalize: false, log: () => {} } as const;
    const p = await createOnnxEmbedder(opts);
    const h = await createOnnxEmbedder({ ...opts, helperThreads: 3 });
    try {
      const part = sentences.slice(0, 300);
      expect(Buffer.from((await h.embed(part)).buffer).equals(Buffer.from((await p.embed(part)).buffer))).toBe(true);
    } finally {
      await p.dispose();
      await h.dispose();
    }
  });

  it('refuses a negative helper count', async () => {
    await expect(createOnnxEmbedder({ modelDir: tinyBert, device: 'cpu', helperThreads: -1, log: () => {} })).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
  });
});

describe('EmbedHelpers', () => {
  it('tokenizes chunks in parallel into the ids of the main-thread tokenizer, in order', async () => {
    const tok = loadTokenizer(tinyBert);
    const sentences = await corpusSentences(TOKENIZE_CHUNK * 2 + 17);
    const helpers = new EmbedHelpers(3, { modelDir: tinyBert, maxTokens: 16, dims: 128, pooling: 'mean', normalize: true });
    try {
      const ids = await helpers.tokenize(sentences);
      expect(ids.length).toBe(sentences.length);
      for (let i = 0; i < sentences.length; i++) expect([...(ids[i] as Int32Array)]).toEqual([...tok.encode(sentences[i] as string, 16)]);
    } finally {
      await helpers.dispose();
    }
  });

  it('turns a helper that cannot start into an embedder error, not a hang', async () => {
    const helpers = new EmbedHelpers(1, { modelDir: '/nonexistent-model-dir', maxTokens: 16, dims: 128, pooling: 'mean', normalize: true });
    try {
      await expect(helpers.tokenize(['hello'])).rejects.toMatchObject({ code: 'TADPOLE_EMBEDDER' });
    } finally {
      await helpers.dispose();
    }
  });
});

describe('EmbedHelpers pooling', () => {
  it('pools fp16 outputs (half bits) to the vectors the main thread gets from the decoded floats', async () => {
    const dims = 8;
    const seq = 5;
    const lengths = Int32Array.from([5, 2, 3]);
    const half = new Uint16Array(lengths.length * seq * dims);
    // Varied normal halves of both signs (exponent 13..17, so values about 0.25..4).
    for (let i = 0; i < half.length; i++) half[i] = ((i % 2) << 15) | ((13 + (i % 5)) << 10) | ((i * 97) % 1024);
    const rows = Int32Array.from([0, 1, 2]);
    const want = new Float32Array(lengths.length * dims);
    poolTokens(halfToFloat(half), seq, dims, lengths, rows, 'mean', want);
    l2NormalizeRows(want, dims, rows);
    const helpers = new EmbedHelpers(1, { modelDir: tinyBert, maxTokens: 16, dims, pooling: 'mean', normalize: true });
    try {
      const got = await helpers.pool(half.slice(), seq, lengths);
      expect([...got]).toEqual([...want]);
    } finally {
      await helpers.dispose();
    }
  });
});
