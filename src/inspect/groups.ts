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
import { sphericalKMeans, type KMeansResult } from './kmeans.js';
import { wordsOf, type TaskWords } from './task-words.js';
import { functionWordShare } from '../text/function-words.js';
import { telegraphicShares } from '../select/telegraphic.js';

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
  reference?: readonly string[] | undefined;
  /**
   * The task's words (task-words.ts): the pieces unlike the task are grouped apart from the
   * rest (half the groups go to them, so a kind of text that is 2% of the whole is not merged
   * into a large task-like group), and the groups come least task-like first.
   */
  taskWords?: TaskWords | undefined;
  /**
   * With taskWords: groups for the task-like pieces (default half of `groups`, rounded down),
   * the rest for the unlike ones. One task-like group hides what the kept bulk holds besides
   * the task's text; split, it shows it (docs/benchmarks/task-share.md, "The loop").
   */
  likeGroups?: number;
}

export interface TextGroup {
  /** 1, 2, ...: by share of the text, largest first; with taskWords, least task-like first. */
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
  /** With taskWords: the mean surprise of its words under the task's frequencies (task-words.ts); NaN without a content word. */
  surprise?: number;
  /** With taskWords: the share of its characters in pieces unlike the task. */
  unlike?: number;
  /** With taskWords: how far its style, all its sentences together, is from the task's (task-words.ts `styleOf`). */
  style?: number;
  /**
   * With taskWords: 'unlike' when most of it is in pieces whose words the task rarely uses and,
   * as a whole, it is written unlike nearly all of the task's own pieces (its style over theirs
   * at THRESHOLD_QUANTILE), in UNLIKE_MIN_PIECES pieces or more: another kind of text. 'off-topic' when its words are
   * rare to the task but it is written as the task is (the task's kind of text on topics its
   * sample lacks). Else 'task-like'.
   */
  verdict?: 'unlike' | 'off-topic' | 'task-like';
}

/**
 * The fewest pieces a group called 'unlike' has: the style of a group of one or two pieces is
 * hardly more than one piece's, which 2.5% of the task's own pieces pass, and with several small
 * groups one of them would, on the task's own kind of text (the demo's kept abstracts did).
 */
const UNLIKE_MIN_PIECES = 3;

/** Over this share of the text called unlike the task, nothing is: the task's form is what differs. */
const MAX_UNLIKE_SHARE = 0.5;

/** An example longer than this is cut with an ellipsis: a line of the report, not a page. */
const EXAMPLE_CHARS = 160;

/**
 * Unit rows, one per piece: the sum of its sentences' LSA rows (an LSA fitted on these
 * sentences), normalised. `pieceOf[i]` is sentence i's piece (0..n-1). Without a word n-gram
 * shared by two sentences there is nothing to group by: every row is zero (one group).
 */
function pieceRows(sentences: readonly string[], pieceOf: ArrayLike<number>, n: number, seed: number): { rows: Float64Array; d: number; lsa: Lsa | undefined } {
  let lsa: Lsa | undefined;
  try {
    lsa = Lsa.fit([...sentences], { dims: 64, seed });
  } catch (err) {
    if (!(err instanceof TadpoleError && err.code === 'TADPOLE_INPUT')) throw err;
  }
  const d = lsa?.dims ?? 1;
  const rows = lsa ? lsa.transform([...sentences]) : new Float32Array(sentences.length);
  const pieces = new Float64Array(n * d);
  for (let i = 0; i < sentences.length; i++) {
    const p = pieceOf[i] as number;
    for (let x = 0; x < d; x++) pieces[p * d + x] += rows[i * d + x] as number;
  }
  for (let p = 0; p < n; p++) normalise(pieces, p, d);
  return { rows: pieces, d, lsa };
}

function normalise(rows: Float64Array, p: number, d: number): void {
  let norm = 0;
  for (let x = 0; x < d; x++) norm += (rows[p * d + x] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let x = 0; x < d; x++) rows[p * d + x] = (rows[p * d + x] as number) / norm;
}

/**
 * Spherical k-means on the pieces, or, with pieces both unlike and like the task, on each side
 * apart: groups - likeGroups for the unlike pieces (as many as there are), grouped on an LSA of their own
 * sentences (an LSA of the whole is spent on the task-like bulk's topics, where two small kinds
 * of text share a direction), the rest for the others. Centroids and similarities are then
 * those of the whole's rows, so the task's sentences can be placed among every group.
 */
