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
 */
import { Rng } from '../core/rng.js';
import { FUNCTION_WORDS } from '../text/function-words.js';

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
  const counts = new Map<string, number>();
  let total = 0;
  for (const i of order.slice(0, half)) {
    for (const w of wordsOf(task[i] as string)) {
      counts.set(w, (counts.get(w) ?? 0) + 1);
      total++;
    }
  }
  const norm = Math.log(total + ALPHA * VOCABULARY);
  const surpriseOf = (sentences: Iterable<string>) => {
    let words = 0;
    let sum = 0;
    for (const s of sentences) {
      for (const w of wordsOf(s)) {
        words++;
        sum += norm - Math.log((counts.get(w) ?? 0) + ALPHA);
      }
    }
    return words > 0 ? sum / words : NaN;
  };
  const rest = (order.length > half ? order.slice(half) : order).map((i) => task[i] as string);
  const pieces: number[] = [];
  for (let at = 0; at < rest.length; at += PIECE) {
    const s = surpriseOf(rest.slice(at, at + PIECE));
    if (Number.isFinite(s)) pieces.push(s);
  }
  pieces.sort((a, b) => a - b);
  const heldOut = surpriseOf(rest);
  const threshold = pieces.length ? (pieces[Math.ceil(THRESHOLD_QUANTILE * (pieces.length - 1))] as number) : Infinity;
  return { surpriseOf, heldOut: Number.isFinite(heldOut) ? heldOut : 0, threshold };
}
