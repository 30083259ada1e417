// Segmentation research: how much does sentence splitting cost on
// hard-wrapped and line-structured documents, against splitting at every line break too?
//
// Builds small labelled mixes from ../shared/corpora in which the in-domain source is
// hard-wrapped or line-structured (30% of the characters, the rest near-domain and other
// distractors), fits a method on held-out documents of the in-domain source (the task) with
// a 5,000-sentence general sample drawn from the mix (whole segments, as the product draws
// it; SAMPLE=sentences: single sentences), scores every sentence, averages
// 15-sentence segments of one document (as `tadpole filter`), keeps the lowest-scoring 20%
// of the BYTES and prints the share of kept characters that came from the in-domain source.
// The same mix is segmented several ways (SPLITS=a,b,...; default all):
//   whole   - whole sentences (maxWrappedLength Infinity: no cap on hard-wrapped sentences),
//   split   - splitSentences as it is now (what `tadpole split` and filter use),
//   lines   - whole sentences, then cut at every line break too (splitting by lines),
//   capN    - whole sentences longer than N characters cut at their line breaks,
//   packN   - the same, but lines packed into pieces of at most N characters.
//
// usage: npx tsc -p tsconfig.json && node scripts/research/line-structure.js [METHOD...]
// env: MIX_BYTES (default 1.5e6 per mix), SEED (default 42), MIXES (comma list), DOC_CONTEXT=K
// (segments scored as `tadpole filter --doc-context K` does; unset: the plain mean)
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { splitSentences } from '../../dist/text/sentences.js';
import { fitModel } from '../../dist/model/fit.js';
import { openScorer } from '../../dist/model/open.js';
import { selectKeptInMemory } from '../../dist/cut/exact.js';
import { Rng } from '../../dist/core/rng.js';
import { documentSegmentScores } from '../../dist/segment/context.js';
import { segmentBounds } from '../../dist/segment/segments.js';

const SHARED = process.env.TADPOLE_SHARED ?? join(process.cwd(), '..', 'shared');
const MIX_BYTES = Number(process.env.MIX_BYTES ?? 1.5e6);
const SEED = Number(process.env.SEED ?? 42);
const SEGMENT = 15;
const KEEP = 0.2;
const IN_SHARE = 0.3;

/** Documents of a corpus file (jsonl `text`), optionally filtered, optionally chopped into chunks of N paragraphs. */
async function readDocs(rel, { where, chunkParagraphs, wrap } = {}) {
  const out = [];
  const rl = createInterface({ input: createReadStream(join(SHARED, 'corpora', rel)).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line);
    if (typeof rec.text !== 'string' || !rec.text.trim()) continue;
    if (where && !where(rec)) continue;
    let texts = [rec.text];
    if (chunkParagraphs) texts = chunks(rec.text, chunkParagraphs);
    // Chunks of one book keep the book's id: the task never shares a book with the mix.
    for (const t of texts) out.push(Object.assign(new String(wrap ? hardWrap(t, wrap) : t), { group: String(rec.id ?? out.length) }));
  }
  return out;
}

/**
 * Books and speeches become documents of `paragraphs` paragraphs, and at most CHUNK_CHARS
 * characters (cut at a line break): verse has no blank lines, and a whole book as one
 * document would be most of a mix.
 */
const CHUNK_CHARS = 6000;
function chunks(text, paragraphs) {
  const out = [];
  let cur = [];
  let len = 0;
  let paras = 0;
  for (const line of text.split('\n')) {
    cur.push(line);
    len += line.length + 1;
    if (!line.trim()) paras++;
    if (paras >= paragraphs || len >= CHUNK_CHARS) {
      if (cur.join('').trim()) out.push(cur.join('\n'));
      cur = [];
      len = 0;
      paras = 0;
    }
  }
  if (cur.join('').trim()) out.push(cur.join('\n'));
  return out;
}

/** Re-wrap every paragraph line at `width` columns (what mail and Gutenberg did). */
export function hardWrap(text, width) {
  return text.split('\n').map((line) => {
    const words = line.split(/ +/);
    const lines = [];
    let cur = '';
    for (const w of words) {
      if (cur && cur.length + 1 + w.length > width) { lines.push(cur); cur = w; } else cur = cur ? cur + ' ' + w : w;
    }
    lines.push(cur);
    return lines.join('\n');
  }).join('\n');
}

const ng = (group) => (r) => r.newsgroup === group;
const ngAny = (...groups) => (r) => groups.includes(r.newsgroup);