function cluster(sentences: readonly string[], pieceOf: ArrayLike<number>, whole: { rows: Float64Array; d: number }, n: number, groups: number, seed: number, unlike: Uint8Array | undefined, likeGroups: number): KMeansResult {
  const { rows, d } = whole;
  const off = unlike ? Array.from({ length: n }, (_, p) => p).filter((p) => unlike[p] === 1) : [];
  const like = unlike ? Array.from({ length: n }, (_, p) => p).filter((p) => unlike[p] !== 1) : [];
  if (!unlike || groups < 2 || off.length === 0 || like.length === 0) return sphericalKMeans(rows, n, d, groups, seed);
  const assign = new Int32Array(n);
  // The unlike side, on its own LSA.
  const local = new Int32Array(n).fill(-1);
  off.forEach((p, i) => (local[p] = i));
  const offSentences: string[] = [];
  const offPiece: number[] = [];
  sentences.forEach((s, i) => {
    const p = local[pieceOf[i] as number] as number;
    if (p >= 0) {
      offSentences.push(s);
      offPiece.push(p);
    }
  });
  const offRows = pieceRows(offSentences, offPiece, off.length, seed);
  const offRun = sphericalKMeans(offRows.rows, off.length, offRows.d, Math.max(1, Math.min(groups - Math.min(likeGroups, like.length), off.length)), seed);
  off.forEach((p, i) => (assign[p] = offRun.assign[i] as number));
  const kOff = offRun.centroids.length / offRows.d;
  // The task-like side, on the whole's rows.
  const likeRows = new Float64Array(like.length * d);
  like.forEach((p, i) => likeRows.set(rows.subarray(p * d, (p + 1) * d), i * d));
  const likeRun = sphericalKMeans(likeRows, like.length, d, groups - kOff, seed + 1);
  like.forEach((p, i) => (assign[p] = kOff + (likeRun.assign[i] as number)));
  const k = kOff + likeRun.centroids.length / d;
  const centroids = new Float64Array(k * d);
  for (let p = 0; p < n; p++) for (let x = 0; x < d; x++) centroids[(assign[p] as number) * d + x] += rows[p * d + x] as number;
  for (let c = 0; c < k; c++) normalise(centroids, c, d);
  const similarity = new Float64Array(n);
  for (let p = 0; p < n; p++) for (let x = 0; x < d; x++) similarity[p] += (rows[p * d + x] as number) * (centroids[(assign[p] as number) * d + x] as number);
  return { assign, similarity, centroids };
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
  const pieceOf = Int32Array.from(sentences, (_, i) => pieceIndex.get(unitOf[i] as number) as number);
  const whole = pieceRows(sentences, pieceOf, n, opts.seed);
  const { lsa, d } = whole;
  // A piece is unlike the task when its words are more surprising to the task than nearly all of the task's own pieces' are.
  let unlike: Uint8Array | undefined;
  if (opts.taskWords) {
    const own = Array.from({ length: n }, () => [] as string[]);
    sentences.forEach((s, i) => own[pieceOf[i] as number]?.push(s));
    const tw = opts.taskWords;
    unlike = Uint8Array.from(own, (ss) => (tw.surpriseOf(ss) > tw.threshold ? 1 : 0));
  }
  // A telegraphic task (titles, terse notes: well under the text's share of function words) is
  // written unlike any running text, so its style says nothing of a group's kind: no group is
  // called unlike it (on three title mixes every group was, 0-100% out of domain).
  const telegraphic = opts.taskWords !== undefined && telegraphicShares(opts.taskWords.functionWords, functionWordShare(sentences));
  const { assign, similarity, centroids } = cluster(sentences, pieceOf, whole, n, opts.groups, opts.seed, unlike, opts.likeGroups ?? Math.max(1, Math.floor(opts.groups / 2)));
  const k0 = centroids.length / d;
  const referenceCount = new Float64Array(k0);
  if (opts.reference?.length) {
    const ref = lsa ? lsa.transform([...opts.reference]) : new Float32Array(opts.reference.length * d);
    for (let i = 0; i < opts.reference.length; i++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let c = 0; c < k0; c++) {
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
  sentences.forEach((_, i) => members[assign[pieceOf[i] as number] as number]?.push(i));
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
      const groupPieces = [...new Set(idx.map((i) => pieceOf[i] as number))];
      const central = groupPieces.sort((a, b) => (similarity[b] as number) - (similarity[a] as number) || a - b).slice(0, opts.examples ?? 3);
      const examples = central.map((p) => {
        // The piece's longest sentence: a fragment ("Huh?") says little of what the piece is.
        const own = idx.filter((i) => pieceOf[i] === p).map((i) => sentences[i] as string);
        const longest = own.reduce((a, s) => (s.length > a.length ? s : a), '');
        return longest.length > EXAMPLE_CHARS ? `${longest.slice(0, EXAMPLE_CHARS - 1)}…` : longest;
      });
      const chars = idx.reduce((a, i) => a + (sentences[i] as string).length, 0);
      let byTask: Pick<TextGroup, 'surprise' | 'unlike' | 'style' | 'verdict'> | undefined;
      if (opts.taskWords && unlike) {
        const off = unlike;
        const tw = opts.taskWords;
        const offChars = idx.reduce((a, i) => a + (off[pieceOf[i] as number] ? (sentences[i] as string).length : 0), 0);
        const own = idx.map((i) => sentences[i] as string);
        const share = chars > 0 ? offChars / chars : 0;
        // The group's style as a whole against the task's pieces': pooled, it varies less than one piece's, so over their THRESHOLD_QUANTILE is by a margin.
        const style = tw.styleOf(own);
        const otherKind = !telegraphic && style > tw.styleThreshold && groupPieces.length >= UNLIKE_MIN_PIECES;
        byTask = { surprise: tw.surpriseOf(own), unlike: share, style, verdict: share < 0.5 ? 'task-like' : otherKind ? 'unlike' : 'off-topic' };
      }
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
        ...(byTask ?? {}),
      };
    })
    .filter((g) => g.sentences.length > 0);
  // Most of the text unlike the task: it is the task that is written unlike it (a task of
  // questions against the abstracts that answer them: six groups, 72% of the kept text, 0-43% out
  // of domain), and the verdict reads the task's form, not the text's kind.
  if (groups.reduce((a, g) => a + (g.verdict === 'unlike' ? g.share : 0), 0) > MAX_UNLIKE_SHARE) for (const g of groups) if (g.verdict === 'unlike') g.verdict = 'off-topic';
  groups.sort((a, b) => (opts.taskWords ? leastTaskLike(a, b) : 0) || b.chars - a.chars || b.pieces - a.pieces);
  groups.forEach((g, i) => (g.id = i + 1));
  return groups;
}

