/**
 * EXPERIMENT (issue 10): a sentence's shape as a few hashed tokens: its length in words
 * (log2 bins), the share of words with digits, with a capital first letter and in all caps
 * (quartile bins), and which of a few punctuation marks it holds.
 */
import { fmix32 } from './ngrams.js';

const SALT = 0x2c1b3c6d;

export function shapeIds(s: string, buckets: number, out: Uint32Array, at: number): number {
  let words = 0;
  let digits = 0;
  let caps = 0;
  let upper = 0;
  for (const w of s.split(/\s+/)) {
    if (!/[\p{L}\p{N}]/u.test(w)) continue;
    words++;
    if (/\d/.test(w)) digits++;
    if (/^\p{Lu}/u.test(w)) caps++;
    if (w.length > 1 && /^[\p{Lu}\d\W]+$/u.test(w) && /\p{Lu}/u.test(w)) upper++;
  }
  const q = (x: number) => (words === 0 ? 0 : Math.min(4, Math.floor((4 * x) / words + 0.5)));
  const feats = [`len${Math.floor(Math.log2(words + 1))}`, `dig${q(digits)}`, `cap${q(caps)}`, `up${q(upper)}`];
  for (const [ch, name] of [['"', 'quote'], ['?', 'q'], ['!', 'ex'], ['(', 'paren'], [':', 'colon'], ['%', 'pct'], ['$', 'cur'], ['@', 'at']] as const) if (s.includes(ch)) feats.push(name);
  for (const f of feats) {
    let h = SALT;
    for (let i = 0; i < f.length; i++) h = Math.imul(h ^ f.charCodeAt(i), 0x01000193);
    out[at++] = fmix32(h) % buckets;
  }
  return at;
}
