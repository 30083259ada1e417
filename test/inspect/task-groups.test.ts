import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { groupText, offersAvoid } from '../../src/inspect/groups.js';
import { rarer, taskWords } from '../../src/inspect/task-words.js';
import { splitSentences } from '../../src/text/sentences.js';
import { corpusRecords } from '../helpers/corpora.js';

/** A document's sentences, one line each. */
function sentencesOf(text: string): string[] {
  const spans = splitSentences(text);
  const out: string[] = [];
  for (let i = 0; i < spans.length; i += 2) out.push(text.slice(spans[i], spans[i + 1]).replace(/\s+/g, ' ').trim());
  return out;
}

/**
 * A kept text like a filter's on a crawl where the domain is plentiful and two small kinds of
 * text slipped in: 95% MEDLINE abstracts (the task is 300 other abstracts of the same source),
 * about 3% patient leaflets and 2% CS paper abstracts by characters, cut into 15-sentence
 * pieces within documents, as inspect cuts the kept text.
 */
function keptText(): { sentences: string[]; unit: number[]; source: string[]; task: string[] } {
  const bio = corpusRecords('bio-ohsumed/docs.jsonl.gz', 1000).map((r) => String(r.text));
  const kept = bio.slice(0, 700);
  const bioChars = kept.reduce((a, t) => a + t.length, 0);
  const upTo = (texts: string[], share: number) => {
    const out: string[] = [];
    let chars = 0;
    for (const t of texts) {
      if (chars >= (share / 0.95) * bioChars) break;
      out.push(t);
      chars += t.length;
    }
    return out;
  };
  const leaflets = upTo(corpusRecords('medical-patient-leaflets/docs.jsonl.gz', 300).map((r) => String(r.text)), 0.03);
  const cs = upTo(corpusRecords('cs-scisummnet-acl-papers/docs.jsonl.gz', 300).map((r) => (r.abstract as string[]).join(' ')), 0.02);
  const docs = [...kept.map((t) => ({ t, s: 'bio' })), ...leaflets.map((t) => ({ t, s: 'leaflets' })), ...cs.map((t) => ({ t, s: 'cs' }))];
  // Spread through the text, as kept runs of a crawl come.
  const order = docs.map((d, i) => ({ d, k: (i * 2654435761) % 4294967296 })).sort((a, b) => a.k - b.k);
  const sentences: string[] = [];
  const unit: number[] = [];
  const source: string[] = [];
  let piece = 0;
  for (const { d } of order) {
    const own = sentencesOf(d.t);
    own.forEach((s, i) => {
      sentences.push(s);
      unit.push(piece + Math.floor(i / 15));
      source.push(d.s);
    });
    piece += Math.ceil(own.length / 15);
  }
  return { sentences, unit, source, task: bio.slice(700).flatMap(sentencesOf) };
}

