/**
 * `knn-tapt` (Gururangan et al. 2020, ../shared/papers/003). Two forms:
 * - the scorer: score = -(mean cosine similarity to the k nearest task sentences), so it
 *   plugs into segment -> cut -> emit like every method;
 * - the paper's own form, `knnTaptSelect`: the k nearest corpus sentences of every task
 *   sentence (flat cosine search), streaming the corpus in chunks with a bounded top-k heap
 *   per task sentence (memory k * |task| entries, independent of the corpus size).
 */
import { TadpoleError } from '../core/errors.js';
import { b64ToF32, f32ToB64 } from '../core/b64.js';
import { needTask } from './options.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';
import { buildTaskIndex, meanTopKSimilarity, restoreIndex, storeIndex, type StoredIndex } from './knn.js';
import { fitRepresentation, loadRepresentation, parseRepresentation, REPRESENTATION_OPTIONS, type Representation } from './representation.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';
import type { VectorIndex } from '../detect/hnsw.js';
import { normalizeRows } from './linalg.js';

class KnnTaptScorer implements SentenceScorer {
  readonly method = 'knn-tapt';
  constructor(private readonly rep: Representation, private readonly index: VectorIndex, private readonly k: number) {}
  async score(sentences: string[]): Promise<Float64Array> {
    const X = await this.rep.embed(sentences);
    const sim = meanTopKSimilarity(this.index, X, sentences.length, this.k);
    for (let i = 0; i < sim.length; i++) sim[i] = -(sim[i] as number);
    return sim;
  }
  async dispose(): Promise<void> {
    this.index.dispose();
  }
}

/**
 * The paper's own form as a scorer: `prepare` streams the corpus once and selects the k
 * nearest corpus sentences of every task sentence (knnTaptSelect); `score` then sees the
 * same sentences in the same order. Score = -(similarity to the nearest task sentence),
 * minus 2 for the selected ones, so the selection is kept first (as the paper keeps
 * exactly that set) and the rest of the requested share goes to the most similar.
 */
class PaperKnnTaptScorer implements SentenceScorer {
  readonly method = 'knn-tapt';
  private selected: Set<number> | undefined;
  private next = 0;
  constructor(private readonly rep: Representation, private readonly taskX: Float32Array, private readonly index: VectorIndex, private readonly k: number) {}

  async prepare(corpus: AsyncIterable<string[]>): Promise<void> {
    const rep = this.rep;
    async function* chunks() {
      let firstId = 0;
      for await (const batch of corpus) {
        yield { X: await rep.embed(batch), n: batch.length, firstId };
        firstId += batch.length;
      }
    }
    this.selected = await knnTaptSelect(this.taskX, this.rep.dims, chunks(), this.k);
    this.next = 0;
  }

  async score(sentences: string[]): Promise<Float64Array> {
    if (!this.selected) throw new TadpoleError('TADPOLE_USAGE', 'knn-tapt form=paper selects against the whole corpus: use tadpole filter, score or eval on files');
    const X = await this.rep.embed(sentences);
    const sim = meanTopKSimilarity(this.index, X, sentences.length, 1);
    const out = new Float64Array(sentences.length);
    for (let i = 0; i < sentences.length; i++) out[i] = -(sim[i] as number) - (this.selected.has(this.next++) ? 2 : 0);
    return out;
  }

  async dispose(): Promise<void> {
    this.index.dispose();
  }
}

const KNN_TAPT_OPTIONS: readonly OptionDecl[] = [
  { name: 'k', type: 'int', default: 1, min: 1, help: 'nearest task sentences averaged' },
  { name: 'form', type: 'choice', default: 'similarity', choices: ['similarity', 'paper'], help: 'similarity: to the nearest task sentences; paper: the k nearest corpus sentences of each task sentence (one process over the whole corpus)' },
  ...REPRESENTATION_OPTIONS,
];
const knnTaptReader = (options: Record<string, unknown>) => optionReader({ label: 'method knn-tapt', options: KNN_TAPT_OPTIONS }, options);

