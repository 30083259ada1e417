import { createWriteStream } from 'node:fs';
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
 * Build the labelled mix as JSONL ({"text","source"} per line), streaming: documents of
 * all sources interleaved at random (seeded), each source drawn with probability
 * proportional to its bytes still to come, so every prefix of the mix has about the
 * requested proportions.
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
  const remaining = masks.map((m, i) => m.reduce((a, on, j) => a + (on ? ((lengths[i] as Float64Array)[j] as number) : 0), 0));

  const counts: Record<string, LabelCounts> = {};
  sources.forEach((s, i) => {
    const c = (counts[s.label] ??= { availableDocs: 0, availableBytes: 0, budgetBytes: 0, docs: 0, bytes: 0 });
    c.availableDocs += (lengths[i] as Float64Array).length;
    c.availableBytes += available[i] as number;
    c.budgetBytes += budget[i] as number;
  });

  const iters = sources.map((s, i) => selected(s, masks[i] as Uint8Array)[Symbol.asyncIterator]());
  const labelIdx = sources.map((s) => labels.indexOf(s.label));
  const docLabel: number[] = [];
  const stream = createWriteStream(out);
  let totalBytes = 0;
  try {
    for (;;) {
      const left = remaining.reduce((a, b) => a + b, 0);
      if (left <= 0) break;
      let r = rng.next() * left;
      let k = 0;
      while (k < remaining.length - 1 && r >= (remaining[k] as number)) r -= remaining[k++] as number;
      while ((remaining[k] as number) <= 0) k++;
      const next = await (iters[k] as AsyncIterator<string>).next();
      if (next.done) {
        remaining[k] = 0;
        continue;
      }
      const text = next.value;
      const bytes = Buffer.byteLength(text, 'utf8');
      remaining[k] = Math.max(0, (remaining[k] as number) - bytes);
      const label = (sources[k] as SourceSpec).label;
      const c = counts[label] as LabelCounts;
      c.docs++;
      c.bytes += bytes;
      totalBytes += bytes;
      docLabel.push(labelIdx[k] as number);
      if (!stream.write(JSON.stringify({ text, source: label }) + '\n')) await once(stream, 'drain');
    }
  } finally {
    stream.end();
    await once(stream, 'close');
  }
  // A source whose selected bytes ran out exactly still has an open iterator: close it.
  await Promise.all(iters.map((it) => it.return?.()));
  return { file: out, labels, docLabel: Uint8Array.from(docLabel), counts, totalDocs: docLabel.length, totalBytes };
}
