import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import { TadpoleError } from '../core/errors.js';

/** Tokens in a piece of text, as the language model's tokenizer splits it (no special tokens). */
export type TokenCounter = (text: string) => number;

const loaded = new Map<string, TokenCounter>();

/**
 * A Hugging Face tokenizer.json as a token counter (the pure-JS @huggingface/tokenizers),
 * loaded once per thread. Each segment is counted on its own, without the special tokens a
 * model adds around a sequence ([CLS], <s>), so the kept segments' counts add up to the
 * tokens of their text. Exit 4 for a file that is missing or does not load as a tokenizer.
 */
export function tokenCounter(path: string): TokenCounter {
  const have = loaded.get(path);
  if (have) return have;
  const fail = (why: string, cause?: unknown) => new TadpoleError('TADPOLE_MODEL', `cannot load the tokenizer ${path}: ${why}`, { file: path, ...(cause ? { cause } : {}) });
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fail(code ? `${code === 'ENOENT' ? 'no such file' : code}` : 'not JSON (a Hugging Face tokenizer.json is)', err);
  }
  const model = (json as { model?: { type?: unknown; vocab?: unknown } } | null)?.model;
  if (!model || typeof model !== 'object' || !model.vocab) throw fail('no "model" with a "vocab": not a Hugging Face tokenizer.json');
  let count: TokenCounter;
  try {
    const tokenizer = new Tokenizer(json as object, {});
    // tokenize() is encode() without the id lookup: the same tokens, counted.
    count = (text) => tokenizer.tokenize(text).length;
    // A tokenizer that loads but cannot encode would fail mid-run: try it now.
    count('Tokenizer check: 1, 2, 3.');
  } catch (err) {
    throw fail((err as Error).message.split('\n')[0] ?? 'it does not load', err);
  }
  loaded.set(path, count);
  return count;
}
