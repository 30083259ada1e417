// ONNX embedder throughput on CPU with the MiniLM architecture stand-in (random int8 weights).
// Build first: npx tsc -p tsconfig.json.  Run: node scripts/bench/embed.js [--sentences N] [--sweep]
// Prints:
//   embed.raw_session_sent_per_s   the embedder's ONNX session alone on pre-tokenized, pre-sorted, pre-packed batches
//   embed.full_sent_per_s          createOnnxEmbedder().embed() on the same raw text (tokenize, bucket, run, pool)
//   embed.full_over_raw            target >= 0.9
//   embed.unsorted_b128_sent_per_s / embed.bucketed_b128_sent_per_s / embed.bucketed_over_unsorted
//   embed.tokenize_sent_per_s      the tokenizer alone (one JS thread)
// Each figure is the best of --repeat runs (default 3), interleaved, after a warm-up.
import { sharedPath } from '../../dist/core/shared.js';
import { bbcSentences } from './bbc-sentences.js';
import { createOnnxEmbedder, packBatch, planBatches } from '../../dist/embed/onnx/index.js';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const N = opt('sentences', 384);
const REPEAT = opt('repeat', 3);
const THREADS = opt('threads', 2);
const BATCH = opt('batch', 64);
const modelDir = sharedPath('models', 'all-MiniLM-L6-v2-ARCH-STANDIN-random-weights');

const sentences = await bbcSentences(N);
const log = () => {};
const embedder = await createOnnxEmbedder({ modelDir, device: 'cpu', threads: THREADS, batchSize: BATCH, log });
const tokens = sentences.map((s) => embedder.tokenize(s));
const lengths = Int32Array.from(tokens, (t) => t.length);
const meanLen = lengths.reduce((a, b) => a + b, 0) / lengths.length;
const pack = (size, budget, sort) => planBatches(lengths, size, budget, sort).map((p) => packBatch(p, tokens, 0));

async function runRaw(batches) {
  let rows = 0;
  for (const b of batches) {
    const r = await embedder.runPacked(b);
    rows += r.dims[0];
  }
  return rows;
}

async function rate(fn) {
  const t0 = performance.now();
  const n = await fn();
  return n / ((performance.now() - t0) / 1000);
}

// Check before timing: shapes, finiteness, unit norm, and that raw batches cover every sentence.
const sortedBatches = pack(BATCH, BATCH * 128, true);
if ((await runRaw(sortedBatches)) !== sentences.length) throw new Error('raw batches do not cover the input');
const check = await embedder.embed(sentences);
if (check.length !== sentences.length * embedder.dims) throw new Error('wrong embedding shape');
for (let i = 0; i < sentences.length; i++) {
  let s = 0;
  for (let k = 0; k < embedder.dims; k++) s += check[i * embedder.dims + k] ** 2;
  if (!(Math.abs(s - 1) < 1e-3)) throw new Error(`row ${i} is not unit length (${s})`);
}

const best = { raw: 0, full: 0, unsorted: 0, bucketed: 0, tok: 0 };
const unsorted128 = pack(128, Infinity, false);
const bucketed128 = pack(128, Infinity, true);
for (let r = 0; r < REPEAT; r++) {
  best.raw = Math.max(best.raw, await rate(() => runRaw(sortedBatches)));
  best.full = Math.max(best.full, await rate(async () => (await embedder.embed(sentences)).length / embedder.dims));
  best.unsorted = Math.max(best.unsorted, await rate(() => runRaw(unsorted128)));
  best.bucketed = Math.max(best.bucketed, await rate(() => runRaw(bucketed128)));
  best.tok = Math.max(
    best.tok,
    await rate(() => {
      for (let k = 0; k < 20; k++) for (const s of sentences) embedder.tokenize(s); // word cache warm, as in a long stream
      return 20 * sentences.length;
    }),
  );
}

const f = (x) => x.toFixed(1);
console.log(`embed.model: all-MiniLM-L6-v2 stand-in (random int8), cpu, ${THREADS} threads, batch ${BATCH}`);
console.log(`embed.sentences: ${sentences.length} (news-bbc, mean ${meanLen.toFixed(1)} tokens)`);
console.log(`embed.raw_session_sent_per_s: ${f(best.raw)}`);
console.log(`embed.full_sent_per_s: ${f(best.full)}`);
console.log(`embed.full_over_raw: ${(best.full / best.raw).toFixed(3)}`);
console.log(`embed.unsorted_b128_sent_per_s: ${f(best.unsorted)}`);
console.log(`embed.bucketed_b128_sent_per_s: ${f(best.bucketed)}`);
console.log(`embed.bucketed_over_unsorted: ${(best.bucketed / best.unsorted).toFixed(3)}`);
console.log(`embed.tokenize_sent_per_s: ${f(best.tok)}`);

if (argv.includes('--sweep')) {
  for (const size of [16, 32, 64, 128, 256]) {
    const batches = pack(size, size * 128, true);
    let b = 0;
    for (let r = 0; r < REPEAT; r++) b = Math.max(b, await rate(() => runRaw(batches)));
    console.log(`embed.sorted_b${size}_sent_per_s: ${f(b)}`);
  }
}
await embedder.dispose();
