import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir } from '../../src/core/shared.js';

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
