// Builds labelled sentence mixes from ../shared/corpora for the selector research.
// Cached under $TMPDIR/tadpole-research; never written into the repo.
// Only natural-text sources (no pre-tokenised/lower-cased ones in the Figure-5 mix), and the
// selectors' tokenizer lower-cases and drops punctuation anyway.
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createGunzip, gunzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Rng } from '../../dist/core/rng.js';
import { sharedPath } from '../../dist/core/shared.js';
import { splitSentences } from '../../dist/text/sentences.js';

const C = (...p) => sharedPath('corpora', ...p);
const MAX_DOCS = 4000; // per source: bounds load time; a few 10k sentences per domain

async function* jsonl(file, limit = MAX_DOCS) {
  const rl = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    if (!line.trim()) continue;
    yield JSON.parse(line);
    if (++n >= limit) { rl.close(); break; }
  }
}
const lines = (file, enc = 'utf8') => gunzipSync(readFileSync(file)).toString(enc).split(/\r?\n/);
function split(text) {
  const o = splitSentences(text);
  const out = [];
  for (let i = 0; i < o.length; i += 2) out.push(text.slice(o[i], o[i + 1]).replace(/\s+/g, ' '));
  return out;
}
const ok = (s) => s.split(/\s+/).length >= 4;

async function bio() {
  const out = [];
  for await (const d of jsonl(C('bio-ohsumed', 'docs.jsonl.gz'))) out.push(...d.text.split('\n').slice(1).map((s) => s.trim()));
  const qa = JSON.parse(gunzipSync(readFileSync(C('bio-pubmedqa', 'ori_pqal.json.gz'))).toString());
  for (const v of Object.values(qa)) for (const p of [...v.CONTEXTS, v.LONG_ANSWER]) out.push(...split(p));
  return out.filter(ok);
}
async function cs() {
  const out = [];
  for (const f of ['train', 'dev', 'test']) for await (const d of jsonl(C('cs-scitldr-abstracts', `${f}.jsonl.gz`))) out.push(...d.source);
  for await (const d of jsonl(C('cs-scisummnet-acl-papers', 'docs.jsonl.gz'), 400)) {
    out.push(...d.abstract);
    for (const s of d.sections) out.push(...s.sentences);
  }
  return out.filter(ok);
}
async function news() {
  const out = [];
  for await (const d of jsonl(C('news-bbc', 'docs.jsonl.gz'))) out.push(...d.text.split('\n').filter((l) => l.trim()).flatMap(split));
  for (const f of ['rural', 'science']) out.push(...lines(C('news-abc-australia', `${f}.txt.gz`)).map((s) => s.trim()));
  return out.filter(ok);
}
function csvRows(text) {
  const rows = [];
  let row = [], field = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) { if (ch === '"') { if (text[i + 1] === '"') { field += '"'; i++; } else q = false; } else field += ch; }
    else if (ch === '"') q = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else if (ch !== '\r') field += ch;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}
async function finance() {
  const out = [];
  for await (const d of jsonl(C('news-reuters21578-apte', 'docs.jsonl.gz'))) {
    const [, ...body] = d.text.split('\n'); // drop the upper-case headline
    out.push(...split(body.join(' ')));
  }
  for await (const d of jsonl(C('news-wsj-ptb-sample', 'docs.jsonl.gz'))) out.push(...split(d.text.replace('.START', '')));
  const rows = csvRows(gunzipSync(readFileSync(C('finance-seeking-alpha-summaries', 'seeking_alpha_articles_new.csv.gz'))).toString());
  for (const r of rows.slice(1)) if (r[3]) out.push(...split(r[3]));
  return out.filter(ok);
}
async function reviews() {
  const out = [];
  for await (const d of jsonl(C('reviews-movie-polarity2', 'docs.jsonl.gz'), 2000)) out.push(...d.text.split('\n').map((s) => s.trim()));
  return out.filter(ok);
}
async function forum() {
  const out = [];
  for await (const d of jsonl(C('forum-20newsgroups', 'docs.jsonl.gz'), 3000)) {
    const body = d.text.split('\n\n').slice(1).join('\n').split('\n').filter((l) => !/^\s*(>|In article|From:|Subject:)/.test(l)).join(' ');
    out.push(...split(body));
  }
  return out.filter(ok);
}
const POOLS = { bio, cs, news, finance, reviews, forum };

/** The paper's Figure 5 input shares, plus the distractor mix. */
export const MIXES = {
  fig5: { news: 0.218, finance: 0.15, cs: 0.245, bio: 0.387 },
  distractors: { news: 0.17, finance: 0.12, cs: 0.19, bio: 0.3, reviews: 0.12, forum: 0.1 },
};

export async function loadMix(name, total = 30000, seed = 1) {
  const dir = join(tmpdir(), 'tadpole-research');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `mix-${name}-${total}-${seed}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const rng = new Rng(seed);
  const sents = [], labels = [];
  for (const [label, share] of Object.entries(MIXES[name])) {
    const pool = [...new Set(await POOLS[label]())];
    const n = Math.min(pool.length, Math.round(share * total));
    for (const i of rng.sample(pool.length, n)) { sents.push(pool[i]); labels.push(label); }
    process.stderr.write(`${label}: pool ${pool.length}, took ${n}\n`);
  }
  // Interleave deterministically.
  const order = rng.shuffle(sents.map((_, i) => i));
  const mix = { sentences: order.map((i) => sents[i]), labels: order.map((i) => labels[i]) };
  writeFileSync(file, JSON.stringify(mix));
  return mix;
}

const strip = (s) => s.replace(/<<\s*|\s*>>|\[\[\s*|\s*\]\]/g, '').replace(/\s+/g, ' ').trim();
export async function loadTask(name) {
  const uniq = (xs) => [...new Set(xs.filter((s) => s && s.trim()))];
  if (name === 'chemprot') { const o = []; for await (const d of jsonl(C('task-chemprot', 'train.jsonl.gz'), 1e9)) o.push(strip(d.text)); return { domain: 'bio', task: uniq(o) }; }
  if (name === 'acl-arc') { const o = []; for await (const d of jsonl(C('task-acl-arc-citation-intent', 'train.jsonl.gz'), 1e9)) o.push(d.text); return { domain: 'cs', task: uniq(o) }; }
  if (name === 'ag-news') {
    const rows = csvRows(gunzipSync(readFileSync(C('task-ag-news', 'test.csv.gz'))).toString()).slice(1, 2001);
    return { domain: 'news', task: uniq(rows.flatMap((r) => [r[1], ...split(r[2] ?? '')]).map((s) => s.replace(/\\/g, ' '))) };
  }
  if (name === 'phrasebank') return { domain: 'finance', task: uniq(lines(C('task-financial-phrasebank', 'Sentences_50Agree.txt.gz'), 'latin1').map((l) => l.replace(/@\w+$/, '')).slice(0, 2000)) };
  if (name === 'mr') return { domain: 'reviews', task: uniq(lines(C('task-mr-sentence-polarity', 'text_train.txt.gz')).slice(0, 2000)) };
  throw new Error(`unknown task ${name}`);
}