/** in: in-domain source docs (task = a disjoint part); out: distractors {label: docs}. */
const MIXES = {
  // Hard-wrapped e-mail with quoted lines and signatures; near-domain: other newsgroups.
  'forum-space': async () => ({ in: await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ng('sci.space') }), out: {
    'forum-other': await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ngAny('sci.electronics', 'sci.crypt', 'comp.graphics', 'rec.autos') }),
    news: await readDocs('news-reuters21578-apte/docs.jsonl.gz'),
    speech: await readDocs('speech-us-presidential/docs.jsonl.gz', { chunkParagraphs: 6 }),
  } }),
  // Gutenberg books (hard-wrapped at ~70 columns), chopped into 30-paragraph documents.
  fiction: async () => {
    const books = await readDocs('fiction-gutenberg/docs.jsonl.gz', { chunkParagraphs: 30 });
    return { in: books, out: {
      reviews: await readDocs('reviews-movie-polarity2/docs.jsonl.gz'),
      speech: await readDocs('speech-us-presidential/docs.jsonl.gz', { chunkParagraphs: 6 }),
      forum: await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ngAny('rec.motorcycles', 'talk.politics.misc', 'soc.religion.christian') }),
    } };
  },
  // Patient leaflets: headings, bullet lists, one block per line; near-domain: clinical abstracts, sci.med.
  leaflets: async () => ({ in: await readDocs('medical-patient-leaflets/docs.jsonl.gz'), out: {
    ohsumed: await readDocs('bio-ohsumed/docs.jsonl.gz'),
    'forum-med': await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ng('sci.med') }),
    news: await readDocs('news-bbc/docs.jsonl.gz'),
  } }),
  // Reuters: hard-wrapped, indented paragraphs, capitalised headline; near-domain: WSJ, BBC business.
  reuters: async () => ({ in: await readDocs('news-reuters21578-apte/docs.jsonl.gz'), out: {
    wsj: await readDocs('news-wsj-ptb-sample/docs.jsonl.gz'),
    bbc: await readDocs('news-bbc/docs.jsonl.gz'),
    'forum-forsale': await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ngAny('misc.forsale', 'talk.politics.mideast') }),
  } }),
  // Everything re-wrapped at 70 columns: BBC in-domain against speeches and forum politics.
  'wrapped-news': async () => ({ in: await readDocs('news-bbc/docs.jsonl.gz', { wrap: 70 }), out: {
    speech: await readDocs('speech-us-presidential/docs.jsonl.gz', { chunkParagraphs: 6, wrap: 70 }),
    'forum-politics': await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ngAny('talk.politics.misc', 'talk.politics.guns') }),
    wsj: await readDocs('news-wsj-ptb-sample/docs.jsonl.gz', { wrap: 70 }),
  } }),
  // Only the in-domain source hard-wrapped (BBC at 70 columns); distractors as published.
  'wrapped-in-only': async () => ({ in: await readDocs('news-bbc/docs.jsonl.gz', { wrap: 70 }), out: {
    speech: await readDocs('speech-us-presidential/docs.jsonl.gz', { chunkParagraphs: 6 }),
    'forum-politics': await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ngAny('talk.politics.misc', 'talk.politics.guns') }),
    wsj: await readDocs('news-wsj-ptb-sample/docs.jsonl.gz'),
  } }),
  // Only the distractors hard-wrapped; the in-domain BBC text unwrapped.
  'wrapped-out-only': async () => ({ in: await readDocs('news-bbc/docs.jsonl.gz'), out: {
    speech: await readDocs('speech-us-presidential/docs.jsonl.gz', { chunkParagraphs: 6, wrap: 70 }),
    'forum-politics': await readDocs('forum-20newsgroups/docs.jsonl.gz', { where: ngAny('talk.politics.misc', 'talk.politics.guns') }),
    wsj: await readDocs('news-wsj-ptb-sample/docs.jsonl.gz', { wrap: 70 }),
  } }),
};

