import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { splitSentences } from '../../src/text/sentences.js';

function sents(text: string): string[] {
  const s = splitSentences(text);
  const out: string[] = [];
  for (let k = 0; k < s.length; k += 2) out.push(text.slice(s[k], s[k + 1]));
  return out;
}

/** Returns a description of the first broken invariant, or undefined. */
function invariantError(text: string, spans: number[]): string | undefined {
  if (spans.length % 2 !== 0) return 'odd length';
  let prev = 0;
  for (let k = 0; k < spans.length; k += 2) {
    const s = spans[k]!;
    const e = spans[k + 1]!;
    if (!(Number.isInteger(s) && Number.isInteger(e) && s >= prev && e > s && e <= text.length)) {
      return `bad span ${s}-${e} after ${prev}`;
    }
    if (/\S/.test(text.slice(prev, s))) return `non-space text dropped before ${s}`;
    const piece = text.slice(s, e);
    if (piece.trim() !== piece) return `span ${s}-${e} not trimmed`;
    prev = e;
  }
  if (/\S/.test(text.slice(prev))) return 'non-space text dropped at the end';
  return undefined;
}

describe('splitSentences: contract', () => {
  it('returns [] for empty and whitespace-only text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\t\r\n \u00a0\u3000')).toEqual([]);
  });

  it('returns trimmed UTF-16 offsets into the text', () => {
    expect(splitSentences('  Hello world. Bye now!  ')).toEqual([2, 14, 15, 23]);
  });

  it('does not throw on NUL bytes, U+FFFD, lone surrogates, CR and CRLF', () => {
    const nasty = [
      'a\u0000b. C\u0000d.', '\ufffd\ufffd. \ufffd!', 'x\ud800. \udc00y. \ud83d', '\ud800.\udfff',
      'One.\rTwo.\r\nThree.\n\rFour', '.', '...', '!?!', ')', '(', '"', '\n', 'a.\u2028b', '\u0085',
    ];
    for (const t of nasty) expect(invariantError(t, splitSentences(t)), JSON.stringify(t)).toBeUndefined();
    expect(sents('One.\r\nTwo.\rThree.')).toEqual(['One.', 'Two.', 'Three.']);
  });

  it('is deterministic', () => {
    const t = 'Dr. Who met Mr. Smith at 5 p.m. Then they left. "Why?" he asked.';
    expect(splitSentences(t)).toEqual(splitSentences(t));
  });
});

describe('splitSentences: English edge cases', () => {
  it('keeps titles and common abbreviations inside the sentence', () => {
    expect(sents('Mr. Smith and Dr. Jones met Mrs. Lee. They talked.')).toEqual(['Mr. Smith and Dr. Jones met Mrs. Lee.', 'They talked.']);
    expect(sents('Bring fruit, e.g. apples, i.e. something sweet. Then leave.')).toEqual(['Bring fruit, e.g. apples, i.e. something sweet.', 'Then leave.']);
    expect(sents('Smith et al. (2005) showed this. See Fig. 3 and No. 5 in Jan. 2020.')).toEqual(['Smith et al. (2005) showed this.', 'See Fig. 3 and No. 5 in Jan. 2020.']);
  });

  it('U.S. / Inc. / etc. end a sentence only before a sentence starter', () => {
    expect(sents('I work for the U.S. Government in Virginia.')).toHaveLength(1);
    expect(sents('I live in the U.S. How about you?')).toEqual(['I live in the U.S.', 'How about you?']);
    expect(sents('He bought Acme Inc. The deal closed.')).toEqual(['He bought Acme Inc.', 'The deal closed.']);
    expect(sents('Pens, paper, etc. are on the desk. We have ink etc. The rest is gone.')).toEqual(['Pens, paper, etc. are on the desk.', 'We have ink etc.', 'The rest is gone.']);
  });

  it('initials: J. R. R. Tolkien and the pronoun I', () => {
    expect(sents('J. R. R. Tolkien wrote it. Albert I. Jones read it.')).toEqual(['J. R. R. Tolkien wrote it.', 'Albert I. Jones read it.']);
    expect(sents('We make a good team, you and I. Did you see him?')).toEqual(['We make a good team, you and I.', 'Did you see him?']);
  });

  it('decimals, money and percentages are not boundaries', () => {
    expect(sents('Pi is 3.14 and profit was $1.13bn, up 1.5%. Next year looks good.')).toEqual(['Pi is 3.14 and profit was $1.13bn, up 1.5%.', 'Next year looks good.']);
    expect(sents('She has $100.00. It is in her bag.')).toEqual(['She has $100.00.', 'It is in her bag.']);
  });

  it('ellipses', () => {
    expect(sents('I never meant that.... She left the store.')).toEqual(['I never meant that....', 'She left the store.']);
    expect(sents('Wait... what? Then… Nothing.')).toEqual(['Wait... what?', 'Then…', 'Nothing.']);
    expect(sents('the thing is . . . I did not mean it.')).toHaveLength(1);
  });

  it('quotes and brackets after terminal punctuation stay with their sentence', () => {
    expect(sents('He said "Stop." Then he left.')).toEqual(['He said "Stop."', 'Then he left.']);
    expect(sents('She turned to him, "This is great." she said.')).toHaveLength(1);
    expect(sents('It works (see above.) We move on.')).toEqual(['It works (see above.)', 'We move on.']);
  });

  it('enumerations and lists', () => {
    expect(sents('1. The first item 2. The second item')).toEqual(['1. The first item', '2. The second item']);
    expect(sents('1) The first item. 2) The second item.')).toEqual(['1) The first item.', '2) The second item.']);
    expect(sents('a. The first item b. The second item c. The third list item')).toEqual(['a. The first item', 'b. The second item', 'c. The third list item']);
    expect(sents('• 9. The first item • 10. The second item')).toEqual(['• 9. The first item', '• 10. The second item']);
  });

  it('URLs and e-mail addresses', () => {
    expect(sents('Her email is Jane.Doe@example.com. I sent her an email.')).toEqual(['Her email is Jane.Doe@example.com.', 'I sent her an email.']);
    expect(sents('See https://www.example.50.com/new-site/Page.html. Please check it out.')).toEqual(['See https://www.example.50.com/new-site/Page.html.', 'Please check it out.']);
  });

  it('missing space after a period', () => {
    expect(sents('Hello world.Today is Tuesday.Mr. Smith bought 1,000.That is a lot.')).toEqual(['Hello world.', 'Today is Tuesday.', 'Mr. Smith bought 1,000.', 'That is a lot.']);
  });

  it('multiple ! and ?, and names with !', () => {
    expect(sents('Hello!? Is that you?! Yes!!')).toEqual(['Hello!?', 'Is that you?!', 'Yes!!']);
    expect(sents('She works at Yahoo! in accounting.')).toHaveLength(1);
  });

  it('footnote markers glued to the period', () => {
    expect(sents('He was a martyr.[1] The emperor ruled.')).toEqual(['He was a martyr.[1]', 'The emperor ruled.']);
  });
});

