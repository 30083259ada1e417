import { describe, expect, it } from 'vitest';
import { countPlaces, describeArtefacts, findTaskArtefacts, stripArtefacts, type TaskArtefact } from '../../src/select/artefacts.js';
import { fitModel } from '../../src/model/fit.js';
import { openScorer } from '../../src/model/open.js';
import { summarizeModel, describeModel } from '../../src/model/describe.js';
import { HAVE_SHARED, smallMix } from './fixture.js';

const WORDS = ['protein', 'binds', 'the', 'receptor', 'market', 'shares', 'rose', 'team', 'won', 'match', 'of', 'a', 'in', 'cells', 'price', 'league'];
/** n seeded sentences of 6-12 words from WORDS. */
function prose(n: number, seed: number): string[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, () => {
    const w = Array.from({ length: 6 + Math.floor(next() * 7) }, () => WORDS[Math.floor(next() * WORDS.length)] as string);
    return `${w[0]!.charAt(0).toUpperCase()}${w.join(' ').slice(1)}.`;
  });
}
const corpus = prose(2000, 1);
const byToken = (found: TaskArtefact[]) => Object.fromEntries(found.map((a) => [a.token, a.place]));

describe('task artefacts', () => {
  it('counts in the sample only the tokens asked for, each as often as full counts do', () => {
    // Labels the corpus has at that place now and then.
    const sometimes = corpus.map((s, i) => (i % 150 === 0 ? `positive ${s}` : i % 40 === 0 ? `${s} neutral` : s));
    const full = countPlaces(sometimes);
    const none = new Set<string>();
    for (const only of [
      { first: new Set(['positive', 'protein', 'absent']), last: new Set(['neutral', 'league']), any: none },
      { first: none, last: none, any: new Set(['positive', 'neutral', 'the', 'absent']) },
    ]) {
      const part = countPlaces(sometimes, only);
      for (const place of ['first', 'last', 'any'] as const) {
        expect([...part[place].keys()].every((k) => only[place].has(k))).toBe(true);
        for (const k of only[place]) expect(part[place].get(k)).toBe(full[place].get(k));
      }
    }
    expect(full.first.get('positive')).toBeGreaterThan(0);
    expect(full.last.get('neutral')).toBeGreaterThan(0);
  });

  it('finds a label, a row number, a prefix and a separator that the corpus lacks, at their place', () => {
    const task = prose(200, 2);
    expect(byToken(findTaskArtefacts(task.map((s, i) => `${i % 2 ? 'negative' : 'positive'}\t${s}`), corpus))).toEqual({ positive: 'any', negative: 'any' });
    // Three labels, a third of the sentences each: too few for "anywhere", enough as the first token.
    expect(byToken(findTaskArtefacts(task.map((s, i) => `${['pos', 'neg', 'neu'][i % 3]}: ${s}`), corpus))).toEqual({ pos: 'first', neg: 'first', neu: 'first' });
    // Row numbers: digits read as 0, so 1000-1199 are one token.
    expect(byToken(findTaskArtefacts(task.map((s, i) => `${1000 + i}\t${s}`), corpus))).toEqual({ '0000': 'any' });
    expect(byToken(findTaskArtefacts(task.map((s) => `${s} [SEP]`), corpus))).toEqual({ sep: 'any' });
    // PhraseBank's form, one label in a third of the sentences: the last token, not anywhere.
    const last = findTaskArtefacts(task.map((s, i) => (i % 3 ? s : `${s}@neutral`)), corpus);
    expect(last).toEqual([expect.objectContaining({ token: 'neutral', place: 'last' })]);
    expect(last[0]!.taskShare).toBeCloseTo(67 / 200);
    expect(last[0]!.corpusShare).toBe(0);
  });

  it('leaves the task alone when its frequent tokens are the corpus\'s too, too rare in the task, or the task is tiny', () => {
    expect(findTaskArtefacts(prose(300, 3), corpus)).toEqual([]);
    // A topic word in 40% of the task that the corpus never has: a topic, not an artefact.
    const task = prose(300, 4).map((s, i) => (i % 5 < 2 ? `The kinase ${s.toLowerCase()}` : s));
    expect(findTaskArtefacts(task, corpus)).toEqual([]);
    // A prefix the corpus also has at the start of a tenth of its sentences: 100/10 < 100.
    const withIntro = corpus.map((s, i) => (i % 10 ? s : `Claim: ${s}`));
    expect(findTaskArtefacts(prose(300, 5).map((s) => `Claim: ${s}`), withIntro)).toEqual([]);
    expect(findTaskArtefacts(prose(19, 6).map((s) => `Claim: ${s}`), corpus)).toEqual([]);
    expect(findTaskArtefacts(prose(300, 6).map((s) => `Claim: ${s}`), [])).toEqual([]);
  });

  it('strips an edge token with its separator and an inner one to a space; a sentence of artefacts only stays', () => {
    const a: TaskArtefact[] = [
      { token: 'claim', place: 'first', taskShare: 1, corpusShare: 0 },
      { token: 'sep', place: 'last', taskShare: 1, corpusShare: 0 },
      { token: 'gene', place: 'any', taskShare: 1, corpusShare: 0 },
    ];
    expect(stripArtefacts('Claim: The text.', a)).toBe('The text.');
    expect(stripArtefacts('The text . [SEP]', a)).toBe('The text');
    expect(stripArtefacts('The @GENE$ binds it', a)).toBe('The @ $ binds it');
    // A first-place artefact elsewhere in the sentence is text.
    expect(stripArtefacts('x claim y', a)).toBe('x claim y');
    expect(stripArtefacts('Claim', a)).toBe('Claim');
    expect(stripArtefacts('GENE, SEP', a)).toBe('GENE, SEP');
    expect(stripArtefacts('no artefact here', [])).toBe('no artefact here');
    expect(describeArtefacts([a[0]!, { token: '0000', place: 'any', taskShare: 0.5, corpusShare: 0.0012 }])).toMatch(
      /"claim" \(the first token of 100% of the task sentences, 0\.00% of the corpus sample's\), "0000" \(in 50% of the task sentences, 0\.12% .*artefacts=keep/,
    );
  });
});

describe.skipIf(!HAVE_SHARED)('task artefacts in the default fit (ChemProt task, bio vs BBC news)', () => {
  it('a prefix on every task sentence is stripped before the fit: the model scores as one fitted on the plain task, says so, and keeps them when told', async () => {
    const mix = smallMix();
    const plain = mix.task.filter((s) => /^[\p{L}\p{N}]/u.test(s));
    const prefixed = plain.map((s) => `Qzx: ${s}`);
    const lines: string[] = [];
    const opts = { rounds: 1, keep: 0.2 };
    const stripped = await fitModel({ method: 'contrast', task: prefixed, general: mix.general, seed: 5, options: opts, log: (l) => lines.push(l) });
    const reference = await fitModel({ method: 'contrast', task: plain, general: mix.general, seed: 5, options: opts });
    expect(stripped.selector.state.artefacts).toEqual([expect.objectContaining({ token: 'qzx', place: 'any', taskShare: 1, corpusShare: 0 })]);
    expect(lines.join('\n')).toMatch(/task artefacts: "qzx"/);
    expect(describeModel(summarizeModel(JSON.parse(JSON.stringify(stripped)))).join('\n')).toMatch(/task artefacts: "qzx"/);
    expect(reference.selector.state.artefacts).toBeUndefined();
    const score = async (m: typeof stripped) => {
      const s = await openScorer(JSON.parse(JSON.stringify(m)));
      try {
        return await s.score(mix.sentences);
      } finally {
        await s.dispose();
      }
    };
    expect(await score(stripped)).toEqual(await score(reference));
    const kept = await fitModel({ method: 'contrast', task: prefixed, general: mix.general, seed: 5, options: { ...opts, artefacts: 'keep' } });
    expect(kept.selector.state.artefacts).toBeUndefined();
    expect(await score(kept)).not.toEqual(await score(reference));
    await expect(fitModel({ method: 'contrast', task: prefixed, general: mix.general, seed: 5, options: { ...opts, artefacts: 'drop' } })).rejects.toThrow(/artefacts/);
  });
});
