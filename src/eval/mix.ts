import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { Rng } from '../core/rng.js';
import { TadpoleError } from '../core/errors.js';
import { readSourceDocs } from './sources.js';
import type { SourceSpec } from './spec.js';

export interface LabelCounts {
  /** Documents and UTF-8 bytes the source has (after normalisation). */
  availableDocs: number;
  availableBytes: number;
  /** Budget asked for, in bytes (Infinity when the source is taken whole). */
  budgetBytes: number;
  /** What went into the mix. */
  docs: number;
  bytes: number;
}

export interface MixResult {
  file: string;
  /** Label of each distinct source label, in spec order; docLabel indexes into it. */
  labels: string[];
  /** Mix document ordinal -> label index. */
  docLabel: Uint8Array;
  counts: Record<string, LabelCounts>;
  totalDocs: number;
  totalBytes: number;
}

export interface MixOptions {
  sources: SourceSpec[];
  seed: number;
  /** Total bytes for `share` sources; default: the largest total every share fits in. */
  mixBytes?: number;
  out: string;
  log?: (line: string) => void;
}

/** Pass 1: document byte lengths of a source (numbers only, never the text). */
async function docLengths(src: SourceSpec): Promise<Float64Array> {
  const lens: number[] = [];
  for await (const doc of readSourceDocs(src)) lens.push(Buffer.byteLength(doc, 'utf8'));
  return Float64Array.from(lens);
}

/** Byte budget per source from shares / bytes / maxDocs and what exists. */
export function budgets(sources: SourceSpec[], available: number[], mixBytes?: number): number[] {
  let total = mixBytes;
  if (total === undefined) {
    total = Infinity;
    sources.forEach((s, i) => {
      if (s.share !== undefined) total = Math.min(total as number, (available[i] as number) / s.share);
    });
  }
  return sources.map((s) => (s.bytes !== undefined ? s.bytes : s.share !== undefined ? s.share * (total as number) : Infinity));
}

/**
 * Seeded choice of which documents of a source go in: a shuffled walk that takes a
 * document when at least half of it fits in what is left of the budget, so the
 * budget is met to within half a document without favouring short documents.
 */
export function chooseDocs(lengths: Float64Array, budget: number, maxDocs: number, rng: Rng): Uint8Array {
  const mask = new Uint8Array(lengths.length);
  const order = rng.shuffle(Array.from({ length: lengths.length }, (_, i) => i));
  let used = 0;
  let taken = 0;
  for (const i of order) {
    if (taken >= maxDocs || used >= budget) break;
    const len = lengths[i] as number;
    if (used + len / 2 > budget) continue;
    mask[i] = 1;
    used += len;
    taken++;
  }
  return mask;
}

async function* selected(src: SourceSpec, mask: Uint8Array): AsyncIterable<string> {
  let i = 0;
  for await (const doc of readSourceDocs(src)) {
    if (mask[i++]) yield doc;
  }
}

/**
 * 8 MB of text per bucket: the one bucket shuffled in memory at a time stays small next
 * to the ~80 MB Node heap the rest of an eval uses, and 40 MB mixes need only 5 buckets.
 */
export const BUCKET_BYTES = 8_000_000;

async function writeLine(stream: WriteStream, line: string): Promise<void> {
  if (!stream.write(line)) await once(stream, 'drain');
}

async function closeStream(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'close');
}

/**
 * Build the labelled mix as JSONL ({"text","source"} per line): the chosen documents of
 * all sources in a seeded random order, streaming (memory holds one bucket of ~8 MB).
 */
