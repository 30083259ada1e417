/**
 * The sentence splitter was rewritten for speed: these tests hold it to
 * EXACTLY the spans of the splitter it replaced, so the rewrite cannot drift.
 * - Real text: a digest of every span over a sample of every shared corpus (and the golden
 *   cases) must equal the digest recorded from the old splitter
 *   (test/fixtures/splitter-digest.json, made by scripts/splitter-digest.mjs).
 * - Odd text: random strings built from the characters and tokens the rules look at
 *   (terminators, quotes, brackets, line breaks, list labels, abbreviations, digits) must
 *   split as the old splitter, kept as a test-only copy in ./reference-splitter.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/text/sentences.js';
import { DIGEST_FILE, sharedCorpora, splitterDigest } from '../../scripts/splitter-digest.mjs';
import { referenceSplitSentences } from './reference-splitter.js';

describe('splitSentences: identical to the splitter it replaced', () => {
  it.skipIf(!sharedCorpora())('splits a sample of every shared corpus exactly as recorded (regenerate: node scripts/splitter-digest.mjs --write)', () => {
    const saved = JSON.parse(readFileSync(DIGEST_FILE, 'utf8')) as { total: string; files: Record<string, unknown> };
    const now = splitterDigest(splitSentences) as { total: string; files: Record<string, unknown> };
    // Per file first, so a drift names the corpus it shows up in.
    expect(now.files).toEqual(saved.files);
    expect(now.total).toBe(saved.total);
  });

  it('the digest file exists and covers the golden cases and every corpus file', () => {
    expect(existsSync(DIGEST_FILE)).toBe(true);
    const saved = JSON.parse(readFileSync(DIGEST_FILE, 'utf8')) as { files: Record<string, { spans: number }> };
    expect(saved.files['sentence-golden/golden_en.jsonl']!.spans).toBeGreaterThan(5000);
    expect(Object.keys(saved.files).length).toBeGreaterThanOrEqual(40);
  });

  it('splits random punctuation-heavy strings exactly as the reference copy', () => {
    const rand = mulberry32(12);
    let checked = 0;
    for (let n = 0; n < 6000; n++) {
      const text = randomText(rand, n % 50 === 0 ? 1500 : 1 + Math.floor(rand() * 60)); // some past QUOTE_WINDOW and the wrap cap
      const expected = referenceSplitSentences(text);
      const got = splitSentences(text);
      if (got.length !== expected.length || got.some((v, k) => v !== expected[k])) {
        expect({ text, spans: got }).toEqual({ text, spans: expected });
      }
      checked += expected.length;
    }
    expect(checked).toBeGreaterThan(10_000); // the strings do get split
  });

  it('splits random hard-wrapped and one-sentence-per-line texts exactly as the reference copy', () => {
    const rand = mulberry32(34);
    for (let n = 0; n < 800; n++) {
      const lines: string[] = [];
      const width = 20 + Math.floor(rand() * 70);
      const count = 2 + Math.floor(rand() * 30);
      for (let l = 0; l < count; l++) {
        let line = randomText(rand, 1 + Math.floor(rand() * 14)).replace(/[\r\n]+/g, ' ');
        if (rand() < 0.7) line = line.slice(0, width);
        lines.push(rand() < 0.1 ? '' : line);
      }
      const text = lines.join(rand() < 0.1 ? '\r\n' : '\n');
      for (const max of [Infinity, 300, 40]) {
        const got = splitSentences(text, { maxWrappedLength: max });
        const expected = referenceSplitSentences(text, { maxWrappedLength: max });
        if (got.length !== expected.length || got.some((v, k) => v !== expected[k])) {
          expect({ text, max, spans: got }).toEqual({ text, max, spans: expected });
        }
      }
    }
  });

  it('splits lower-cased random text (no capital anywhere) exactly as the reference copy', () => {
    const rand = mulberry32(56);
    for (let n = 0; n < 2000; n++) {
      const text = randomText(rand, 1 + Math.floor(rand() * 40)).toLowerCase();
      expect(splitSentences(text)).toEqual(referenceSplitSentences(text));
    }
  });
});

/** Pieces the splitter's rules react to, with plain words in between. */
const PIECES = [
  ' ', ' ', ' ', ' ', '  ', '\t', '\n', '\n', '\n\n', '\r\n', '\r', ' \n ', '\u00a0', '\u3000', '\u2028',
  '.', '.', '.', '. ', '. ', '! ', '? ', '!', '?', '?!', '...', '. . .', '. . . .', '....', '\u2026', '\u203d', '\u3002', '\uff01', '\uff0e',
  '"', '"', "'", "'", '\u201c', '\u201d', '\u2018', '\u2019', '\u00ab', '\u00bb', '(', ')', '[', ']', '{', '}', '`',
  '-', '--', '\u2013', '\u2014', ':', ';', ',', '@', '/', '*', '- ', '* ', '\u2022 ', '\u25aa',
  '1', '2', '12', '3.5', '1. ', '2. ', '3) ', 'a. ', 'b) ', '(c) ', '[iv] ', 'B) ', '[1]', '[2][3]', '.11 12', '10',
  'Mr.', 'Dr.', 'U.S.', 'e.g.', 'i.e.', 'a.m.', 'p.m.', 'Co.', 'Inc.', 'No.', 'Fig.', 'vs.', 'Jr.', 'J.', 'R.', 'Ph.D.',
  'etc.', 'Mar.', 'mar.', 'St.', 'al.', 'Yahoo!', 'I', 'I.', 'you and I.',
  'The', 'It', 'He', 'However', 'But', 'Monday', 'Travelers', 'London', 'the', 'of', 'and', 'said',
  'word', 'cat', 'sat', 'on', 'mat', 'ALL CAPS', 'HEADLINE', 'Zoë', '\u00c9cole', '\u00e9t\u00e9', 'x@y.com', 'http://a.b/c',
  'end.Next', 'one.two', '\ud83d\ude00', '\ud800', '\u0130', '\u03a3\u03c3',
];

function randomText(rand: () => number, pieces: number): string {
  let out = '';
  for (let k = 0; k < pieces; k++) {
    const piece = PIECES[Math.floor(rand() * PIECES.length)]!;
    out += piece;
    if (rand() < 0.35) out += ' ';
  }
  return out;
}

/** Small seeded PRNG, so a failure reproduces. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
