import { Rng } from '../core/rng.js';
import { splitSentences } from '../text/sentences.js';
import { readDocuments, readKinds, type Doc, type ReadOptions, type ReaderOptions } from './documents.js';
import type { InputKind } from './input-kind.js';

export interface ReadSentencesOptions extends ReaderOptions {
  /** Keep at most this many sentences: a seeded reservoir sample, in input order. */
  limit?: number;
  seed?: number;
}

/** A batch of documents with each one's flat [start, end, ...] sentence spans. */
export interface SplitDocs {
  docs: Doc[];
  spans: ArrayLike<number>[];
}

/**
 * Splits document batches into sentence spans, handing them back in input order: on other
 * threads (threads/split-pool.ts), so a pass that reads a whole corpus to sample it is not
 * held to one core by the splitter.
 */
export type DocSplitter = (docBatches: AsyncIterable<Doc[]>) => AsyncIterable<SplitDocs>;

async function* splitHere(docBatches: AsyncIterable<Doc[]>): AsyncGenerator<SplitDocs> {
  for await (const docs of docBatches) yield { docs, spans: docs.map((d) => splitSentences(d.text)) };
}

/**
 * Every sentence of the inputs (for fitting on task data), or a seeded sample of them.
 * `split`: where the documents are split (default: this thread); the result is the same.
 */
export async function readSentences(inputs: readonly string[], opts: ReadSentencesOptions, ro: ReadOptions = {}, split: DocSplitter = splitHere): Promise<string[]> {
  const limit = opts.limit ?? Infinity;
  const rng = new Rng(opts.seed ?? 0);
  const keep: Array<{ i: number; s: string }> = [];
  let seen = 0;
  for await (const { docs, spans: all } of split(readDocuments(inputs, opts, ro))) {
    for (let d = 0; d < docs.length; d++) {
      const text = docs[d]!.text;
      const spans = all[d]!;
      for (let j = 0; j < spans.length; j += 2) {
        // Only sentences that enter the reservoir are cut from the text.
        if (keep.length < limit) keep.push({ i: seen, s: text.slice(spans[j], spans[j + 1]) });
        else {
          // Reservoir sampling (algorithm R): bounded memory over any corpus size.
          const r = rng.int(seen + 1);
          if (r < limit) keep[r] = { i: seen, s: text.slice(spans[j], spans[j + 1]) };
        }
        seen++;
      }
    }
  }
  if (limit !== Infinity) keep.sort((a, b) => a.i - b.i);
  return keep.map((k) => k.s);
}

/** Sentences in groups: `groups[i]` is sentence i's group; a group's sentences are consecutive. */
export interface GroupedSentences {
  sentences: string[];
  groups: Uint32Array;
}

/**
 * A seeded sample of whole segments (`group` consecutive sentences of a document, counted from
 * its start, as the pipeline cuts segments), `size` sentences in all (the last segment drawn
 * may give only its first sentences), in input order.
 * Every segment draws a random key and the segments with the smallest keys are kept until
 * they hold `size` sentences (bottom-k over segments): uniform over segments, bounded memory
 * over any corpus, and a corpus of one-sentence documents still gives `size` sentences.
 * Groups let a fit judge a segment by its mean, as the cut does (select/self-training.ts).
 */
export async function readSentenceGroups(kinds: readonly InputKind[], opts: ReaderOptions & { size: number; seed: number; group: number }, ro: ReadOptions = {}, split: DocSplitter = splitHere): Promise<GroupedSentences> {
  const rng = new Rng(opts.seed);
  const heap = new MaxKeyHeap();
  let total = 0;
  let seen = 0;
  for await (const { docs, spans: all } of split(readKinds(kinds, opts, ro))) {
    for (let d = 0; d < docs.length; d++) {
      const text = docs[d]!.text;
      const spans = all[d]!;
      const n = spans.length / 2;
      for (let f = 0; f < n; f += opts.group) {
        const key = rng.next();
        const order = seen++;
        // Full, and this segment would be the first to go: skip cutting its text.
        if (total >= opts.size && key >= heap.maxKey()) continue;
        const sentences: string[] = [];
        for (let j = f; j < Math.min(n, f + opts.group); j++) sentences.push(text.slice(spans[2 * j], spans[2 * j + 1]));
        heap.push({ key, order, sentences });
        total += sentences.length;
        while (total - heap.peek()!.sentences.length >= opts.size) total -= heap.pop()!.sentences.length;
      }
    }
  }
  // Exactly `size`: the segment that would go next gives up its last sentences.
  const last = heap.peek();
  if (last && total > opts.size) last.sentences.length -= total - opts.size;
  const kept = heap.items().sort((a, b) => a.order - b.order);
  const sentences: string[] = [];
  const groups: number[] = [];
  kept.forEach((seg, g) => {
    for (const s of seg.sentences) {
      sentences.push(s);
      groups.push(g);
    }
  });
  return { sentences, groups: Uint32Array.from(groups) };
}

interface KeyedSegment {
  key: number;
  order: number;
  sentences: string[];
}

/** A binary max-heap on `key` (the segment to drop first is on top). */
class MaxKeyHeap {
  private readonly a: KeyedSegment[] = [];
  maxKey(): number {
    return this.a.length ? this.a[0]!.key : Infinity;
  }
  peek(): KeyedSegment | undefined {
    return this.a[0];
  }
  items(): KeyedSegment[] {
    return [...this.a];
  }
  push(x: KeyedSegment): void {
    const a = this.a;
    a.push(x);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (a[p]!.key >= a[i]!.key) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  pop(): KeyedSegment | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]!.key > a[m]!.key) m = l;
        if (r < a.length && a[r]!.key > a[m]!.key) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}