describe.skipIf(!sharedDir())('groups of a kept text, least task-like first (real text)', () => {
  it('sets the two small kinds of text apart as their own groups, first, and calls the rest task-like', () => {
    const { sentences, unit, source, task } = keptText();
    const words = taskWords(task, 0);
    // inspect's default: 12 groups, half of them for the task-like pieces.
    const groups = groupText(sentences, unit, { groups: 12, seed: 0, taskWords: words, reference: task });
    const chars = (g: { indices: number[] }, f: (s: string) => boolean) => g.indices.reduce((a, i) => a + (f(source[i] as string) ? (sentences[i] as string).length : 0), 0);
    const off = groups.map((g) => chars(g, (s) => s !== 'bio') / g.chars);
    // Ranked by how unlike the task, not by size: the groups offered an --avoid first, then each part in falling surprise.
    for (let i = 1; i < groups.length; i++) {
      const [a, b] = [groups[i - 1]!, groups[i]!];
      if (offersAvoid(a) === offersAvoid(b)) expect(b.surprise!).toBeLessThanOrEqual(a.surprise!);
      else expect(offersAvoid(a)).toBe(true);
    }
    // The first groups are the small kinds, each under 5% of the whole: a kind that is 2-3% of it stands out.
    for (const i of [0, 1]) {
      expect(off[i]).toBeGreaterThan(0.75);
      expect(groups[i]!.share).toBeLessThan(0.05);
      expect(groups[i]!.unlike).toBeGreaterThan(0.5);
      expect(rarer(groups[i]!.surprise!, words)).toBeGreaterThan(2);
    }
    // The leaflets are another kind of text (written to "you", not as an abstract): a group among the first three is called unlike the task.
    expect(groups.slice(0, 3).some((g) => g.verdict === 'unlike')).toBe(true);
    // Whatever is called unlike is mostly off-domain: no --avoid is offered for MEDLINE abstracts on topics the task lacks.
    for (const [i, g] of groups.entries()) if (g.verdict === 'unlike') expect(off[i]).toBeGreaterThan(0.75);
    expect(groups.filter((g) => g.verdict === 'unlike').reduce((a, g) => a + g.share, 0)).toBeLessThan(0.06);
    for (const kind of ['leaflets', 'cs']) {
      // Each kind's main group is among the first three and mostly that kind.
      const main = groups.reduce((best, g, i) => (chars(g, (s) => s === kind) > chars(groups[best]!, (s) => s === kind) ? i : best), 0);
      expect(main).toBeLessThan(3);
      expect(chars(groups[main]!, (s) => s === kind) / groups[main]!.chars).toBeGreaterThan(0.5);
      // Most of it sits in groups that are mostly unlike the task.
      const all = groups.reduce((a, g) => a + chars(g, (s) => s === kind), 0);
      const flagged = groups.filter((g) => g.unlike! >= 0.5).reduce((a, g) => a + chars(g, (s) => s === kind), 0);
      expect(flagged / all).toBeGreaterThan(0.6);
    }
    // The bulk of the domain is in the task-like groups, which come last and say so.
    const like = groups.filter((g) => g.verdict === 'task-like');
    expect(groups.slice(-like.length)).toEqual(like);
    expect(like.reduce((a, g) => a + g.share, 0)).toBeGreaterThan(0.6);
    for (const g of like) expect(g.unlike).toBeLessThan(0.5);
    const likeChars = like.reduce((a, g) => a + g.chars, 0);
    expect(like.reduce((a, g) => a + chars(g, (s) => s === 'bio'), 0) / likeChars).toBeGreaterThan(0.97);
  }, 120_000);
});

describe('taskWords', () => {
  const task = Array.from({ length: 60 }, (_, i) => `The enzyme kinase binds the receptor protein ${i % 7 ? 'strongly' : 'weakly'} in cells.`);
  it("scores text in the task's words as the task's own and other words as rarer", () => {
    const words = taskWords(task, 0);
    expect(words.surpriseOf(['The kinase binds the receptor.'])).toBeLessThanOrEqual(words.threshold);
    expect(words.surpriseOf(['Copyright holders disclaim every warranty of merchantability.'])).toBeGreaterThan(words.threshold);
    expect(rarer(words.surpriseOf(['Copyright holders disclaim every warranty.']), words)).toBeGreaterThan(100);
    expect(words.surpriseOf(['a to of'])).toBeNaN();
    // Style: the task's function words in the task's proportions read as the task's; text written to "you" does not.
    expect(words.styleOf(['The enzyme kinase binds the receptor protein weakly in cells.'])).toBeLessThanOrEqual(words.styleThreshold);
    expect(words.styleOf(['If you take it, do not stop: tell your doctor if you feel ill.'])).toBeGreaterThan(words.styleThreshold);
    expect(words.styleOf(['123'])).toBeLessThan(words.styleOf(['you you you']));
    expect(taskWords(task, 0)).toMatchObject({ heldOut: words.heldOut, threshold: words.threshold, styleThreshold: words.styleThreshold });
  });
});
