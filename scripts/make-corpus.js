#!/usr/bin/env node
// Generates a large corpus by re-shuffling real documents from the shared corpora
// (seeded), for memory and throughput benchmarks. Usage:
//   node scripts/make-corpus.js --mb 100 --format jsonl -o /tmp/corpus-100mb.jsonl [--seed 1]
import { createWriteStream, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { sharedDir } from '../dist/core/shared.js';
import { Rng } from '../dist/core/rng.js';

const SOURCES = [
  ['bio-ohsumed/docs.jsonl.gz', 'bio', (r) => r.text],
  ['news-bbc/docs.jsonl.gz', 'news', (r) => r.text],
  ['news-reuters21578-apte/docs.jsonl.gz', 'finance', (r) => r.text],
  ['cs-scitldr-abstracts/train.jsonl.gz', 'cs', (r) => r.source.join(' ')],
  ['forum-20newsgroups/docs.jsonl.gz', 'forum', (r) => r.text],
  ['speech-us-presidential/docs.jsonl.gz', 'speech', (r) => r.text],
];

export function loadDocs() {
  const dir = sharedDir();
  if (!dir) throw new Error('shared corpora not found: set TADPOLE_SHARED');
  const docs = [];
  for (const [rel, label, get] of SOURCES) {
    const text = gunzipSync(readFileSync(join(dir, 'corpora', rel))).toString('utf8');
    for (const line of text.split('\n')) {
      if (!line) continue;
      const t = get(JSON.parse(line));
      if (typeof t === 'string' && t.trim()) docs.push({ text: t.replace(/\n\s*\n/g, '\n').trim(), source: label });
    }
  }
  return docs;
}

export async function makeCorpus(path, mb, format = 'jsonl', seed = 1) {
  const docs = loadDocs();
  const rng = new Rng(seed);
  const out = createWriteStream(path);
  const target = mb * 1e6;
  let bytes = 0;
  let n = 0;
  while (bytes < target) {
    const d = docs[rng.int(docs.length)];
    const line = format === 'jsonl' ? JSON.stringify(d) + '\n' : d.text + '\n\n';
    bytes += Buffer.byteLength(line);
    n++;
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  return { bytes, docs: n };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const get = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
  const r = await makeCorpus(get('-o', '/tmp/corpus.jsonl'), Number(get('--mb', '100')), get('--format', 'jsonl'), Number(get('--seed', '1')));
  console.error(`wrote ${r.docs} documents, ${(r.bytes / 1e6).toFixed(1)} MB`);
}
