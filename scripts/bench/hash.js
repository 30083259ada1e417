// Hash embedder throughput on real sentences (MB/s of sentence text, one core).
import { Bench } from 'tinybench';
import { HashEmbedder } from '../../dist/embed/hash.js';
import { splitSentences } from '../../dist/text/sentences.js';
import { loadDocs } from '../make-corpus.js';

export async function benchHash() {
  const docs = loadDocs().slice(0, 3000);
  const sentences = [];
  for (const d of docs) {
    const s = splitSentences(d.text);
    for (let j = 0; j < s.length; j += 2) sentences.push(d.text.slice(s[j], s[j + 1]));
  }
  const batch = sentences.slice(0, 20000);
  const mb = batch.reduce((a, s) => a + Buffer.byteLength(s), 0) / 1e6;
  const e = new HashEmbedder();
  const X = e.embedSync(batch.slice(0, 10));
  if (X.length !== 10 * 256 || !X.some((v) => v !== 0)) throw new Error('hash embedder produced no vectors');
  const bench = new Bench({ iterations: 5, warmupIterations: 1 });
  bench.add('hash-embed', () => void e.embedSync(batch));
  await bench.run();
  const median = bench.tasks[0].result.latency.p50 / 1000;
  const mbps = mb / median;
  console.log(`hash_embedder.mb_per_s: ${mbps.toFixed(2)}  (${batch.length} sentences, ${(batch.length / median).toFixed(0)} sentences/s, dims 256)`);
  return { mbps };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHash();