/**
 * Whether the report offers a ready `fit --avoid` for the group: only for another kind of text
 * than the task ('unlike'), of at least OFFER_MIN_SHARE of the text. A group 'off-topic' (rare
 * words, the task's way of writing) is mostly the domain's own text on topics the task's sample
 * lacks: on the demo's kept text the five such groups were 73-100% the task's own kind
 * (docs/benchmarks/task-share.md; what following the offers does: docs/research.md, "Scarce
 * technical text").
 */
export function offersAvoid(g: Pick<TextGroup, 'verdict' | 'share'>): boolean {
  return g.verdict === 'unlike' && g.share >= OFFER_MIN_SHARE;
}

/**
 * The smallest group offered an --avoid: a refit moves the kept text's in-domain share by up to
 * a point by itself, which a group under 1% of the text cannot pay for (groups of 0.1-0.9%
 * avoided, 100% out of domain, lowered it by up to 0.9 point: docs/research.md, "Scarce technical text").
 */
export const OFFER_MIN_SHARE = 0.01;

/**
 * Least task-like first: the groups with an --avoid offered before the rest, then by the
 * surprise of their words to the task (a group without content words last).
 */
function leastTaskLike(a: Pick<TextGroup, 'verdict' | 'share' | 'surprise'>, b: Pick<TextGroup, 'verdict' | 'share' | 'surprise'>): number {
  const offered = Number(offersAvoid(b)) - Number(offersAvoid(a));
  if (offered !== 0) return offered;
  const x = Number.isFinite(a.surprise) ? (a.surprise as number) : -Infinity;
  const y = Number.isFinite(b.surprise) ? (b.surprise as number) : -Infinity;
  return x === y ? 0 : x > y ? -1 : 1;
}
