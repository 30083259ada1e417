import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPath } from '../../../src/core/shared.js';
import { createOnnxEmbedder } from '../../../src/embed/onnx/index.js';
import type { Embedder } from '../../../src/embed/embedder.js';

const standIn = sharedPath('models', 'all-MiniLM-L6-v2-ARCH-STANDIN-random-weights');
const tinyBert = sharedPath('models', 'tadpole-tiny-bert');

const sentences = [
  'The patient was treated with aspirin after the myocardial infarction.',
  'Shares in the company rose 5% on Friday.',
  '',
  'Short.',
  'A considerably longer sentence, with commas, clauses and a number of words that should produce many more word pieces than the others do.',
  'Émile naïvely ordered café crème.',
  'The match ended in a goalless draw.',
  'Quantum chromodynamics describes the strong interaction.',
];

function row(v: Float32Array, dims: number, i: number): Float32Array {
  return v.subarray(i * dims, (i + 1) * dims);
}
function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
}
function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

describe('onnx embedder, MiniLM architecture stand-in (random int8 weights)', () => {
  let e: Embedder;
  const logs: string[] = [];
  beforeAll(async () => {
    e = await createOnnxEmbedder({ modelDir: standIn, device: 'auto', batchSize: 4, threads: 2, log: (l) => logs.push(l) });
  });
  afterAll(async () => {
    await e.dispose();
  });

  it('reads 384 dims from the model and fingerprints the file', () => {
    expect(e.dims).toBe(384);
    expect(e.fingerprint).toEqual({
      kind: 'onnx',
      dims: 384,
      modelSha256: 'd61b9ffdfd1406de5248eef66de8bc7b6c6c868f3597e9ba7c9b014e1c4c354b',
      pooling: 'mean',
      maxTokens: 128,
      normalize: true,
      model: 'all-MiniLM-L6-v2-ARCH-STANDIN-random-weights',
    });
  });

  it('device auto falls back to CPU with exactly one log line saying why', () => {
    expect(logs.length).toBe(1);
    expect(logs[0]).toMatch(/CUDA unavailable, using CPU \(.+\)/);
  });

  it('returns unit vectors, one per sentence, finite, including the empty string', async () => {
    const v = await e.embed(sentences);
    expect(v.length).toBe(sentences.length * 384);
    for (let i = 0; i < sentences.length; i++) {
      const r = row(v, 384, i);
      expect(r.every(Number.isFinite)).toBe(true);
      expect(dot(r, r)).toBeCloseTo(1, 4);
    }
  });

  it('is deterministic across calls', async () => {
    const a = await e.embed(sentences);
    const b = await e.embed(sentences);
    expect(maxAbsDiff(a, b)).toBe(0);
  });

  it('keeps input order although batches are sorted by length', async () => {
    const v = await e.embed(sentences);
    const reversed = await e.embed([...sentences].reverse());
    // int8 dynamic quantisation scales activations per batch, so batch-mates shift values
    // slightly (about 1e-3, see the report); order must still map each row to its sentence.
    for (let i = 0; i < sentences.length; i++) {
      const a = row(v, 384, i);
      const b = row(reversed, 384, sentences.length - 1 - i);
      expect(dot(a, b)).toBeGreaterThan(0.999);
      for (let j = 0; j < sentences.length; j++) if (j !== sentences.length - 1 - i) expect(dot(a, b)).toBeGreaterThan(dot(a, row(reversed, 384, j)) - 1e-6);
    }
  });

  it('a very long sentence is truncated to maxTokens and still embeds', async () => {
    const long = 'lorem ipsum dolor sit amet '.repeat(2000);
    const v = await e.embed([long, long + ' different tail after the cut']);
    // Everything past token 128 is cut, so the two inputs embed the same.
    expect(maxAbsDiff(row(v, 384, 0), row(v, 384, 1))).toBeLessThan(1e-6);
  });

  it('an empty batch gives an empty result', async () => {
    expect((await e.embed([])).length).toBe(0);
  });
});

