// End-to-end `filter --embedder onnx` rate vs the embedder alone on the same sentences
// (issue target: within 15%). Stand-in MiniLM model (random int8 weights), CPU.
// Run: node scripts/bench/embed-e2e.js [--docs 120] [--model-dir DIR]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sharedPath } from '../../dist/core/shared.js';
import { createEmbedder } from '../../dist/embed/factory.js';
import { DEFAULT_READER } from '../../dist/io/documents.js';
import { readSentences } from '../../dist/io/sentences.js';
import { Sink } from '../../dist/io/sink.js';
import { fitModel } from '../../dist/model/fit.js';
import { runFilter } from '../../dist/commands/filter.js';

const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(`--${k}`) ? argv[argv.indexOf(`--${k}`) + 1] : d);
const docs = Number(opt('docs', 120));
const modelDir = opt('model-dir', sharedPath('models', 'all-MiniLM-L6-v2-ARCH-STANDIN-random-weights'));
const dir = mkdtempSync(join(tmpdir(), 'tadpole-embed-e2e-'));
try {
  const recs = gunzipSync(readFileSync(sharedPath('corpora', 'news-bbc', 'docs.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean).slice(0, docs);
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, recs.join('\n') + '\n');
  const sentences = await readSentences([corpus], DEFAULT_READER);
  const spec = { kind: 'onnx', modelDir, device: 'cpu' };

  const embedder = await createEmbedder(spec);
  await embedder.embed(sentences.slice(0, 64)); // warm-up
  let t = performance.now();
  const X = await embedder.embed(sentences);
  const embedS = (performance.now() - t) / 1000;
  if (X.length !== sentences.length * embedder.dims) throw new Error('embedder returned the wrong shape');
  await embedder.dispose();

  const model = await fitModel({ method: 'tadpole', task: sentences.slice(0, 300), general: sentences.slice(300, 900), embedder: spec, seed: 0, options: { detector: 'iforest' } });
  t = performance.now();
  const stats = await runFilter({ inputs: [corpus], reader: DEFAULT_READER, model, keep: 0.2, segment: 15, keepBy: 'sentences', sink: Sink.toFile(join(dir, 'kept.jsonl')), embedder: { device: 'cpu', modelDir } });
  const filterS = stats.seconds.total - stats.seconds.open;
  if (stats.sentences.total !== sentences.length) throw new Error(`filter saw ${stats.sentences.total} sentences, the reader ${sentences.length}`);
  const a = sentences.length / embedS;
  const b = stats.sentences.total / filterS;
  console.log(`embed_e2e.embedder_alone_sent_per_s: ${a.toFixed(1)}  (${sentences.length} sentences)`);
  console.log(`embed_e2e.filter_sent_per_s: ${b.toFixed(1)}  (pass1 ${stats.seconds.pass1.toFixed(1)}s, cut ${stats.seconds.cut.toFixed(2)}s, pass2 ${stats.seconds.pass2.toFixed(2)}s)`);
  console.log(`embed_e2e.filter_over_embedder: ${(b / a).toFixed(3)}  (target >= 0.85)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
