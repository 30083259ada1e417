/**
 * `textgram` (Hiwarkhedkar et al., ../shared/papers/002): the paper keeps the task
 * sentences that contain one of the 100 most frequent task bigrams, joins them with the
 * general corpus, links sentence pairs by embedding similarity ("paraphrase mining"),
 * runs PageRank on that graph and keeps the top-ranked general sentences. A graph over the
 * whole corpus cannot stream, so this is a streaming derivative:
 *  1. fit: top-`topBigrams` task bigrams -> the selected task sentences; graph = those
 *     sentences + the general sample, each node linked to its `graphK` most similar nodes
 *     (cosine, symmetrised); weighted PageRank (damping 0.85).
 *  2. reference = the selected task sentences with their PageRank and weighted degree.
 *  3. score(s) = -(PageRank mass that s would receive from the reference if it joined the
 *     graph with edges to its `k` most similar reference sentences):
 *       sum_j d * PR_j * sim(s, j) / (deg_j + sim(s, j)),
 *     i.e. one power-iteration step for a new node. Only task nodes send mass, so the score
 *     is task-adaptive; general nodes shape the ranks through PageRank at fit time.
 */
import { b64ToF32, f32ToB64 } from '../core/b64.js';
import { bigrams, tokenize } from '../text/ngrams.js';
import type { VectorIndex } from '../detect/hnsw.js';
import { needTask } from './options.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';
import { buildTaskIndex, restoreIndex, storeIndex, type StoredIndex } from './knn.js';
import { fitRepresentation, loadRepresentation, parseRepresentation, REPRESENTATION_OPTIONS, type Representation } from './representation.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';

const DAMPING = 0.85;

/** The `top` most frequent bigrams (ties by string order) and the sentences containing one. */
export function topBigramSentences(task: string[], top: number): { bigrams: string[]; selected: string[] } {
  const counts = new Map<string, number>();
  const perSentence = task.map((s) => bigrams(tokenize(s)));
  for (const bs of perSentence) for (const b of bs) counts.set(b, (counts.get(b) ?? 0) + 1);
  const topList = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top).map((e) => e[0]);
  const topSet = new Set(topList);
  const selected = task.filter((_, i) => perSentence[i]!.some((b) => topSet.has(b)));
  return { bigrams: topList, selected: selected.length > 0 ? selected : task };
}

/** Weighted PageRank on a symmetric graph given as adjacency lists. */
export function pageRank(adj: Map<number, number>[], iters = 50): { rank: Float64Array; degree: Float64Array } {
  const n = adj.length;
  const degree = Float64Array.from(adj, (m) => [...m.values()].reduce((a, b) => a + b, 0));
  let rank = new Float64Array(n).fill(1 / n);
  for (let it = 0; it < iters; it++) {
    const next = new Float64Array(n).fill((1 - DAMPING) / n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const di = degree[i] as number;
      if (di === 0) {
        dangling += rank[i] as number;
        continue;
      }
      for (const [j, w] of adj[i]!) next[j] = (next[j] as number) + (DAMPING * (rank[i] as number) * w) / di;
    }
    for (let i = 0; i < n; i++) next[i] = (next[i] as number) + (DAMPING * dangling) / n;
    rank = next;
  }
  return { rank, degree };
}

class TextgramScorer implements SentenceScorer {
  readonly method = 'textgram';
  constructor(
    private readonly rep: Representation,
    private readonly index: VectorIndex,
    private readonly rank: Float32Array,
    private readonly degree: Float32Array,
    private readonly k: number,
  ) {}
  async score(sentences: string[]): Promise<Float64Array> {
    const X = await this.rep.embed(sentences);
    const n = sentences.length;
    const r = this.index.search(X, n, this.k);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let inflow = 0;
      for (let j = 0; j < r.k; j++) {
        const sim = Math.max(0, 1 - (r.dists[i * r.k + j] as number));
        const id = r.ids[i * r.k + j] as number;
        inflow += (DAMPING * (this.rank[id] as number) * sim) / ((this.degree[id] as number) + sim);
      }
      out[i] = -inflow;
    }
    return out;
  }
  async dispose(): Promise<void> {
    this.index.dispose();
  }
}

