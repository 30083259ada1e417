#!/usr/bin/env node
// Writes the built-in corpus (corpora/builtin/) from the shared corpora, seeded, so that the
// same shared folder always gives the same bytes: a biomedical task and a mixed corpus of
// five sources, from redistributable text only (corpora/builtin/SOURCES.md). The demo and
// the tests that need some real text read it, so they run on a clone with nothing beside it.
// Usage (after a build): node scripts/make-builtin-corpus.js [--out corpora/builtin] [--seed 0]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { sharedDir } from '../dist/core/shared.js';
import { Rng } from '../dist/core/rng.js';
import { readSourceDocs } from '../dist/eval/sources.js';

const { values } = parseArgs({ options: { out: { type: 'string', default: 'corpora/builtin' }, seed: { type: 'string', default: '0' } } });
const shared = sharedDir();
if (!shared) {
  console.error('make-builtin-corpus: the shared corpora were not found (../shared beside the checkout, or $TADPOLE_SHARED)');
  process.exit(3);
}
const corpora = (rel) => join(shared, 'corpora', rel);

// Every 4th PubMedQA abstract is the task; the mix's bio text comes from the other three
// quarters, so the task never shares an abstract with the mix.
const PUBMEDQA = { files: [corpora('bio-pubmedqa/ori_pqal.json.gz')], format: 'pubmedqa' };
const TASK = { ...PUBMEDQA, split: { every: 4, part: 'held-out' } };

/** The mix: about `bytes` characters of each source, long documents cut into ~2,000-character pieces. */
const SOURCES = [
  { label: 'bio', bytes: 360_000, spec: { ...PUBMEDQA, split: { every: 4, part: 'rest' } } },
  { label: 'cs', bytes: 360_000, spec: { files: [corpora('cs-scitldr-abstracts/train.jsonl.gz')], format: 'jsonl-sentences', field: 'source' } },
  { label: 'wiki', bytes: 360_000, spec: { files: [corpora('wiki-wikitext2/wiki.test.tokens.gz')], format: 'wikitext', normalize: ['strip-unk', 'detokenize'], chunkChars: 2000, minChars: 200 } },
  { label: 'speech', bytes: 360_000, spec: { files: [corpora('speech-us-presidential/docs.jsonl.gz')], format: 'jsonl-text', chunkChars: 2000, minChars: 200 } },
  // Pieces naming Project Gutenberg (one book ends with its licence) are left out: the
  // trademark, unlike the public-domain text, is not free to redistribute.
  { label: 'fiction', bytes: 360_000, spec: { files: [corpora('fiction-gutenberg/docs.jsonl.gz')], format: 'jsonl-text', chunkChars: 2000, minChars: 200 }, drop: /gutenberg/i },
];

async function all(spec, drop) {
  const out = [];
  for await (const text of readSourceDocs(spec)) if (!drop?.test(text)) out.push(text);
  return out;
}

const seed = Number(values.seed);
const rng = new Rng(seed);
const mix = [];
for (const { label, bytes, spec, drop } of SOURCES) {
  const docs = await all(spec, drop);
  let used = 0;
  // Seeded order; a document is taken while the source is under its budget.
  for (const i of rng.shuffle(docs.map((_, j) => j))) {
    if (used >= bytes) break;
    const text = docs[i];
    mix.push({ text, source: label });
    used += text.length;
  }
}
rng.shuffle(mix);

const task = await all(TASK);
mkdirSync(values.out, { recursive: true });
// gzipSync writes no name and a zero mtime: the same input gives the same bytes.
const gz = (s) => gzipSync(Buffer.from(s, 'utf8'), { level: 9 });
writeFileSync(join(values.out, 'mix.jsonl.gz'), gz(mix.map((d) => JSON.stringify(d)).join('\n') + '\n'));
// One abstract per paragraph: the sentence splitter reads blank lines as boundaries.
writeFileSync(join(values.out, 'task-bio.txt.gz'), gz(task.join('\n\n') + '\n'));

const chars = {};
for (const d of mix) chars[d.source] = (chars[d.source] ?? 0) + d.text.length;
const total = Object.values(chars).reduce((a, b) => a + b, 0);
console.log(`mix: ${mix.length} documents, ${total} characters: ${Object.entries(chars).map(([k, v]) => `${k} ${((100 * v) / total).toFixed(1)}%`).join(', ')}`);
console.log(`task: ${task.length} PubMedQA abstracts, ${task.reduce((a, t) => a + t.length, 0)} characters`);
