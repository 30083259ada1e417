import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { capWrappedSentences, MAX_WRAPPED_LENGTH, splitSentences } from '../../src/text/sentences.js';
import { corpusRecords } from '../helpers/corpora.js';

function pieces(text: string, spans: number[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < spans.length; k += 2) out.push(text.slice(spans[k], spans[k + 1]));
  return out;
}

/** [start, end) of every span that is longer than the cap and still holds a line break. */
function longWrapped(text: string, spans: number[]): number {
  let n = 0;
  for (let k = 0; k < spans.length; k += 2) {
    const piece = text.slice(spans[k], spans[k + 1]);
    if (piece.length > MAX_WRAPPED_LENGTH && /[\r\n]/.test(piece)) n++;
  }
  return n;
}

/** Every capped piece lies inside one uncapped sentence, in order, and the pieces cover the same text. */
function refines(text: string, capped: number[], whole: number[]): boolean {
  let k = 0;
  for (let p = 0; p < capped.length; p += 2) {
    while (k < whole.length && whole[k + 1]! < capped[p + 1]!) k += 2;
    if (k >= whole.length || capped[p]! < whole[k]!) return false;
  }
  const squash = (s: number[]): string => pieces(text, s).join('').replace(/\s+/g, '');
  return squash(capped) === squash(whole);
}

const MILTON = [
  'But what if he our Conqueror (whom I now ',
  'Of force believe almighty, since no less ',
  "Than such could have o'erpowered such force as ours) ",
  'Have left us this our spirit and strength entire, ',
  'Strongly to suffer and support our pains, ',
  'That we may so suffice his vengeful ire, ',
  'Or do him mightier service as his thralls ',
  'By right of war, whate\'er his business be, ',
  'Here in the heart of Hell to work in fire, ',
  'Or do his errands in the gloomy Deep? ',
].join('\n');

describe('splitSentences: long sentences over line breaks', () => {
  it('cuts a verse sentence longer than the cap at each line break, verbatim', () => {
    expect(MILTON.length).toBeGreaterThan(MAX_WRAPPED_LENGTH);
    expect(pieces(MILTON, splitSentences(MILTON))).toEqual(MILTON.split('\n').map((l) => l.trim()));
  });

  it('keeps a short wrapped sentence whole (the line rules decide, not the cap)', () => {
    const t = 'The committee said on Tuesday that the new\nrules would take effect next year. Shares rose.';
    expect(pieces(t, splitSentences(t))).toEqual(['The committee said on Tuesday that the new\nrules would take effect next year.', 'Shares rose.']);
  });

  it('keeps a long sentence on one line whole (there is no line break to cut at)', () => {
    const long = 'word '.repeat(80).trim() + '.';
    expect(pieces(long, splitSentences(long))).toEqual([long]);
  });

  it('handles CRLF line ends and blank-ish lines inside the long sentence', () => {
    const t = MILTON.replace(/\n/g, '\r\n');
    expect(pieces(t, splitSentences(t))).toEqual(MILTON.split('\n').map((l) => l.trim()));
  });

  it('maxWrappedLength: Infinity gives whole sentences back', () => {
    expect(pieces(MILTON, splitSentences(MILTON, { maxWrappedLength: Infinity }))).toEqual([MILTON.trim()]);
  });

  it('capWrappedSentences returns the same array when nothing is long', () => {
    const t = 'One.\nTwo.';
    const spans = splitSentences(t, { maxWrappedLength: Infinity });
    expect(capWrappedSentences(t, spans, MAX_WRAPPED_LENGTH)).toBe(spans);
  });
});

describe.skipIf(sharedDir() === undefined)('splitSentences: hard-wrapped books and line-structured text', () => {
  // Emma (prose wrapped at ~70 columns), Paradise Lost (verse, no blank lines), Leaves of Grass.
  const books = corpusRecords('fiction-gutenberg/docs.jsonl.gz')
    .filter((r) => ['austen-emma.txt', 'milton-paradise.txt', 'whitman-leaves.txt'].includes(String(r.id)))
    .map((r) => String(r.text).slice(0, 300_000));

  it('leaves no piece longer than the cap that still spans a line break', () => {
    expect(books).toHaveLength(3);
    for (const book of books) {
      const whole = splitSentences(book, { maxWrappedLength: Infinity });
      const capped = splitSentences(book);
      expect(longWrapped(book, whole)).toBeGreaterThan(20); // the books do have such sentences
      expect(longWrapped(book, capped)).toBe(0);
      expect(capped.length).toBeGreaterThan(whole.length);
    }
  });

  it('only cuts further: every piece lies inside one whole sentence, and no text is lost', () => {
    for (const book of books) {
      expect(refines(book, splitSentences(book), splitSentences(book, { maxWrappedLength: Infinity }))).toBe(true);
    }
  });

  it('leaves one-sentence-per-line and short-line text as it was (leaflets, reviews)', () => {
    for (const rel of ['medical-patient-leaflets/docs.jsonl.gz', 'reviews-movie-polarity2/docs.jsonl.gz']) {
      let changed = 0;
      let docs = 0;
      for (const r of corpusRecords(rel, 200)) {
        const t = String(r.text);
        docs++;
        if (splitSentences(t).length !== splitSentences(t, { maxWrappedLength: Infinity }).length) changed++;
      }
      // Leaflets have a few long blocks wrapped over lines (SGML); reviews have none.
      expect(changed / docs, rel).toBeLessThan(0.35);
    }
  });
});