const TEXTGRAM_OPTIONS: readonly OptionDecl[] = [
  { name: 'topBigrams', type: 'int', default: 100, min: 1, help: 'task sentences holding the task\'s most frequent bigrams: the graph\'s seeds' },
  { name: 'graphK', type: 'int', default: 10, min: 1, help: 'neighbours per node of the similarity graph' },
  { name: 'k', type: 'int', default: 10, min: 1, help: 'nearest seed sentences a scored sentence draws PageRank from' },
  ...REPRESENTATION_OPTIONS,
];
const textgramReader = (options: Record<string, unknown>) => optionReader({ label: 'method textgram', options: TEXTGRAM_OPTIONS }, options);

export const textgramSelector: SelectorFactory = {
  method: 'textgram',
  summary: 'top-bigram task sentences + similarity graph + PageRank (TextGram)',
  needsEmbedder: false,
  explain: 'textgram: the task sentences with its most frequent bigrams seed a similarity graph\nwith the general sample, ranked by PageRank; a sentence scores by the rank of its nearest seeds.',
  options: TEXTGRAM_OPTIONS,
  needsGeneral: false,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'textgram');
    const read = textgramReader(ctx.options);
    const top = read.number('topBigrams');
    const graphK = read.number('graphK');
    const k = read.number('k');
    const { bigrams: topList, selected } = topBigramSentences(ctx.task, top);
    const kind = parseRepresentation(read.string('representation'));
    const rep = fitRepresentation({ kind, embedder: ctx.embedder, text: [...ctx.task, ...ctx.general], dims: read.number('dims'), seed: ctx.seed });
    const nodes = [...selected, ...ctx.general];
    const X = await rep.embed(nodes);
    const all = buildTaskIndex(X, nodes.length, rep.dims, ctx.seed);
    const nn = all.search(X, nodes.length, graphK + 1);
    all.dispose();
    const adj = nodes.map(() => new Map<number, number>());
    for (let i = 0; i < nodes.length; i++) {
      for (let j = 0; j < nn.k; j++) {
        const id = nn.ids[i * nn.k + j] as number;
        const sim = 1 - (nn.dists[i * nn.k + j] as number);
        if (id === i || sim <= 0) continue;
        adj[i]!.set(id, Math.max(adj[i]!.get(id) ?? 0, sim));
        adj[id]!.set(i, Math.max(adj[id]!.get(i) ?? 0, sim));
      }
    }
    const { rank, degree } = pageRank(adj);
    const t = selected.length;
    const ix = buildTaskIndex(X.subarray(0, t * rep.dims), t, rep.dims, ctx.seed);
    const state = {
      representation: rep.toJSON(),
      index: storeIndex(ix),
      // Ranks scaled by the node count so they do not shrink as the graph grows.
      rank: f32ToB64(Float32Array.from(rank.subarray(0, t), (v) => v * nodes.length)),
      degree: f32ToB64(Float32Array.from(degree.subarray(0, t))),
      bigrams: topList,
    };
    ix.dispose();
    return { method: 'textgram', params: { topBigrams: top, graphK, k, representation: rep.kind, selected: t }, state };
  },
  async load(json, ctx): Promise<SentenceScorer> {
    const rep = loadRepresentation(json.state.representation as Record<string, unknown>, ctx.embedder);
    const k = textgramReader(ctx.options).maybeNumber('k') ?? Number(json.params.k ?? 10);
    return new TextgramScorer(rep, restoreIndex(json.state.index as StoredIndex), b64ToF32(json.state.rank as string), b64ToF32(json.state.degree as string), k);
  },
};