export async function buildMix(opts: MixOptions): Promise<MixResult> {
  const { sources, seed, out, log } = opts;
  const labels: string[] = [];
  for (const s of sources) if (!labels.includes(s.label)) labels.push(s.label);
  if (labels.length > 255) throw new TadpoleError('TADPOLE_USAGE', `at most 255 source labels, got ${labels.length}`);

  const lengths: Float64Array[] = [];
  for (const s of sources) {
    log?.(`mix: counting ${s.label} (${s.files.length} file${s.files.length > 1 ? 's' : ''})`);
    const l = await docLengths(s);
    if (l.length === 0) throw new TadpoleError('TADPOLE_INPUT', `source "${s.label}" has no documents (${s.files.join(', ')})`);
    lengths.push(l);
  }
  const available = lengths.map((l) => l.reduce((a, b) => a + b, 0));
  const budget = budgets(sources, available, opts.mixBytes);
  const rng = new Rng(seed);
  const masks = sources.map((s, i) => chooseDocs(lengths[i] as Float64Array, budget[i] as number, s.maxDocs ?? Infinity, rng));
  const chosenBytes = masks.map((m, i) => m.reduce((a, on, j) => a + (on ? ((lengths[i] as Float64Array)[j] as number) : 0), 0));
  const totalChosen = chosenBytes.reduce((a, b) => a + b, 0);
  const labelIdx = sources.map((s) => labels.indexOf(s.label));
  const counts: Record<string, LabelCounts> = {};
  sources.forEach((s, i) => {
    const c = (counts[s.label] ??= { availableDocs: 0, availableBytes: 0, budgetBytes: 0, docs: 0, bytes: 0 });
    c.availableDocs += (lengths[i] as Float64Array).length;
    c.availableBytes += available[i] as number;
    c.budgetBytes += budget[i] as number;
  });

  // Two-pass external shuffle, so every prefix of the mix holds the sources in about the
  // requested proportions whatever order the files keep their documents in (OHSUMED is
  // sorted by category, the NER abstracts put whole splits first): pass 2 streams every
  // source once and drops each chosen document into a random bucket file; pass 3 shuffles
  // each bucket in memory and appends it to the mix.
  const nBuckets = Math.max(1, Math.ceil(totalChosen / BUCKET_BYTES));
  const bucketFiles = Array.from({ length: nBuckets }, (_, b) => `${out}.bucket${b}`);
  const buckets = bucketFiles.map((f) => createWriteStream(f));
  try {
    for (let k = 0; k < sources.length; k++) {
      const src = sources[k] as SourceSpec;
      log?.(`mix: drawing ${src.label} (${(((chosenBytes[k] as number) / 1e6)).toFixed(1)} MB)`);
      for await (const text of selected(src, masks[k] as Uint8Array)) {
        const bytes = Buffer.byteLength(text, 'utf8');
        await writeLine(buckets[rng.int(nBuckets)] as WriteStream, `${labelIdx[k]}\t${bytes}\t${JSON.stringify({ text, source: src.label })}\n`);
      }
    }
  } finally {
    await Promise.all(buckets.map(closeStream));
  }

  const docLabel: number[] = [];
  let totalBytes = 0;
  const stream = createWriteStream(out);
  try {
    for (const f of bucketFiles) {
      const lines = (await readFile(f, 'utf8')).split('\n');
      lines.pop();
      rng.shuffle(lines);
      for (const line of lines) {
        // "label index \t text bytes \t record": no JSON parse needed here.
        const t1 = line.indexOf('\t');
        const t2 = line.indexOf('\t', t1 + 1);
        const l = Number(line.slice(0, t1));
        const bytes = Number(line.slice(t1 + 1, t2));
        const rec = line.slice(t2 + 1);
        const label = labels[l] as string;
        const c = counts[label] as LabelCounts;
        c.docs++;
        c.bytes += bytes;
        totalBytes += bytes;
        docLabel.push(l);
        await writeLine(stream, rec + '\n');
      }
      await rm(f, { force: true });
    }
  } finally {
    await closeStream(stream);
    await Promise.all(bucketFiles.map((f) => rm(f, { force: true })));
  }
  return { file: out, labels, docLabel: Uint8Array.from(docLabel), counts, totalDocs: docLabel.length, totalBytes };
}
