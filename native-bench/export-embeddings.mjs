#!/usr/bin/env node
// Writes hash-embedder embeddings of real task and general sentences, split as `tadpole
// rank` splits them (paper Table 1 protocol), for native-bench/sklearn_compare.py.
//
//   node native-bench/export-embeddings.mjs [--out DIR] [--task chemprot|acl-arc|scierc] [--dims 256] [--seed 0] [--max-general 20000]
//
// Needs the compiled code (npx tsc -p tsconfig.json). Output in DIR (default
// /tmp/tadpole-native-bench): train.f32, test.f32, bulk.f32 (raw little-endian float32,
// row-major), labels.u8 (1 = general), meta.json (dims and row counts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sharedPath } from '../dist/core/shared.js';
import { HashEmbedder } from '../dist/embed/hash.js';
import { readSentences } from '../dist/io/sentences.js';
import { splitForRank } from '../dist/rank/rank.js';

const { values: a } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/tadpole-native-bench' },
    task: { type: 'string', default: 'chemprot' },
    dims: { type: 'string', default: '256' },
    seed: { type: 'string', default: '0' },
    'max-general': { type: 'string', default: '20000' },
  },
});
const TASKS = {
  chemprot: 'task-chemprot',
  'acl-arc': 'task-acl-arc-citation-intent',
  scierc: 'task-scierc-relation',
};
const folder = TASKS[a.task];
if (!folder) throw new Error(`--task must be one of ${Object.keys(TASKS).join(', ')}`);
const dims = Number(a.dims);
const seed = Number(a.seed);

// Task sentences: every split, entity markers << >> [[ ]] stripped, duplicates dropped
// (ChemProt repeats a sentence once per entity pair).
const seen = new Set();
const task = [];
for (const split of ['train', 'dev', 'test']) {
  const lines = gunzipSync(readFileSync(sharedPath('corpora', folder, `${split}.jsonl.gz`))).toString('utf8').split('\n');
  for (const line of lines) {
    if (!line.trim()) continue;
    const text = JSON.parse(line).text.replace(/<<\s*|\s*>>|\[\[\s*|\s*\]\]/g, '').replace(/\s+/g, ' ').trim();
    if (text && !seen.has(text)) {
      seen.add(text);
      task.push(text);
    }
  }
}
const general = await readSentences(
  [sharedPath('corpora', 'news-bbc', 'docs.jsonl.gz'), sharedPath('corpora', 'fiction-gutenberg', 'docs.jsonl.gz')],
  { format: 'jsonl', textField: 'text', docPerLine: false, strict: false, maxDocBytes: 1 << 26, limit: Number(a['max-general']), seed },
);

const emb = new HashEmbedder({ dims });
const taskX = emb.embedSync(task);
const generalX = emb.embedSync(general);
const split = splitForRank({ taskX, nTask: task.length, generalX, nGeneral: general.length, dims, detectors: [], seed }, seed);

mkdirSync(a.out, { recursive: true });
const raw = (f32) => Buffer.from(f32.buffer, f32.byteOffset, f32.byteLength);
writeFileSync(join(a.out, 'train.f32'), raw(split.trainX));
writeFileSync(join(a.out, 'test.f32'), raw(split.testX));
writeFileSync(join(a.out, 'labels.u8'), Buffer.from(split.labels));
writeFileSync(join(a.out, 'bulk.f32'), raw(generalX));
const meta = { task: a.task, embedder: emb.fingerprint, dims, seed, train: split.nTrain, test: split.labels.length, test_task: split.nTestTask, test_general: split.nTestGeneral, bulk: general.length };
writeFileSync(join(a.out, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
console.log(JSON.stringify(meta));