export const knnTaptSelector: SelectorFactory = {
  method: 'knn-tapt',
  summary: 'similarity to the nearest task sentences (kNN-TAPT, Gururangan et al. 2020)',
  needsEmbedder: false,
  explain: 'knn-tapt (Gururangan et al. 2020): sentence vectors (LSA or an embedder); a sentence\nscores by its cosine similarity to the nearest task sentences.',
  options: KNN_TAPT_OPTIONS,
  needsGeneral: false,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'knn-tapt');
    const read = knnTaptReader(ctx.options);
    const k = read.number('k');
    const form = read.string('form');
    const kind = parseRepresentation(read.string('representation'));
    const rep = fitRepresentation({ kind, embedder: ctx.embedder, text: [...ctx.task, ...ctx.general], dims: read.number('dims'), seed: ctx.seed });
    const X = await rep.embed(ctx.task);
    const ix = buildTaskIndex(X, ctx.task.length, rep.dims, ctx.seed);
    const stored = storeIndex(ix);
    ix.dispose();
    const state: Record<string, unknown> = { representation: rep.toJSON(), index: stored };
    // The paper's form needs the task rows themselves for its exact flat search.
    if (form === 'paper') state.taskX = f32ToB64(X);
    return { method: 'knn-tapt', params: { k, form, representation: rep.kind }, state };
  },
  async load(json, ctx): Promise<SentenceScorer> {
    const rep = loadRepresentation(json.state.representation as Record<string, unknown>, ctx.embedder);
    const k = knnTaptReader(ctx.options).maybeNumber('k') ?? Number(json.params.k ?? 1);
    if (json.params.form === 'paper') return new PaperKnnTaptScorer(rep, b64ToF32(String(json.state.taskX)), restoreIndex(json.state.index as StoredIndex), k);
    return new KnnTaptScorer(rep, restoreIndex(json.state.index as StoredIndex), k);
  },
};

/** A corpus chunk: n rows of dims floats, corpus ids firstId..firstId+n-1. */
export interface CorpusChunk {
  X: Float32Array;
  n: number;
  firstId: number;
}

/**
 * The paper's kNN-TAPT: for each task row, its k most cosine-similar corpus rows; returns
 * the union of their ids. Exact (flat search, as the paper does). Ties go to the lower id.
 */
export async function knnTaptSelect(taskX: Float32Array, dims: number, chunks: AsyncIterable<CorpusChunk>, k: number): Promise<Set<number>> {
  const t = taskX.length / dims;
  const T = normalizeRows(Float32Array.from(taskX), t, dims);
  // Per task row a min-heap of (similarity, id) of size <= k: the root is the worst kept.
  const sims = new Float64Array(t * k);
  const ids = new Float64Array(t * k);
  const sizes = new Int32Array(t);
  for await (const chunk of chunks) {
    const C = normalizeRows(Float32Array.from(chunk.X.subarray(0, chunk.n * dims)), chunk.n, dims);
    for (let q = 0; q < t; q++) {
      for (let r = 0; r < chunk.n; r++) {
        let s = 0;
        for (let j = 0; j < dims; j++) s += (T[q * dims + j] as number) * (C[r * dims + j] as number);
        heapOffer(sims, ids, sizes, q, k, s, chunk.firstId + r);
      }
    }
  }
  const out = new Set<number>();
  for (let q = 0; q < t; q++) for (let j = 0; j < (sizes[q] as number); j++) out.add(ids[q * k + j] as number);
  return out;
}

/** "a is worse than b": lower similarity, or equal similarity and higher id. */
function worse(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}

function heapOffer(sims: Float64Array, ids: Float64Array, sizes: Int32Array, q: number, k: number, s: number, id: number): void {
  const base = q * k;
  let n = sizes[q] as number;
  if (n < k) {
    let i = n++;
    sizes[q] = n;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(s, id, sims[base + p] as number, ids[base + p] as number)) break;
      sims[base + i] = sims[base + p] as number;
      ids[base + i] = ids[base + p] as number;
      i = p;
    }
    sims[base + i] = s;
    ids[base + i] = id;
    return;
  }
  if (!worse(sims[base] as number, ids[base] as number, s, id)) return;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    let c = l;
    const r = l + 1;
    if (r < n && worse(sims[base + r] as number, ids[base + r] as number, sims[base + l] as number, ids[base + l] as number)) c = r;
    if (!worse(sims[base + c] as number, ids[base + c] as number, s, id)) break;
    sims[base + i] = sims[base + c] as number;
    ids[base + i] = ids[base + c] as number;
    i = c;
  }
  sims[base + i] = s;
  ids[base + i] = id;
}
