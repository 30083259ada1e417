// Line splitting: tadpole's Buffer.indexOf reader vs split2 vs readline, on the same bytes.
// The reader replaced split2 because it is faster AND yields byte offsets (shards, resume).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import split2 from 'split2';
import { readDocuments } from '../../dist/io/documents.js';

async function time(fn) {
  const t = performance.now();
  const n = await fn();
  return { n, s: (performance.now() - t) / 1000 };
}

export async function benchLines(path, mb) {
  const ours = await time(async () => {
    let n = 0;
    for await (const b of readDocuments([path], { format: 'text', textField: 'text', docPerLine: true, strict: false })) n += b.length;
    return n;
  });
  const s2 = await time(
    () =>
      new Promise((resolve, reject) => {
        let n = 0;
        createReadStream(path, { highWaterMark: 1 << 20 })
          .pipe(split2())
          .on('data', (l) => {
            if (l.length > 0) n++;
          })
          .on('end', () => resolve(n))
          .on('error', reject);
      }),
  );
  // The fair peer: split2 plus the byte offsets and per-document records the reader gives.
  const s2o = await time(
    () =>
      new Promise((resolve, reject) => {
        let n = 0;
        let offset = 0;
        let lines = 1;
        let docs = [];
        createReadStream(path, { highWaterMark: 1 << 20 })
          .pipe(split2())
          .on('data', (l) => {
            const len = Buffer.byteLength(l);
            // The same record the reader builds per document (text, byte span, line, ordinal).
            if (l.length > 0) docs.push({ ordinal: n++, input: 0, file: path, line: lines, text: l, byteStart: offset, byteEnd: offset + len, nextOffset: offset + len + 1 });
            if (docs.length >= 512) docs = [];
            offset += len + 1;
            lines++;
          })
          .on('end', () => resolve(n + 0 * offset))
          .on('error', reject);
      }),
  );
  const rl = await time(async () => {
    let n = 0;
    for await (const l of createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity })) if (l.length > 0) n++;
    return n;
  });
  if (ours.n !== s2.n || s2.n !== rl.n) throw new Error(`line counts differ: ours ${ours.n}, split2 ${s2.n}, readline ${rl.n}`);
  console.log(`lines.reader_mb_per_s: ${(mb / ours.s).toFixed(1)}  split2: ${(mb / s2.s).toFixed(1)}  split2+offsets: ${(mb / s2o.s).toFixed(1)}  readline-iterator: ${(mb / rl.s).toFixed(1)}  (ours/split2 ${(s2.s / ours.s).toFixed(2)}x, ours/split2+offsets ${(s2o.s / ours.s).toFixed(2)}x; ours decodes, checks UTF-8 and keeps byte offsets)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { makeCorpus } = await import('../make-corpus.js');
  const { benchDir } = await import('./e2e.js');
  const { existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const path = join(benchDir(), 'lines-50mb.txt');
  if (!existsSync(path)) await makeCorpus(path, 50, 'text', 3);
  await benchLines(path, 50);
}
