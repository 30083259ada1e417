/**
 * What a kept (or any) text is made of: its pieces grouped by what they talk about, each
 * group with its share of the text, its most distinctive words and a few example sentences,
 * so that a user can see at a glance that, say, a third of what was kept is forum chatter
 * about the task's topic, and hand that group to `fit --avoid` (docs/research.md,
 * "Groups of the kept text"). A piece is a segment of the sample (`unitOf`), grouped by
 * spherical k-means on the sum of its sentences' LSA rows.
 */
import { TadpoleError } from '../core/errors.js';
import { Lsa } from '../select/lsa.js';
import { FUNCTION_WORDS } from '../text/function-words.js';
import { sphericalKMeans } from './kmeans.js';

export interface GroupOptions {
  /** Groups wanted (fewer when there are fewer pieces, or a cluster empties). */
  groups: number;
  seed: number;
  /** Example sentences per group (default 3). */
  examples?: number;
  /** Distinctive words per group (default 8). */
  words?: number;
  /** Per-sentence scores (lower: more task-like), e.g. a model's: each group gets their mean. */
  scores?: ArrayLike<number>;
  /** Sentences to place among the groups (the task): each group gets the share nearest it. */
  reference?: readonly string[];
}

export interface TextGroup {
  /** 1, 2, ...: by share of the text, largest first. */
  id: number;
  /** Pieces (segments) in the group. */
  pieces: number;
  /** The group's sentences, in input order, and their indices in the input. */
  sentences: string[];
  indices: number[];
  /** UTF-16 characters of its sentences, and their share of all. */
  chars: number;
  share: number;
  /** Words most over-represented in the group against the whole text. */
  words: string[];
  /** Sentences of the pieces nearest the group's centre. */
  examples: string[];
  /** Mean score of its sentences, when scores were given. */
  meanScore?: number;
  /** Share of the reference sentences whose nearest group this is, when a reference was given. */
  referenceShare?: number;
}

const WORD = /\p{L}[\p{L}\p{N}'’-]*/gu;
const SKIP = new Set(FUNCTION_WORDS);
/** An example longer than this is cut with an ellipsis: a line of the report, not a page. */
const EXAMPLE_CHARS = 160;

function wordsOf(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    if (w.length >= 3 && !SKIP.has(w)) out.push(w);
  }
  return out;
}

/**
 * Group `sentences` by piece: `unitOf[i]` is the piece sentence i belongs to (a piece's
 * sentences need not be consecutive). Deterministic for the same input and seed.
 */
