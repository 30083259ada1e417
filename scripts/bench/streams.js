// highland vs plain async generators over batches, for the per-document stage work
// (the design was sketched around highland; this is the measured reason it is not used).
import _ from 'highland';

const N = 1_000_000;
function* items() {
  for (let i = 0; i < N; i++) yield { i, text: 'x' };
}

export async function benchStreams() {
  let t = performance.now();
  const viaHighland = await new Promise((resolve, reject) => {
    let sum = 0;
    _(items())
      .map((d) => d.i * 2)
      .filter((x) => x % 3 !== 0)
      .each((x) => (sum += x))
      .done(() => resolve(sum));
    void reject;
  });
  const hs = (performance.now() - t) / 1000;
  t = performance.now();
  async function* batches() {
    let b = [];
    for (const d of items()) {
      b.push(d);
      if (b.length === 512) {
        yield b;
        b = [];
      }
    }
    if (b.length) yield b;
  }
  let sum = 0;
  for await (const b of batches()) for (const d of b) {
    const x = d.i * 2;
    if (x % 3 !== 0) sum += x;
  }
  const gs = (performance.now() - t) / 1000;
  if (sum !== viaHighland) throw new Error('results differ');
  console.log(`streams.items_per_s highland: ${(N / hs / 1e6).toFixed(2)}M  async-generator batches: ${(N / gs / 1e6).toFixed(2)}M  (ratio ${(hs / gs).toFixed(1)}x)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStreams();
