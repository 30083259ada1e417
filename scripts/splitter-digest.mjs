// Digest of the sentence splitter's spans over a sample of every shared corpus, so a
// rewrite of src/text/sentences.ts (it was rewritten for speed) can prove it splits
// exactly as before. test/text/sentences-identity.test.ts recomputes the digest with the
// source splitter and compares it with test/fixtures/splitter-digest.json.
//
// Regenerate (only when the splitter's rules change ON PURPOSE; build first):
//   npx tsc -p tsconfig.json && node scripts/splitter-digest.mjs --write
// Without --write it prints the digest of the built splitter and whether it matches.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const HERE = dirname(fileURLToPath(import.meta.url));
export const DIGEST_FILE = resolve(HERE, '..', 'test', 'fixtures', 'splitter-digest.json');

/** Decompressed bytes read from each corpus file (the head of it): ~60 MB in all. */
const SAMPLE_BYTES = 2_000_000;

/** $TADPOLE_SHARED, else ../shared beside the checkout (as src/core/shared.ts). */
export function sharedCorpora() {
  const env = process.env.TADPOLE_SHARED;
  const dir = env && existsSync(env) ? resolve(env) : resolve(HERE, '..', '..', 'shared');
  const corpora = join(dir, 'corpora');
  return existsSync(corpora) ? corpora : undefined;
}

/** Every corpus file under `corpora`, sorted, as paths relative to it. */
function corpusFiles(corpora) {
  const out = [];
  for (const dir of readdirSync(corpora, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(join(corpora, dir.name))) {
      if (/\.(jsonl|json|txt|tokens|csv)(\.gz)?$/.test(f)) out.push(`${dir.name}/${f}`);
    }
  }
  return out.sort();
}

/** Every string in a parsed JSON value (records keep text in "text", "abstract", "contexts"...). */
function stringLeaves(value, out) {
  if (typeof value === 'string') { if (value !== '') out.push(value); return; }
  if (Array.isArray(value)) { for (const v of value) stringLeaves(v, out); return; }
  if (value !== null && typeof value === 'object') for (const v of Object.values(value)) stringLeaves(v, out);
}

/** Words re-flowed into lines of at most `width` (a hard-wrapped copy of a document). */
function wrap(text, width) {
  const lines = [];
  let cur = '';
  for (const w of text.split(/\s+/)) {
    if (w === '') continue;
    if (cur && cur.length + 1 + w.length > width) { lines.push(cur); cur = w; } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines.join('\n');
}

/**
 * The documents of one corpus file, as tadpole would see them: JSONL and JSON records give
 * every string field; text, CSV and token files give blank-line separated paragraphs (the
 * reader's text mode) and, for files without blank lines, runs of 50 lines. Every 7th
 * document is also added lower-cased (the caseless rules) and every 5th hard-wrapped at
 * 64 columns (the line rules), so those paths see real text too.
 */
export function documentsOfFile(corpora, rel) {
  let raw = readFileSync(join(corpora, rel));
  if (rel.endsWith('.gz')) raw = gunzipSync(raw);
  let text = raw.subarray(0, SAMPLE_BYTES).toString('utf8');
  const docs = [];
  if (/\.jsonl(\.gz)?$/.test(rel)) {
    const lines = text.split('\n');
    if (raw.length > SAMPLE_BYTES) lines.pop(); // cut mid-record
    for (const line of lines) if (line.trim() !== '') stringLeaves(JSON.parse(line), docs);
  } else if (/\.json(\.gz)?$/.test(rel)) {
    stringLeaves(JSON.parse(raw.toString('utf8')), docs);
    let bytes = 0;
    const kept = [];
    for (const d of docs) { if (bytes > SAMPLE_BYTES) break; kept.push(d); bytes += d.length; }
    docs.length = 0;
    docs.push(...kept);
  } else {
    const paras = text.split(/\n[ \t\r]*\n/);
    if (paras.length > 1) docs.push(...paras);
    else {
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i += 50) docs.push(lines.slice(i, i + 50).join('\n'));
    }
  }
  const extra = [];
  for (let i = 0; i < docs.length; i++) {
    if (i % 7 === 3) extra.push(docs[i].toLowerCase());
    if (i % 5 === 2) extra.push(wrap(docs[i], 64));
  }
  return docs.concat(extra);
}

/** The golden cases' texts (shared/corpora/sentence-golden/golden_en.jsonl). */
function goldenTexts(corpora) {
  const jsonl = readFileSync(join(corpora, 'sentence-golden', 'golden_en.jsonl'), 'utf8');
  return jsonl.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l).text);
}

/**
 * { total, files: { rel: { docs, chars, spans, sha256 } } }: for each file, a SHA-256 over
 * every document's span list (Int32 little-endian, a -1 after each document).
 */
export function splitterDigest(split, corpora = sharedCorpora()) {
  if (!corpora) throw new Error('shared corpora not found: set TADPOLE_SHARED or place ../shared beside the checkout');
  const files = {};
  const total = createHash('sha256');
  const sources = [['sentence-golden/golden_en.jsonl', () => goldenTexts(corpora)]];
  for (const rel of corpusFiles(corpora)) sources.push([rel, () => documentsOfFile(corpora, rel)]);
  for (const [rel, load] of sources) {
    const hash = createHash('sha256');
    let chars = 0;
    let spans = 0;
    const docs = load();
    for (const doc of docs) {
      const s = split(doc);
      const words = new Int32Array(s.length + 1);
      words.set(s);
      words[s.length] = -1;
      hash.update(new Uint8Array(words.buffer));
      chars += doc.length;
      spans += s.length / 2;
    }
    const sha256 = hash.digest('hex');
    files[rel] = { docs: docs.length, chars, spans, sha256 };
    total.update(`${rel} ${sha256}\n`);
  }
  return { total: total.digest('hex'), files };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { splitSentences } = await import('../dist/text/sentences.js');
  const t0 = Date.now();
  const digest = splitterDigest(splitSentences);
  const seconds = (Date.now() - t0) / 1000;
  const chars = Object.values(digest.files).reduce((n, f) => n + f.chars, 0);
  console.log(`splitter digest ${digest.total} over ${Object.keys(digest.files).length} files, ${(chars / 1e6).toFixed(1)}M chars (${seconds.toFixed(1)} s)`);
  if (process.argv.includes('--write')) {
    writeFileSync(DIGEST_FILE, `${JSON.stringify(digest, null, 1)}\n`);
    console.log(`wrote ${DIGEST_FILE}`);
  } else if (existsSync(DIGEST_FILE)) {
    const saved = JSON.parse(readFileSync(DIGEST_FILE, 'utf8'));
    console.log(saved.total === digest.total ? 'matches the recorded digest' : 'DIFFERS from the recorded digest');
  }
}
