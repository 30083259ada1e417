import { TadpoleError } from '../core/errors.js';
import { csvRows, readLines, readWhole } from '../io/lines.js';
import { normalizer } from './normalize.js';
import type { FileSetSpec, RecordFilter } from './spec.js';

/**
 * Source adapters: every corpus shape in ../shared/corpora becomes a stream of documents
 * (plain strings). Pre-split sentence arrays are joined with a space by default, so every
 * source goes through the same sentence splitter downstream.
 */

function parseJson(line: string, file: string, lineNo: number): Record<string, unknown> {
  try {
    const v = JSON.parse(line) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch (cause) {
    throw new TadpoleError('TADPOLE_INPUT', `invalid JSON at ${file}:${lineNo}: ${(cause as Error).message}`, { file, line: lineNo, cause });
  }
  throw new TadpoleError('TADPOLE_INPUT', `expected a JSON object at ${file}:${lineNo}`, { file, line: lineNo });
}

function stringsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

async function* jsonlRecords(file: string, fs: FileSetSpec): AsyncIterable<Record<string, unknown>> {
  let n = 0;
  for await (const line of readLines(file, fs.encoding)) {
    n++;
    if (line.trim() === '') continue;
    yield parseJson(line, file, n);
  }
}

function passes(where: RecordFilter, v: string): boolean {
  return !((where.in && !where.in.includes(v)) || (where.notIn && where.notIn.includes(v)));
}

/** The documents of one file in its corpus shape, before normalisation (its bytes read by src/io/lines.ts). */
async function* sourceDocs(file: string, fs: FileSetSpec): AsyncIterable<string> {
  const sep = fs.join === 'newline' ? '\n' : ' ';
  switch (fs.format) {
    case 'jsonl-text': {
      const field = fs.field ?? 'text';
      const where = fs.where;
      for await (const rec of jsonlRecords(file, fs)) {
        if (where && !passes(where, String(rec[where.field]))) continue;
        const t = rec[field];
        if (typeof t === 'string') yield t;
      }
      return;
    }
    case 'jsonl-sentences': {
      const field = fs.field ?? 'sentences';
      for await (const rec of jsonlRecords(file, fs)) yield stringsOf(rec[field]).join(sep);
      return;
    }
    case 'scisummnet': {
      for await (const rec of jsonlRecords(file, fs)) {
        const parts = stringsOf(rec.abstract);
        if (fs.parts !== 'abstract' && Array.isArray(rec.sections)) {
          for (const s of rec.sections as Array<Record<string, unknown>>) parts.push(...stringsOf(s?.sentences));
        }
        yield parts.join(sep);
      }
      return;
    }
    case 'pubmedqa': {
      // One JSON object keyed by PMID (1.6 MB): parsed whole; the only non-streaming adapter.
      const all = JSON.parse(await readWhole(file, fs.encoding)) as Record<string, Record<string, unknown>>;
      for (const key of Object.keys(all)) {
        const rec = all[key] as Record<string, unknown>;
        if (fs.field) {
          // One field as the document (QUESTION: a task of questions about the abstracts' topics).
          const one = rec[fs.field];
          if (typeof one === 'string') yield one;
          continue;
        }
        const parts = stringsOf(rec.CONTEXTS);
        if (typeof rec.LONG_ANSWER === 'string') parts.push(rec.LONG_ANSWER);
        yield parts.join(sep);
      }
      return;
    }
    case 'lines': {
      const cut = fs.stripAfterLast;
      const clean = (l: string) => {
        if (!cut) return l;
        const at = l.lastIndexOf(cut);
        return at >= 0 ? l.slice(0, at) : l;
      };
      if (fs.docs === 'blank-line') {
        let block: string[] = [];
        for await (const line of readLines(file, fs.encoding)) {
          if (line.trim() === '') {
            if (block.length) yield block.join('\n');
            block = [];
          } else block.push(clean(line));
        }
        if (block.length) yield block.join('\n');
      } else {
        for await (const line of readLines(file, fs.encoding)) yield clean(line);
      }
      return;
    }
    case 'csv': {
      let header: string[] | undefined;
      let idx: number[] = [];
      let whereAt = -1;
      const column = (c: string) => {
        const i = header!.indexOf(c);
        if (i < 0) throw new TadpoleError('TADPOLE_INPUT', `${file}: no column "${c}" (columns: ${header!.join(', ')})`, { file });
        return i;
      };
      for await (const rec of csvRows(file, fs.encoding)) {
        if (!header) {
          header = rec;
          idx = (fs.columns ?? ['text']).map(column);
          if (fs.where) whereAt = column(fs.where.field);
          continue;
        }
        if (fs.where && !passes(fs.where, rec[whereAt] ?? '')) continue;
        yield idx.map((i) => rec[i] ?? '').filter((s) => s.trim() !== '').join('\n');
      }
      return;
    }
    case 'wikitext': {
      // One article per top-level "= Title =" heading; "= = Sub = =" headings become lines.
      let article: string[] = [];
      for await (const line of readLines(file, fs.encoding)) {
        const t = line.trim();
        if (t === '') continue;
        const top = /^= [^=].*[^=] =$/.test(t);
        if (top && article.length) {
          yield article.join('\n');
          article = [];
        }
        const heading = /^(= )+(.*?)( =)+$/.exec(t);
        article.push(heading ? (heading[2] as string) : t);
      }
      if (article.length) yield article.join('\n');
      return;
    }
  }
}

/** Greedy pieces of about `size` characters, cut at `sep`; pieces are joined back with `sep`. */
function pack(parts: string[], size: number, sep: string): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let len = 0;
  for (const p of parts) {
    cur.push(p);
    len += p.length + sep.length;
    if (len >= size) {
      out.push(cur.join(sep));
      cur = [];
      len = 0;
    }
  }
  if (cur.length) out.push(cur.join(sep));
  return out;
}

/**
 * A long document cut at blank lines into pieces of about `size` characters; a paragraph
 * longer than twice that (web text: one item per line) is cut at its line breaks.
 */
export function chunkDocument(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const paragraphs = text.split(/\n[ \t]*\n/).flatMap((p) => (p.length > 2 * size ? pack(p.split('\n'), size, '\n') : [p]));
  return pack(paragraphs, size, '\n\n').map((c) => c.trim()).filter(Boolean);
}

/**
 * Documents of a file set: normalised, split if asked (by whole source document, so a
 * held-out book never shares text with the rest), chunked, deduplicated if asked, empty
 * ones dropped.
 */
export async function* readSourceDocs(fs: FileSetSpec): AsyncIterable<string> {
  const norm = normalizer(fs.normalize ?? []);
  const minChars = fs.minChars ?? 1;
  const seen = fs.dedupe ? new Set<string>() : undefined;
  let index = 0;
  for (const file of fs.files) {
    for await (const raw of sourceDocs(file, fs)) {
      const whole = norm(raw).trim();
      if (whole.length < minChars) continue;
      if (fs.split) {
        const heldOut = index++ % fs.split.every === 0;
        if (heldOut !== (fs.split.part === 'held-out')) continue;
      }
      for (const text of fs.chunkChars ? chunkDocument(whole, fs.chunkChars) : [whole]) {
        if (text.length < minChars) continue;
        if (seen) {
          if (seen.has(text)) continue;
          seen.add(text);
        }
        yield text;
      }
    }
  }
}