describe('onnx embedder, tadpole-tiny-bert (real fp32 weights)', () => {
  let e: Embedder;
  beforeAll(async () => {
    e = await createOnnxEmbedder({ modelDir: tinyBert, device: 'cpu', batchSize: 3, threads: 2, log: () => {} });
  });
  afterAll(async () => {
    await e.dispose();
  });

  it('an embedding does not depend on its batch-mates (tol 1e-4)', async () => {
    const together = await e.embed(sentences);
    for (let i = 0; i < sentences.length; i++) {
      const alone = await e.embed([sentences[i] as string]);
      expect(maxAbsDiff(row(together, e.dims, i), alone)).toBeLessThan(1e-4);
    }
    const shuffled = [sentences[4], sentences[1], sentences[6], sentences[0], sentences[2], sentences[7], sentences[5], sentences[3]] as string[];
    const other = await e.embed(shuffled);
    expect(maxAbsDiff(row(other, e.dims, 0), row(together, e.dims, 4))).toBeLessThan(1e-4);
  });

  it('the overlapped (GPU-style) batch loop gives the same vectors as the serial one', async () => {
    const o = await createOnnxEmbedder({ modelDir: tinyBert, device: 'cpu', batchSize: 3, overlap: true, log: () => {} });
    try {
      expect(maxAbsDiff(await o.embed(sentences), await e.embed(sentences))).toBe(0);
    } finally {
      await o.dispose();
    }
  });

  it('cls pooling differs from mean pooling and un-normalised vectors are not unit length', async () => {
    const cls = await createOnnxEmbedder({ modelDir: tinyBert, device: 'cpu', pooling: 'cls', normalize: false, log: () => {} });
    try {
      expect(cls.fingerprint.pooling).toBe('cls');
      expect(cls.fingerprint.normalize).toBe(false);
      const a = await cls.embed(sentences.slice(0, 2));
      const b = await e.embed(sentences.slice(0, 2));
      expect(maxAbsDiff(a, b)).toBeGreaterThan(1e-2);
      expect(Math.abs(dot(row(a, cls.dims, 0), row(a, cls.dims, 0)) - 1)).toBeGreaterThan(1e-3);
    } finally {
      await cls.dispose();
    }
  });

  it('related sentences are closer than unrelated ones (real weights)', async () => {
    const v = await e.embed([
      'The patient received chemotherapy for breast cancer.',
      'Tumour cells were treated with a cytotoxic drug in the clinical trial.',
      'The striker scored twice as United won the cup final.',
    ]);
    const d = e.dims;
    expect(dot(row(v, d, 0), row(v, d, 1))).toBeGreaterThan(dot(row(v, d, 0), row(v, d, 2)));
  });

  it('maxTokens changes the fingerprint and truncates', async () => {
    const short = await createOnnxEmbedder({ modelDir: tinyBert, device: 'cpu', maxTokens: 8, log: () => {} });
    try {
      expect(short.fingerprint.maxTokens).toBe(8);
      const v = await short.embed(['one two three four five six seven eight nine ten', 'one two three four five six other words here']);
      expect(maxAbsDiff(row(v, short.dims, 0), row(v, short.dims, 1))).toBeLessThan(1e-6);
    } finally {
      await short.dispose();
    }
  });
});

describe('onnx embedder errors', () => {
  it('no model given names what to do', async () => {
    const saved = process.env.TADPOLE_MODEL;
    delete process.env.TADPOLE_MODEL;
    try {
      await expect(createOnnxEmbedder({})).rejects.toMatchObject({ code: 'TADPOLE_EMBEDDER', message: expect.stringMatching(/--model-dir.*TADPOLE_MODEL.*model pull/s) });
    } finally {
      if (saved !== undefined) process.env.TADPOLE_MODEL = saved;
    }
  });

  it('TADPOLE_MODEL is used when no modelDir is given', async () => {
    const saved = process.env.TADPOLE_MODEL;
    process.env.TADPOLE_MODEL = tinyBert;
    try {
      const e = await createOnnxEmbedder({ device: 'cpu', log: () => {} });
      expect(e.fingerprint.model).toBe('tadpole-tiny-bert');
      await e.dispose();
    } finally {
      if (saved === undefined) delete process.env.TADPOLE_MODEL;
      else process.env.TADPOLE_MODEL = saved;
    }
  });

  it('a folder without an .onnx file says which files were expected', async () => {
    await expect(createOnnxEmbedder({ modelDir: sharedPath('models', 'all-MiniLM-L6-v2'), device: 'cpu' })).rejects.toThrow(/no ONNX model in .*onnx\/model\.onnx/);
  });

  it('--device cuda without the CUDA provider fails instead of falling back', async () => {
    await expect(createOnnxEmbedder({ modelDir: tinyBert, device: 'cuda:0', log: () => {} })).rejects.toMatchObject({ code: 'TADPOLE_EMBEDDER', message: expect.stringMatching(/cuda:0 failed/) });
  });

  it('an unknown device names the choices', async () => {
    await expect(createOnnxEmbedder({ modelDir: tinyBert, device: 'tpu' })).rejects.toThrow(/should be one of: auto, cpu, cuda, cuda:N/);
  });
});