describe('splitSentences: line breaks', () => {
  it('joins a hard-wrapped sentence (Gutenberg / Reuters style)', () => {
    const t = 'It is a truth universally acknowledged, that a single man in possession\n'
      + 'of a good fortune, must be in want of a wife. However little known the\n'
      + 'feelings or views of such a man may be on his first entering a\nneighbourhood, this truth is well fixed.';
    expect(sents(t).map((s) => s.replace(/\s+/g, ' '))).toEqual([
      'It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife.',
      'However little known the feelings or views of such a man may be on his first entering a neighbourhood, this truth is well fixed.',
    ]);
  });

  it('a line break after final punctuation ends the sentence even before lower case', () => {
    expect(sents('this is one line .\nthis is another line .')).toEqual(['this is one line .', 'this is another line .']);
  });

  it('one sentence per line without punctuation, and short lists', () => {
    expect(sents('features\ncontact manager\nevents, activities\n')).toEqual(['features', 'contact manager', 'events, activities']);
  });

  it('an all-capitals headline line is its own sentence', () => {
    const t = 'THAI TRADE DEFICIT WIDENS IN FIRST QUARTER\n  Thailand\'s trade deficit widened to 4.5\n  billion baht in the first quarter of 1987 from 2.1 billion a\n  year ago, the Business Economics Department said.\n';
    expect(sents(t).map((s) => s.replace(/\s+/g, ' '))).toEqual([
      'THAI TRADE DEFICIT WIDENS IN FIRST QUARTER',
      'Thailand\'s trade deficit widened to 4.5 billion baht in the first quarter of 1987 from 2.1 billion a year ago, the Business Economics Department said.',
    ]);
  });

  it('a blank line always ends a sentence', () => {
    expect(sents('A title without a period\n\nThe body starts here')).toEqual(['A title without a period', 'The body starts here']);
  });
});

describe('splitSentences: linear on long inputs', () => {
  it('a 2 MB string with no punctuation is one span', () => {
    const t = 'word '.repeat(400_000);
    expect(splitSentences(t)).toEqual([0, t.length - 1]);
  });

  it('2 MB of dots, newlines, quotes and list markers keeps the invariants', () => {
    for (const unit of ['a.', '. ', '\n', '"a ', '1. ', 'x\n\n', 'Mr. ']) {
      const t = unit.repeat(Math.floor(2_000_000 / unit.length));
      expect(invariantError(t, splitSentences(t)), JSON.stringify(unit)).toBeUndefined();
    }
  });
});

const shared = sharedDir();
const DOCS_PER_CORPUS = 800;

function sampleDocs(rel: string): string[] {
  const path = join(shared!, 'corpora', rel);
  if (!existsSync(path)) return [];
  const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter((l) => l !== '');
  const step = Math.max(1, Math.floor(lines.length / DOCS_PER_CORPUS));
  const out: string[] = [];
  for (let k = 0; k < lines.length && out.length < DOCS_PER_CORPUS; k += step) {
    const text = (JSON.parse(lines[k]!) as { text?: unknown }).text;
    if (typeof text === 'string') out.push(text);
  }
  return out;
}

describe.skipIf(shared === undefined)('splitSentences: invariants on real documents', () => {
  it('spans are ordered, trimmed and cover all non-whitespace text', () => {
    const corpora = ['news-bbc/docs.jsonl.gz', 'news-reuters21578-apte/docs.jsonl.gz', 'bio-ohsumed/docs.jsonl.gz',
      'forum-20newsgroups/docs.jsonl.gz', 'reviews-movie-polarity2/docs.jsonl.gz', 'medical-patient-leaflets/docs.jsonl.gz'];
    let checked = 0;
    let sentences = 0;
    for (const rel of corpora) {
      for (const doc of sampleDocs(rel)) {
        const spans = splitSentences(doc);
        expect(invariantError(doc, spans), `${rel}: ${doc.slice(0, 80)}`).toBeUndefined();
        checked++;
        sentences += spans.length / 2;
      }
    }
    expect(checked).toBeGreaterThan(3000);
    expect(sentences).toBeGreaterThan(checked); // documents are really split
  });
});
