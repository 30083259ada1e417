// The first n sentences (3 words or more) of the shared news-bbc corpus, split at . ! ?: the
// real text the embedder benchmarks run on.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { sharedPath } from '../../dist/core/shared.js';

export async function bbcSentences(n) {
  const rl = createInterface({ input: createReadStream(sharedPath('corpora', 'news-bbc', 'docs.jsonl.gz')).pipe(createGunzip()) });
  const out = [];
  for await (const line of rl) {
    for (const para of JSON.parse(line).text.split('\n')) {
      for (const s of para.split(/(?<=[.!?])\s+/)) if (s.trim().split(/\s+/).length >= 3) out.push(s.trim());
    }
    if (out.length >= n) break;
  }
  rl.close();
  return out.slice(0, n);
}
