import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sharedPath } from '../../src/core/shared.js';
import { FUNCTION_WORD_HASHES } from '../../src/text/function-words.js';
import { bucketOf, fmix32, hashPair, hashString } from '../../src/text/ngrams.js';
import { StyleHasher } from '../../src/text/style-ngrams.js';
import { HAVE_SHARED } from '../select/fixture.js';

const B = 1 << 20;
const SALT = 0x2f6b1c3d;
const PUNCTUATION = new Set([...".,;:?!'\"()-\u2019\u201c\u201d$%"]);

function ids(s: string): number[] {
  const h = new StyleHasher(B);
  const n = h.hash(s);
  return Array.from(h.ids.subarray(0, n));
}

/** The same features from strings and regular expressions: what the hasher must equal. */
function reference(s: string): number[] {
  const shape = (w: string) => {
    if (/^\p{N}+$/u.test(w)) return w.length <= 2 ? '#d' : '#dd';
    const len = w.length <= 3 ? 's' : w.length <= 7 ? 'm' : 'l';
    if (w === w.toLowerCase()) return `#x${len}`;
    if (w === w.toUpperCase()) return `#X${len}`;
    return `#Xx${len}`;
  };
  const toks: number[] = [];
  for (const [w] of s.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)) {
    if (!/[\p{L}\p{N}]/u.test(w)) {
      if (PUNCTUATION.has(w)) toks.push(hashString(w, SALT) || 1);
      continue;
    }
    const h = hashString(w.toLowerCase());
    toks.push(FUNCTION_WORD_HASHES.has(h) ? h : hashString(shape(w), SALT));
  }
  const out: number[] = [];
  toks.forEach((t, i) => {
    out.push(bucketOf(fmix32(t ^ SALT), B));
    if (i > 0) {
      const p = hashPair(toks[i - 1]!, t);
      out.push(bucketOf(p, B));
      if (i > 1) out.push(bucketOf(hashPair(toks[i - 2]!, p), B));
    }
  });
  return out;
}

describe('StyleHasher', () => {
  it('reads a sentence as its function words, word shapes and punctuation: the topic is gone', () => {
    // Same structure, other topic words of the same shapes: the same features.
    expect(ids('The Red Sox beat the Yankees on Sunday, he said.')).toEqual(ids('The Tax Act hurt the Tories on Friday, he said.'));
    // A forum reply is not a news sentence.
    expect(ids('I think you are wrong about the Sox?')).not.toEqual(ids('The Sox are wrong about the trade, he said.'));
    // Case and length are part of the shape; numbers are short or long.
    expect(ids('NASA')).not.toEqual(ids('Nasa'));
    expect(ids('cat')).not.toEqual(ids('catalogue'));
    expect(ids('won 3 games')).toEqual(ids('won 7 games'));
    expect(ids('in 2004')).not.toEqual(ids('in 20'));
    // 1-3-grams: n tokens give 3n - 3 ids from the third on.
    expect(ids('the cat sat')).toHaveLength(6);
    expect(ids('')).toEqual([]);
  });

  it('skips markup symbols, which are a format and not a genre', () => {
    expect(ids('the <unk> was @-@ founded')).toEqual(ids('the unk was - founded'));
    expect(ids('see #tag @home')).toEqual(ids('see tag home'));
  });

  it('equals the string-and-regex reference on edge cases', () => {
    for (const s of ['Café naïve ÉCOLE 3.5%', '“Quoted,” she said (twice) — and left!', 'x', ' , ; ', 'MP3 players cost $49.99', 'ΑΘΗΝΑ και Αθήνα']) {
      expect(ids(s)).toEqual(reference(s));
    }
  });

  it.skipIf(!HAVE_SHARED)('equals the reference on real news, forum and wiki text', () => {
    const lines = ['news-bbc/docs.jsonl.gz', 'forum-20newsgroups/docs.jsonl.gz'].flatMap((f) =>
      gunzipSync(readFileSync(sharedPath('corpora', ...f.split('/'))))
        .toString('utf8')
        .split('\n')
        .slice(0, 300)
        .filter(Boolean)
        .flatMap((l) => (JSON.parse(l) as { text: string }).text.split('\n')),
    );
    const wiki = gunzipSync(readFileSync(sharedPath('corpora', 'wiki-wikitext2', 'wiki.test.tokens.gz'))).toString('utf8').split('\n').slice(0, 2000);
    let n = 0;
    for (const s of [...lines, ...wiki]) {
      expect(ids(s)).toEqual(reference(s));
      n++;
    }
    expect(n).toBeGreaterThan(3000);
  });
});
