/**
 * English function words (articles, pronouns, auxiliaries, prepositions, conjunctions), as
 * the word hashes the n-gram hashers compute, so a hasher can leave them out at no cost
 * beyond one Set lookup per word. A task written as headlines, titles or keywords carries
 * about half the function words of running text; fitted against a corpus of prose, a
 * selector then learns "has function words" as the surest sign of the corpus and ranks any
 * telegraphic text first (tables, signatures, for-sale ads): docs/research.md,
 * "Telegraphic tasks".
 */
import { hashString } from './ngrams.js';

export const FUNCTION_WORDS: readonly string[] = (
  'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves'
).split(' ');

/** A word's id in the n-gram hashers (fast-ngrams.ts, char-ngrams.ts): ngrams.ts's hash of the lower-cased word. */
export function wordHash(word: string): number {
  return hashString(word.toLowerCase());
}

export const FUNCTION_WORD_HASHES: ReadonlySet<number> = new Set(FUNCTION_WORDS.map(wordHash));

const FUNCTION_WORD_SET: ReadonlySet<string> = new Set(FUNCTION_WORDS);
const WORD = /[\p{L}\p{N}]+/gu;

/** Share of the word tokens of `sentences` that are function words (0 when there are none). */
export function functionWordShare(sentences: readonly string[]): number {
  let words = 0;
  let fn = 0;
  for (const s of sentences) {
    for (const m of s.matchAll(WORD)) {
      words++;
      if (FUNCTION_WORD_SET.has(m[0].toLowerCase())) fn++;
    }
  }
  return words === 0 ? 0 : fn / words;
}