export function groupText(sentences: readonly string[], unitOf: ArrayLike<number>, opts: GroupOptions): TextGroup[] {
  if (sentences.length !== unitOf.length) throw new TadpoleError('TADPOLE_USAGE', 'groupText: one piece id per sentence');
  if (!(opts.groups >= 1)) throw new TadpoleError('TADPOLE_USAGE', `groups must be at least 1 (got ${opts.groups})`);
  if (sentences.length === 0) return [];
  const pieceIds = [...new Set(Array.from(unitOf))].sort((a, b) => a - b);
  const pieceIndex = new Map(pieceIds.map((p, i) => [p, i]));
  const n = pieceIds.length;
  // No word n-gram shared by two sentences: nothing to group by, so one group of everything.
  let lsa: Lsa | undefined;
  try {
    lsa = Lsa.fit([...sentences], { dims: 64, seed: opts.seed });
  } catch (err) {
    if (!(err instanceof TadpoleError && err.code === 'TADPOLE_INPUT')) throw err;
  }
  const d = lsa?.dims ?? 1;
  const rows = lsa ? lsa.transform([...sentences]) : new Float32Array(sentences.length);
  const pieces = new Float64Array(n * d);
  for (let i = 0; i < sentences.length; i++) {
    const p = pieceIndex.get(unitOf[i] as number) as number;
    for (let x = 0; x < d; x++) pieces[p * d + x] += rows[i * d + x] as number;
  }
  for (let p = 0; p < n; p++) {
    let norm = 0;
    for (let x = 0; x < d; x++) norm += (pieces[p * d + x] as number) ** 2;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let x = 0; x < d; x++) pieces[p * d + x] = (pieces[p * d + x] as number) / norm;
  }
  const { assign, similarity, centroids } = sphericalKMeans(pieces, n, d, opts.groups, opts.seed);
  const referenceCount = new Float64Array(opts.groups);
  if (opts.reference?.length) {
    const ref = lsa ? lsa.transform([...opts.reference]) : new Float32Array(opts.reference.length * d);
    for (let i = 0; i < opts.reference.length; i++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let c = 0; c < opts.groups && c * d < centroids.length; c++) {
        let s = 0;
        for (let x = 0; x < d; x++) s += (ref[i * d + x] as number) * (centroids[c * d + x] as number);
        if (s > bestSim) {
          bestSim = s;
          best = c;
        }
      }
      referenceCount[best] = (referenceCount[best] as number) + 1;
    }
  }

  const k = Math.max(...assign) + 1;
  const members = Array.from({ length: k }, () => [] as number[]);
  sentences.forEach((_, i) => members[assign[pieceIndex.get(unitOf[i] as number) as number] as number]?.push(i));
  const totalChars = sentences.reduce((a, s) => a + s.length, 0);
  const allCounts = new Map<string, number>();
  let allWords = 0;
  const groupCounts = members.map((idx) => {
    const counts = new Map<string, number>();
    for (const i of idx) {
      for (const w of wordsOf(sentences[i] as string)) {
        counts.set(w, (counts.get(w) ?? 0) + 1);
        allCounts.set(w, (allCounts.get(w) ?? 0) + 1);
        allWords++;
      }
    }
    return counts;
  });

  const groups = members
    .map((idx, c) => {
      const counts = groupCounts[c] as Map<string, number>;
      let groupWords = 0;
      for (const v of counts.values()) groupWords += v;
      // Over-representation weighted by frequency (a pointwise KL term): frequent in the
      // group and rarer elsewhere. Words seen fewer than 3 times say little about a group.
      const words = [...counts]
        .filter(([, v]) => v >= 3)
        .map(([w, v]) => [w, (v / groupWords) * Math.log(v / groupWords / ((allCounts.get(w) as number) / allWords))] as const)
        .filter(([, s]) => s > 0)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, opts.words ?? 8)
        .map(([w]) => w);
      const groupPieces = [...new Set(idx.map((i) => pieceIndex.get(unitOf[i] as number) as number))];
      const central = groupPieces.sort((a, b) => (similarity[b] as number) - (similarity[a] as number) || a - b).slice(0, opts.examples ?? 3);
      const examples = central.map((p) => {
        // The piece's longest sentence: a fragment ("Huh?") says little of what the piece is.
        const own = idx.filter((i) => pieceIndex.get(unitOf[i] as number) === p).map((i) => sentences[i] as string);
        const longest = own.reduce((a, s) => (s.length > a.length ? s : a), '');
        return longest.length > EXAMPLE_CHARS ? `${longest.slice(0, EXAMPLE_CHARS - 1)}…` : longest;
      });
      const chars = idx.reduce((a, i) => a + (sentences[i] as string).length, 0);
      let meanScore: number | undefined;
      if (opts.scores) meanScore = idx.reduce((a, i) => a + (opts.scores?.[i] as number), 0) / idx.length;
      return {
        id: 0,
        pieces: groupPieces.length,
        sentences: idx.map((i) => sentences[i] as string),
        indices: idx,
        chars,
        share: totalChars > 0 ? chars / totalChars : 0,
        words,
        examples,
        ...(meanScore !== undefined ? { meanScore } : {}),
        ...(opts.reference?.length ? { referenceShare: (referenceCount[c] as number) / opts.reference.length } : {}),
      };
    })
    .filter((g) => g.sentences.length > 0)
    .sort((a, b) => b.chars - a.chars || b.pieces - a.pieces);
  groups.forEach((g, i) => (g.id = i + 1));
  return groups;
}
