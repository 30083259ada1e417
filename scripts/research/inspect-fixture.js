// A kept text like a filter's on a crawl where the domain is plentiful and two small kinds of
// text slipped in (the Debian-documentation case: changelogs with copyright files and Perl pod
// among them), built from ../shared: 95% MEDLINE abstracts, about 3% patient leaflets and 2%
// CS paper abstracts by characters, in one JSONL file with each record's source; and a task of
// 300 other MEDLINE abstracts, a sentence per line. test/inspect/task-groups.test.ts builds the
// same text in memory.
//
// usage: node scripts/research/inspect-fixture.js DIR
//        tadpole inspect DIR/kept.jsonl --task DIR/task.txt --write-groups DIR/groups
import { gunzipSync } from 'node:zlib';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedPath } from '../../dist/core/shared.js';
import { splitSentences } from '../../dist/text/sentences.js';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/research/inspect-fixture.js DIR');
const records = (rel, limit) => {
  const rows = [];
  for (const line of gunzipSync(readFileSync(sharedPath('corpora', rel))).toString('utf8').split('\n')) {
    if (!line) continue;
    rows.push(JSON.parse(line));
    if (rows.length >= limit) break;
  }
  return rows;
};
const sentencesOf = (text) => {
  const spans = splitSentences(text);
  const s = [];
  for (let i = 0; i < spans.length; i += 2) s.push(text.slice(spans[i], spans[i + 1]).replace(/\s+/g, ' ').trim());
  return s;
};
const bio = records('bio-ohsumed/docs.jsonl.gz', 1000).map((r) => String(r.text));
const kept = bio.slice(0, 700);
const bioChars = kept.reduce((a, t) => a + t.length, 0);
const upTo = (texts, share) => {
  const taken = [];
  let chars = 0;
  for (const t of texts) {
    if (chars >= (share / 0.95) * bioChars) break;
    taken.push(t);
    chars += t.length;
  }
  return taken;
};
const leaflets = upTo(records('medical-patient-leaflets/docs.jsonl.gz', 300).map((r) => String(r.text)), 0.03);
const cs = upTo(records('cs-scisummnet-acl-papers/docs.jsonl.gz', 300).map((r) => r.abstract.join(' ')), 0.02);
const docs = [...kept.map((text) => ({ text, source: 'bio' })), ...leaflets.map((text) => ({ text, source: 'leaflets' })), ...cs.map((text) => ({ text, source: 'cs' }))];
// Spread through the file, as kept runs of a crawl come.
const order = docs.map((d, i) => ({ d, k: (i * 2654435761) % 4294967296 })).sort((a, b) => a.k - b.k).map((x) => x.d);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'kept.jsonl'), order.map((d) => JSON.stringify(d)).join('\n') + '\n');
writeFileSync(join(out, 'task.txt'), bio.slice(700).flatMap(sentencesOf).join('\n') + '\n');
const chars = {};
for (const d of order) chars[d.source] = (chars[d.source] ?? 0) + d.text.length;
const all = Object.values(chars).reduce((a, b) => a + b, 0);
console.log(Object.entries(chars).map(([k, v]) => `${k} ${((100 * v) / all).toFixed(1)}%`).join(', '));
