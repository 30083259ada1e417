// The ONNX embedder's JavaScript side alone, per sentence: what the main thread spends around a
// session run (tokenize, bucket + pack, pool + normalise), with no session at all. On a GPU these
// parts, not the device, set the rate when they run in the main thread.
// Build first: npx tsc -p tsconfig.json.  Run: node scripts/bench/embed-js.js [--sentences N] [--batch B]
// Prints (microseconds per sentence, best of --repeat):
//   embed_js.tokenize_cold_us      the tokenizer with an empty word cache (the first pass over new text)
//   embed_js.tokenize_warm_us      the same sentences again (word cache warm, as in a long stream)
//   embed_js.pack_us               planBatches + packBatch (sort window, int64 tensors)
//   embed_js.pool_us               mean pooling + L2 normalisation of a [batch, seq, 384] output
//   embed_js.total_warm_us         the three together: the main thread's cost per sentence
//   embed_js.main_thread_max_sent_per_s   1e6 / total_warm_us
//   embed_js.helpers_main_us       with --helpers N helper threads (as on CUDA): the main thread's
//                                  busy time (event-loop utilisation) for the same work
//   embed_js.helpers_wall_us       wall time per sentence of that work
//   embed_js.helpers_main_max_sent_per_s   1e6 / helpers_main_us
import { sharedPath } from '../../dist/core/shared.js';
import { bbcSentences } from './bbc-sentences.js';
import { packBatch, planBatches } from '../../dist/embed/onnx/batching.js';
import { l2NormalizeRows, poolTokens } from '../../dist/embed/onnx/pooling.js';
import { loadTokenizer } from '../../dist/embed/onnx/tokenizer.js';
import { EmbedHelpers } from '../../dist/embed/onnx/helpers.js';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const N = opt('sentences', 8192);
const BATCH = opt('batch', 256);
const REPEAT = opt('repeat', 3);
const HELPERS = opt('helpers', 2);
const DIMS = 384;
const modelDir = sharedPath('models', 'all-MiniLM-L6-v2-ARCH-STANDIN-random-weights');

const sentences = await bbcSentences(N);
const n = sentences.length;
const us = (t0) => ((performance.now() - t0) * 1000) / n;
const best = { cold: Infinity, warm: Infinity, pack: Infinity, pool: Infinity };
let meanLen = 0;
for (let r = 0; r < REPEAT; r++) {
  const tok = loadTokenizer(modelDir);
  let t0 = performance.now();
  let tokens = sentences.map((s) => tok.encode(s, 128));
  best.cold = Math.min(best.cold, us(t0));
  t0 = performance.now();
  tokens = sentences.map((s) => tok.encode(s, 128));
  best.warm = Math.min(best.warm, us(t0));
  const lengths = Int32Array.from(tokens, (t) => t.length);
  meanLen = lengths.reduce((a, b) => a + b, 0) / n;

  t0 = performance.now();
  const packed = planBatches(lengths, BATCH, BATCH * 128).map((p) => packBatch(p, tokens, tok.padId));
  best.pack = Math.min(best.pack, us(t0));

  // A fake session output per batch, made outside the timed part: pooling reads [batch, seq, dims].
  const hidden = packed.map((b) => new Float32Array(b.plan.rows.length * b.plan.seq * DIMS).fill(0.5));
  const out = new Float32Array(n * DIMS);
  t0 = performance.now();
  for (let i = 0; i < packed.length; i++) {
    const b = packed[i];
    poolTokens(hidden[i], b.plan.seq, DIMS, b.lengths, b.plan.rows, 'mean', out);
    l2NormalizeRows(out, DIMS, b.plan.rows);
  }
  best.pool = Math.min(best.pool, us(t0));
}
// The same work with helper threads: tokenize and pool there, pack and place rows here.
const helpers = new EmbedHelpers(HELPERS, { modelDir, maxTokens: 128, dims: DIMS, pooling: 'mean', normalize: true });
await helpers.tokenize(sentences); // start-up and a warm word cache, as in a long stream
const padId = loadTokenizer(modelDir).padId;
let helpMain = Infinity;
let helpWall = Infinity;
for (let r = 0; r < REPEAT; r++) {
  const lengths0 = Int32Array.from(await helpers.tokenize(sentences), (t) => t.length);
  const hidden = planBatches(lengths0, BATCH, BATCH * 128).map((p) => new Float32Array(p.rows.length * p.seq * DIMS).fill(0.5));
  const out = new Float32Array(n * DIMS);
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const tokens = await helpers.tokenize(sentences);
  const plans = planBatches(Int32Array.from(tokens, (t) => t.length), BATCH, BATCH * 128);
  const pools = plans.map(async (p, i) => {
    const b = packBatch(p, tokens, padId);
    const v = await helpers.pool(hidden[i], p.seq, b.lengths);
    for (let k = 0; k < p.rows.length; k++) out.set(v.subarray(k * DIMS, (k + 1) * DIMS), p.rows[k] * DIMS);
  });
  await Promise.all(pools);
  helpWall = Math.min(helpWall, us(t0));
  helpMain = Math.min(helpMain, (performance.eventLoopUtilization(elu0).active * 1000) / n);
}
await helpers.dispose();
const total = best.warm + best.pack + best.pool;
const f = (x) => x.toFixed(2);
console.log(`embed_js.sentences: ${n} (news-bbc, mean ${meanLen.toFixed(1)} tokens), batch ${BATCH}, ${DIMS} dims`);
console.log(`embed_js.tokenize_cold_us: ${f(best.cold)}`);
console.log(`embed_js.tokenize_warm_us: ${f(best.warm)}`);
console.log(`embed_js.pack_us: ${f(best.pack)}`);
console.log(`embed_js.pool_us: ${f(best.pool)}`);
console.log(`embed_js.total_warm_us: ${f(total)}`);
console.log(`embed_js.main_thread_max_sent_per_s: ${(1e6 / total).toFixed(0)}`);
console.log(`embed_js.helpers: ${HELPERS}`);
console.log(`embed_js.helpers_main_us: ${f(helpMain)}`);
console.log(`embed_js.helpers_wall_us: ${f(helpWall)}`);
console.log(`embed_js.helpers_main_max_sent_per_s: ${(1e6 / helpMain).toFixed(0)}`);
