/**
 * How unlike the task a piece of text is: how surprising its words are under the task's own
 * word frequencies (the mean negative log-probability of its content words under a smoothed
 * unigram model of the task).
 *
 * Text off the task's domain (a licence among changelogs, patient leaflets among abstracts) is
 * written in words the task never or rarely uses; text of the domain reuses the task's words
 * even when it is worded otherwise. The model is read from a seeded half of the task's
 * sentences; the other half, cut into pieces as the kept text is, says what the task's own
 * text scores, so a piece more surprising than nearly all of those (THRESHOLD_QUANTILE) is
 * unlike the task, and a group is told against the task's own text as a ratio of
 * perplexities (`rarer`).
 *
 * Rare words alone also mark the task's own kind of text on topics its sample lacks (clinical
 * abstracts on ureteral stones beside a task of 250 abstracts that has none). How a text is
 * written tells the two apart: over the stream of function words with every other word as one
 * token, `styleOf` is the divergence (KL, nats) of a text's token frequencies from the task's, so
 * that too many "you" and too few "of", or a table's run of bare words and numbers, both count;
 * it is calibrated on the same held-out pieces, and a group is another kind of text only when its
 * words are rare and its style, as a whole, is beyond the task's pieces' too (groups.ts `verdict`).
 */
import { Rng } from '../core/rng.js';
import { FUNCTION_WORDS, functionWordShare } from '../text/function-words.js';

const WORD = /\p{L}[\p{L}\p{N}'’-]*/gu;
const SKIP = new Set(FUNCTION_WORDS);

/** Content words of a sentence, lower-cased: 3+ characters, function words left out. */
export function wordsOf(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    if (w.length >= 3 && !SKIP.has(w)) out.push(w);
  }
  return out;
}

/** The task's own pieces are cut this long, as the kept text's are. */
const PIECE = 15;
/** A piece over this quantile of the task's own pieces is unlike the task: 1 in 40 of the task's own pieces would be called unlike. */
const THRESHOLD_QUANTILE = 0.975;
/**
 * Add-alpha smoothing over a vocabulary this large: a word the task never uses costs about
 * log(VOCABULARY / ALPHA) more than one it uses once, whatever the kept text's size.
 */
const ALPHA = 0.1;
const VOCABULARY = 200_000;

export interface TaskWords {
  /** Mean surprise (nats) of the content words of these sentences under the task's frequencies; NaN without one. */
  surpriseOf(sentences: Iterable<string>): number;
  /** What the task's own held-out text scores (all its words together). */
  heldOut: number;
  /** Over this a piece is unlike the task (THRESHOLD_QUANTILE of the task's own pieces). */
  threshold: number;
  /** How far (KL divergence, nats) these sentences' style stream (styleTokens) is from the task's; NaN without a word. */
  styleOf(sentences: Iterable<string>): number;
  /** Over this a piece is written unlike the task (THRESHOLD_QUANTILE of the task's own pieces' styleOf). */
  styleThreshold: number;
  /** The share of the task's words that are function words (text/function-words.ts). */
  functionWords: number;
}

const ANY_WORD = /\p{L}[\p{L}\p{N}'’-]*|\p{N}+/gu;
/**
 * A sentence's style stream: function words as themselves, any other word or number as one
 * token, so that what is measured is how the text is written (a leaflet's "you", "your",
 * "do not"; an abstract's "we", "were", "of"), not what about.
 */
function styleTokens(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(ANY_WORD)) {
    const w = m[0].toLowerCase();
    out.push(SKIP.has(w) ? w : CONTENT);
  }
  return out;
}

/** The token every word that is not a function word counts as in the style stream. */
const CONTENT = ' ';

/** How often each token occurs in these sentences, and how many tokens there are. */
function tally(sentences: Iterable<string>, tokens: (s: string) => string[]): { counts: Map<string, number>; total: number } {
  const counts = new Map<string, number>();
  let total = 0;
  for (const s of sentences) {
    for (const w of tokens(s)) {
      counts.set(w, (counts.get(w) ?? 0) + 1);
      total++;
    }
  }
  return { counts, total };
}

/**
 * A unigram model over some tokens of the task's sentences `fit`: a text's mean surprise under
 * it or, with `divergence`, the KL divergence of the text's own token frequencies from it; and
 * the THRESHOLD_QUANTILE of `rest`'s pieces.
 */
function unigram(fit: readonly string[], rest: readonly string[], tokens: (s: string) => string[], vocabulary: number, divergence = false): { of: (ss: Iterable<string>) => number; heldOut: number; threshold: number } {
  const { counts, total } = tally(fit, tokens);
  const norm = Math.log(total + ALPHA * vocabulary);
  const of = (sentences: Iterable<string>) => {
    let words = 0;
    let sum = 0;
    for (const s of sentences) {
      for (const w of tokens(s)) {
        words++;
        sum += norm - Math.log((counts.get(w) ?? 0) + ALPHA);
      }
    }
    return words > 0 ? sum / words : NaN;
  };
  const kl = (sentences: Iterable<string>) => {
    const { counts: own, total: n } = tally(sentences, tokens);
    let sum = 0;
    for (const [w, c] of own) sum += (c / n) * (Math.log(c / n) - Math.log((counts.get(w) ?? 0) + ALPHA) + norm);
    return n > 0 ? sum : NaN;
  };
  const score = divergence ? kl : of;
  const pieces: number[] = [];
  for (let at = 0; at < rest.length; at += PIECE) {
    const v = score(rest.slice(at, at + PIECE));
    if (Number.isFinite(v)) pieces.push(v);
  }
  pieces.sort((a, b) => a - b);
  const heldOut = score(rest);
  const threshold = pieces.length ? (pieces[Math.ceil(THRESHOLD_QUANTILE * (pieces.length - 1))] as number) : Infinity;
  return { of: score, heldOut: Number.isFinite(heldOut) ? heldOut : 0, threshold };
}

/** How many times rarer, per word, a text's words are under the task's frequencies than the task's own text's. */
export function rarer(surprise: number, words: TaskWords): number {
  return Math.exp(surprise - words.heldOut);
}

/**
 * The task's word frequencies, from a seeded half of its sentences; the other half calibrates.
 * A task of one sentence has no other half: its one sentence is both.
 */
export function taskWords(task: readonly string[], seed: number): TaskWords {
  const order = new Rng(seed + 31).sample(task.length, task.length);
  const half = Math.max(1, Math.floor(task.length / 2));
  const fit = order.slice(0, half).map((i) => task[i] as string);
  const rest = (order.length > half ? order.slice(half) : order).map((i) => task[i] as string);
  const content = unigram(fit, rest, wordsOf, VOCABULARY);
  const style = unigram(fit, rest, styleTokens, FUNCTION_WORDS.length + 1, true);
  return { surpriseOf: content.of, heldOut: content.heldOut, threshold: content.threshold, styleOf: style.of, styleThreshold: style.threshold, functionWords: functionWordShare(task) };
}
