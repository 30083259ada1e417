import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir, sharedPath } from '../../src/core/shared.js';
import { csvRows } from '../../src/io/lines.js';
import { stripEmailHeaders } from '../../src/eval/normalize.js';

/** JSONL records of a gzipped corpus file under shared/corpora, first `limit`. */
export function corpusRecords(rel: string, limit = Infinity): Array<Record<string, unknown>> {
  const dir = sharedDir();
  if (!dir) throw new Error('shared corpora not found: set TADPOLE_SHARED or place ../shared beside the checkout');
  const text = gunzipSync(readFileSync(join(dir, 'corpora', rel))).toString('utf8');
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    out.push(JSON.parse(line) as Record<string, unknown>);
    if (out.length >= limit) break;
  }
  return out;
}

/** ChemProt task sentences with the entity markers removed, de-duplicated. */
export function chemprotSentences(limit = Infinity): string[] {
  const seen = new Set<string>();
  for (const r of corpusRecords('task-chemprot/train.jsonl.gz')) {
    const t = String(r.text).replace(/<< | >>|\[\[ | \]\]/g, '');
    seen.add(t);
    if (seen.size >= limit) break;
  }
  return [...seen];
}

/** A labelled mix of real documents: bio (OHSUMED), news (BBC), cs (ACL papers' abstracts), fiction (Gutenberg paragraphs). */
export function realMix(perSource = 60): Array<{ text: string; source: string }> {
  const docs: Array<{ text: string; source: string }> = [];
  for (const r of corpusRecords('bio-ohsumed/docs.jsonl.gz', perSource)) docs.push({ text: String(r.text), source: 'bio' });
  for (const r of corpusRecords('news-bbc/docs.jsonl.gz', perSource)) docs.push({ text: String(r.text), source: 'news' });
  for (const r of corpusRecords('cs-scisummnet-acl-papers/docs.jsonl.gz', perSource)) docs.push({ text: (r.abstract as string[]).join(' '), source: 'cs' });
  const book = String(corpusRecords('fiction-gutenberg/docs.jsonl.gz', 1)[0]!.text);
  const paras = book.split(/\n\s*\n/).filter((p) => p.trim().length > 200).slice(0, perSource);
  for (const p of paras) docs.push({ text: p, source: 'fiction' });
  // Deterministic interleave so sources are spread through the file.
  return docs.map((d, i) => ({ d, k: (i * 2654435761) % 4294967296 })).sort((a, b) => a.k - b.k).map((x) => x.d);
}

/** AG News sports items (title + description): mostly US leagues. */
export async function agNewsSports(limit: number): Promise<string[]> {
  const out: string[] = [];
  let header = true;
  for await (const r of csvRows(sharedPath('corpora', 'task-ag-news', 'test.csv.gz'))) {
    if (header) {
      header = false;
      continue;
    }
    if (r[0] === '2') out.push(`${r[1]}. ${(r[2] ?? '').replace(/\\/g, ' ')}`);
    if (out.length >= limit) break;
  }
  return out;
}

/** Usenet hockey and baseball posts, email headers stripped. */
export function sportForumPosts(): string[] {
  return corpusRecords('forum-20newsgroups/docs.jsonl.gz')
    .filter((r) => r.newsgroup === 'rec.sport.hockey' || r.newsgroup === 'rec.sport.baseball')
    .map((r) => stripEmailHeaders(String(r.text)));
}

/**
 * The check suite's topic-sport case in small: BBC sport (50 stories), BBC politics and
 * entertainment (70) and Usenet hockey and baseball posts (the first 90), interleaved.
 */
export function sportMix(): Array<{ text: string; source: string }> {
  const bbc = corpusRecords('news-bbc/docs.jsonl.gz');
  const docs: Array<{ text: string; source: string }> = [];
  for (const r of bbc.filter((r) => r.category === 'sport').slice(0, 50)) docs.push({ text: String(r.text), source: 'sport' });
  for (const r of bbc.filter((r) => r.category === 'politics' || r.category === 'entertainment').slice(0, 70)) docs.push({ text: String(r.text), source: 'news-other' });
  for (const text of sportForumPosts().slice(0, 90)) docs.push({ text, source: 'forum-sport' });
  return docs.map((d, i) => ({ d, k: (i * 2654435761) % 4294967296 })).sort((a, b) => a.k - b.k).map((x) => x.d);
}

/** Share of the kept characters by source, the suite's measure, from a filter's JSONL output. */
export function keptShareBySource(file: string): Record<string, number> {
  const kept = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { source: string; text: string });
  const all = kept.reduce((a, d) => a + d.text.length, 0);
  const share: Record<string, number> = {};
  for (const d of kept) share[d.source] = (share[d.source] ?? 0) + d.text.length / all;
  return share;
}
