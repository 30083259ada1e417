// ONNX embedder throughput on one device: the raw session on pre-tokenized, length-sorted,
// pre-packed batches, and the full embedder (tokenize, bucket, run, pool) on the same text.
// Runs from any folder: the built project is imported from --app (a folder with dist/).
//
//   node scripts/gpu/bench-onnx.mjs --app DIR --model-dir DIR [--onnx-file F] --device cuda
//     --sentences FILE [--n 50000] [--raw-batches 64,128,256,512,1024] [--full-batches 256,1024]
//     [--repeat 2] [--in-thread-batches 256] --out FILE.json
//
// --in-thread-batches: full-embedder rows also measured with all JS work in the main thread
// (helperThreads 0, the CPU path), to compare with the helper threads a GPU gets by default.
//
// Each rate is the best of --repeat timed passes after a warm-up on the longest batches.
// Writes one JSON object; a figure that could not be measured holds an "error" line instead.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const list = (s) => String(s).split(',').filter(Boolean).map(Number);
const app = resolve(arg('app', '.'));
const modelDir = arg('model-dir');
const onnxFile = arg('onnx-file');
const device = arg('device', 'cuda');
const n = Number(arg('n', 50000));
const rawBatches = list(arg('raw-batches', '64,128,256,512,1024'));
const fullBatches = list(arg('full-batches', '256,1024'));
const inThreadBatches = list(arg('in-thread-batches', ''));
const repeat = Number(arg('repeat', 2));
const outFile = arg('out');
if (!modelDir || !outFile || !arg('sentences')) {
  console.error('usage: bench-onnx.mjs --app DIR --model-dir DIR --sentences FILE --out FILE.json [--onnx-file F] [--device D] [--n N]');
  process.exit(2);
}

const { createOnnxEmbedder, packBatch, planBatches } = await import(pathToFileURL(`${app}/dist/embed/onnx/index.js`).href);
const sentences = readFileSync(arg('sentences'), 'utf8').split('\n').filter((s) => s.trim() !== '').slice(0, n);
const result = { device, modelDir, onnxFile: onnxFile ?? null, sentences: sentences.length, raw: [], full: [] };
const save = () => writeFileSync(outFile, JSON.stringify(result, null, 1) + '\n');
const log = (line) => console.error(`bench-onnx: ${line}`);
const secondsOf = async (fn) => {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
};
const open = (batchSize, more = {}) =>
  createOnnxEmbedder({ modelDir, device, batchSize, log, ...(onnxFile ? { onnxFile } : {}), ...more });

// Raw session: one session, batches packed before the clock starts.
try {
  const e = await open(256);
  result.provider = e.provider;
  result.dims = e.dims;
  let tokens;
  result.tokenizeSeconds = await secondsOf(() => {
    tokens = sentences.map((s) => e.tokenize(s));
  });
  result.tokenizeSentPerS = sentences.length / result.tokenizeSeconds;
  const lengths = Int32Array.from(tokens, (t) => t.length);
  result.meanTokens = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  for (const b of rawBatches) {
    const row = { batch: b };
    try {
      const batches = planBatches(lengths, b, b * 128, true).map((p) => packBatch(p, tokens, 0));
      row.batches = batches.length;
      row.paddedTokens = batches.reduce((a, x) => a + x.plan.rows.length * x.plan.seq, 0);
      const warm = batches.slice(0, 8);
      row.warmupSeconds = await secondsOf(async () => {
        for (const x of warm) await e.runPacked(x);
      });
      let best = Infinity;
      for (let r = 0; r < repeat; r++) {
        best = Math.min(
          best,
          await secondsOf(async () => {
            for (const x of batches) await e.runPacked(x);
          }),
        );
      }
      row.seconds = best;
      row.sentPerS = sentences.length / best;
      row.paddedTokPerS = row.paddedTokens / best;
      log(`raw b${b}: ${row.sentPerS.toFixed(0)} sent/s`);
    } catch (err) {
      row.error = String(err?.message ?? err).split('\n')[0];
      log(`raw b${b}: ${row.error}`);
    }
    result.raw.push(row);
    save();
  }
  await e.dispose();
} catch (err) {
  result.rawError = String(err?.message ?? err).split('\n')[0];
  log(`raw: ${result.rawError}`);
}
save();

// Full embedder: raw text in, unit vectors out, as filter uses it.
const fullRows = [...fullBatches.map((b) => ({ batch: b })), ...inThreadBatches.map((b) => ({ batch: b, helperThreads: 0 }))];
for (const { batch: b, helperThreads } of fullRows) {
  const row = { batch: b, helperThreads: helperThreads ?? 'default' };
  const tag = `full b${b}${helperThreads === 0 ? ' in-thread' : ''}`;
  try {
    const e = await open(b, helperThreads === undefined ? {} : { helperThreads });
    row.provider = e.provider;
    await e.embed(sentences.slice(0, Math.min(sentences.length, 4 * b)));
    let best = Infinity;
    for (let r = 0; r < repeat; r++) best = Math.min(best, await secondsOf(() => e.embed(sentences)));
    row.seconds = best;
    row.sentPerS = sentences.length / best;
    log(`${tag}: ${row.sentPerS.toFixed(0)} sent/s`);
    await e.dispose();
  } catch (err) {
    row.error = String(err?.message ?? err).split('\n')[0];
    log(`${tag}: ${row.error}`);
  }
  result.full.push(row);
  save();
}