function shuffle(a, rng) {
  for (let i = a.length - 1; i > 0; i--) { const j = rng.int(i + 1); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

function take(docs, bytes) {
  const out = [];
  let n = 0;
  for (const d of docs) { if (n >= bytes) break; out.push(d); n += d.length; }
  return out;
}

/** Cut every span at line breaks too (trimmed, empty pieces dropped). */
function atLineBreaks(text, spans) {
  const out = [];
  for (let i = 0; i < spans.length; i += 2) {
    let s = spans[i];
    const e = spans[i + 1];
    for (let p = s; p <= e; p++) {
      if (p === e || text.charCodeAt(p) === 10) {
        let a = s, b = p;
        while (a < b && /\s/.test(text[a])) a++;
        while (b > a && /\s/.test(text[b - 1])) b--;
        if (b > a) out.push(a, b);
        s = p + 1;
      }
    }
  }
  return out;
}

/** Sentences before the long-sentence cap (whole hard-wrapped sentences). */
const whole = (t) => splitSentences(t, { maxWrappedLength: Infinity });

export const SPLITS = {
  whole,
  split: (t) => splitSentences(t),
  lines: (t) => atLineBreaks(t, whole(t)),
  cap300: (t) => capAtLineBreaks(t, whole(t), 300),
  cap150: (t) => capAtLineBreaks(t, whole(t), 150),
  cap200: (t) => capAtLineBreaks(t, whole(t), 200),
  cap400: (t) => capAtLineBreaks(t, whole(t), 400),
  pack200: (t) => packLines(t, whole(t), 200),
  pack300: (t) => packLines(t, whole(t), 300),
};

/** Spans longer than `max` are cut at line breaks into runs of whole lines of at most `max` characters. */
function packLines(text, spans, max) {
  const out = [];
  for (let i = 0; i < spans.length; i += 2) {
    if (spans[i + 1] - spans[i] <= max) { out.push(spans[i], spans[i + 1]); continue; }
    const lines = atLineBreaks(text, [spans[i], spans[i + 1]]);
    let a = lines[0], b = lines[1];
    for (let j = 2; j < lines.length; j += 2) {
      if (lines[j + 1] - a > max) { out.push(a, b); a = lines[j]; }
      b = lines[j + 1];
    }
    out.push(a, b);
  }
  return out;
}

/** Spans longer than `max` characters are cut at their line breaks. */
function capAtLineBreaks(text, spans, max) {
  const out = [];
  for (let i = 0; i < spans.length; i += 2) {
    if (spans[i + 1] - spans[i] <= max) out.push(spans[i], spans[i + 1]);
    else out.push(...atLineBreaks(text, [spans[i], spans[i + 1]]));
  }
  return out;
}

async function build(name) {
  const rng = new Rng(SEED);
  const src = await MIXES[name]();
  // A quarter of the in-domain documents, whole groups (books) at a time, is the task.
  const groups = shuffle([...new Set(src.in.map((d) => d.group))], rng);
  const taskGroups = new Set();
  let nTask = 0;
  for (const g of groups) {
    if (nTask >= src.in.length * 0.25) break;
    taskGroups.add(g);
    nTask += src.in.filter((d) => d.group === g).length;
  }
  const task = src.in.filter((d) => taskGroups.has(d.group)).map(String);
  const inDocs = shuffle(src.in.filter((d) => !taskGroups.has(d.group)), rng);
  const labels = ['in', ...Object.keys(src.out)];
  const pools = [inDocs.slice(nTask), ...Object.values(src.out).map((d) => shuffle(d.slice(), rng))];
  const outShare = (1 - IN_SHARE) / (labels.length - 1);
  const docs = [];
  pools.forEach((pool, l) => { for (const t of take(pool, MIX_BYTES * (l === 0 ? IN_SHARE : outShare))) docs.push({ t: String(t), l }); });
  shuffle(docs, rng);
  return { labels, docs, task };
}

function sentencesOf(text, spans) {
  const out = [];
  for (let i = 0; i < spans.length; i += 2) out.push(text.slice(spans[i], spans[i + 1]));
  return out;
}

async function evaluate(mix, split, method) {
  const rng = new Rng(SEED + 1);
  const task = mix.task.flatMap((t) => sentencesOf(t, split(t)));
  const perDoc = mix.docs.map((d) => ({ l: d.l, spans: split(d.t), t: d.t }));
  const all = perDoc.flatMap((d) => sentencesOf(d.t, d.spans));
  // The general sample as the product draws it: whole 15-sentence segments with
  // their groups, about 5,000 sentences; SAMPLE=sentences for single sentences (before).
  let general;
  let generalGroups;
  const SAMPLE_N = Number(process.env.GENERAL ?? 5000);
  if (process.env.SAMPLE === "sentences") general = shuffle(all.slice(), rng).slice(0, SAMPLE_N);
  else {
    const segs = [];
    let at = 0;
    for (const d of perDoc) {
      const n = d.spans.length / 2;
      const b = segmentBounds(n, SEGMENT);
      for (let x = 0; x < b.length; x += 2) segs.push([at + b[x], b[x + 1]]);
      at += n;
    }
    general = [];
    const g = [];
    shuffle(segs, rng).some(([first, count], id) => {
      for (let j = 0; j < count && general.length < SAMPLE_N; j++) { general.push(all[first + j]); g.push(id); }
      return general.length >= SAMPLE_N;
    });
    generalGroups = Uint32Array.from(g);
  }
  // METHOD may carry options as JSON after a colon: tadpole:{"rounds":0}.
  const [name, json] = method.split(/:(.*)/s);
  const model = await fitModel({ method: name, task, general, ...(generalGroups ? { generalGroups } : {}), seed: SEED, options: json ? JSON.parse(json) : {} });
  const scorer = await openScorer(model);
  let scores = await scorer.score(all);
  if (process.env.PER_WORD) scores = scores.map((v, i) => v / Math.max(1, all[i].split(/\s+/).length));
  await scorer.dispose();
  const segScores = [], segBytes = [], segLabel = [];
  let k = 0;
  for (const d of perDoc) {
    const n = d.spans.length / 2;
    const SEG_BYTES = Number(process.env.SEG_BYTES ?? Infinity);
    if (process.env.DOC_CONTEXT !== undefined) {
      // The product's segment scores (src/segment/context.ts): length-weighted, shrunk toward the document's mean.
      const bounds = segmentBounds(n, SEGMENT);
      const ctx = documentSegmentScores(scores, k, d.spans, bounds, Number(process.env.DOC_CONTEXT));
      for (let s = 0; s < bounds.length; s += 2) {
        const f = bounds[s];
        const c = bounds[s + 1];
        segScores.push(ctx[s / 2]);
        segBytes.push(d.spans[2 * (f + c - 1) + 1] - d.spans[2 * f]);
        segLabel.push(d.l);
      }
      k += n;
      continue;
    }
    for (let f = 0, c = 0; f < n; f += c) {
      c = 1;
      while (c < SEGMENT && f + c < n && d.spans[2 * (f + c) + 1] - d.spans[2 * f] <= SEG_BYTES) c++;
      let s = 0;
      for (let i = 0; i < c; i++) s += scores[k + f + i];
      segScores.push(s / c);
      segBytes.push(d.spans[2 * (f + c - 1) + 1] - d.spans[2 * f]);
      segLabel.push(d.l);
    }
    k += n;
  }
  const kept = selectKeptInMemory(Float64Array.from(segScores), Float64Array.from(segBytes), KEEP);
  let keptIn = 0, keptAll = 0;
  for (let i = 0; i < kept.length; i++) if (kept[i]) { keptAll += segBytes[i]; if (segLabel[i] === 0) keptIn += segBytes[i]; }
  if (process.env.DIAG) {
    const by = {};
    for (let i = 0; i < kept.length; i++) { const b = (by[mix.labels[segLabel[i]]] ??= { segs: 0, bytes: 0, kept: 0, keptSegs: 0 }); b.segs++; b.bytes += segBytes[i]; if (kept[i]) { b.kept += segBytes[i]; b.keptSegs++; } }
    for (const [l, b] of Object.entries(by)) console.log(`   ${l}: ${b.segs} segments, mean ${(b.bytes / b.segs).toFixed(0)} B, kept ${(b.kept / 1e3).toFixed(0)} kB of ${(b.bytes / 1e3).toFixed(0)} kB in ${b.keptSegs} segments`);
  }
  const chars = perDoc.reduce((a, d) => a + d.t.length, 0);
  const inChars = perDoc.reduce((a, d) => a + (d.l === 0 ? d.t.length : 0), 0);
  return { precision: keptIn / keptAll, sentences: all.length, meanLen: all.reduce((a, s) => a + s.length, 0) / all.length, inShare: inChars / chars };
}

const methods = process.argv.slice(2).length ? process.argv.slice(2) : ['dsir'];
const names = process.env.MIXES ? process.env.MIXES.split(',') : Object.keys(MIXES);
const extra = process.env.SPLITS ? process.env.SPLITS.split(',') : Object.keys(SPLITS);
console.log(`| mix | in-domain share | method | ${extra.map((s) => `${s}: kept in-domain (sentences, mean chars)`).join(' | ')} |`);
console.log(`|---|---|---|${extra.map(() => '---').join('|')}|`);
for (const name of names) {
  const mix = await build(name);
  for (const method of methods) {
    const cells = [];
    let share = 0;
    for (const s of extra) {
      const r = await evaluate(mix, SPLITS[s], method);
      share = r.inShare;
      cells.push(`${(100 * r.precision).toFixed(1)}% (${r.sentences}, ${r.meanLen.toFixed(0)})`);
    }
    console.log(`| ${name} | ${(100 * share).toFixed(1)}% | ${method} | ${cells.join(' | ')} |`);
  }
}
