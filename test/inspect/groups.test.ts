import { describe, expect, it } from 'vitest';
import { groupText, OFFER_MIN_SHARE, offersAvoid } from '../../src/inspect/groups.js';
import { Rng } from '../../src/core/rng.js';
import { taskWords } from '../../src/inspect/task-words.js';

const COOKING = 'oven flour butter sugar dough bake knead yeast whisk simmer garlic onion recipe skillet'.split(' ');
const HOCKEY = 'goalie puck period skate rink penalty power play scored assist rangers hartford faceoff slapshot'.split(' ');

/** Pieces of 5 sentences, each sentence 8 words of one vocabulary around common words. */
function pieces(vocab: string[], count: number, seed: number, first: number): { sentences: string[]; unit: number[] } {
  const rng = new Rng(seed);
  const sentences: string[] = [];
  const unit: number[] = [];
  for (let p = 0; p < count; p++) {
    for (let s = 0; s < 5; s++) {
      const words = Array.from({ length: 8 }, () => vocab[rng.int(vocab.length)] as string);
      sentences.push(`Then the ${words.slice(0, 4).join(' ')} and the ${words.slice(4).join(' ')} were there.`);
      unit.push(first + p);
    }
  }
  return { sentences, unit };
}

describe('groupText', () => {
  const a = pieces(COOKING, 30, 1, 0);
  const b = pieces(HOCKEY, 10, 2, 100);
  // Interleaved, as pieces of a kept file come.
  const sentences = [...a.sentences.slice(0, 75), ...b.sentences, ...a.sentences.slice(75)];
  const unit = [...a.unit.slice(0, 75), ...b.unit, ...a.unit.slice(75)];

  it('separates pieces about different things, largest group first, with their distinctive words', () => {
    const groups = groupText(sentences, unit, { groups: 2, seed: 0 });
    expect(groups.map((g) => g.pieces)).toEqual([30, 10]);
    expect(groups.map((g) => g.id)).toEqual([1, 2]);
    expect(groups[0]?.sentences.every((s) => a.sentences.includes(s))).toBe(true);
    expect(groups[1]?.sentences.every((s) => b.sentences.includes(s))).toBe(true);
    expect(groups.reduce((x, g) => x + g.share, 0)).toBeCloseTo(1, 10);
    expect(groups[0]?.share).toBeGreaterThan(0.7);
    for (const w of groups[0]?.words ?? []) expect(COOKING).toContain(w);
    for (const w of groups[1]?.words ?? []) expect([...HOCKEY, 'power play']).toContain(w);
    expect(groups[1]?.words.length).toBeGreaterThan(3);
    // Function words ("the", "and", "were") and the shared "then", "there" are no group's own.
    expect(groups.flatMap((g) => g.words)).not.toContain('the');
    expect(groups[0]?.examples).toHaveLength(3);
    for (const e of groups[1]?.examples ?? []) expect(b.sentences).toContain(e);
  });

  it("places reference sentences among the groups (each group's share of them)", () => {
    const ref = pieces(HOCKEY, 4, 9, 0).sentences;
    const groups = groupText(sentences, unit, { groups: 2, seed: 0, reference: [...ref, 'Preheat the oven and whisk the flour with butter.'] });
    expect(groups[1]?.referenceShare).toBeCloseTo(20 / 21, 10);
    expect(groups[0]?.referenceShare).toBeCloseTo(1 / 21, 10);
  });

  it('averages given scores per group, is deterministic, and copes with fewer pieces than groups', () => {
    const scores = sentences.map((s) => (a.sentences.includes(s) ? -1 : 2));
    const groups = groupText(sentences, unit, { groups: 2, seed: 0, scores });
    expect(groups.map((g) => g.meanScore)).toEqual([-1, 2]);
    expect(groupText(sentences, unit, { groups: 2, seed: 3 })).toEqual(groupText(sentences, unit, { groups: 2, seed: 3 }));
    const few = groupText(b.sentences.slice(0, 10), b.unit.slice(0, 10), { groups: 6, seed: 0 });
    expect(few.length).toBeLessThanOrEqual(2);
    expect(few.reduce((x, g) => x + g.sentences.length, 0)).toBe(10);
    expect(groupText([], [], { groups: 3, seed: 0 })).toEqual([]);
    // Nothing shared to group by (no word n-gram in two sentences): one group of everything.
    const lone = groupText(['The goalie stopped the puck.', 'Whisk flour.'], [0, 1], { groups: 3, seed: 0, reference: ['Bake it.'] });
    expect(lone).toHaveLength(1);
    expect(lone[0]).toMatchObject({ pieces: 2, share: 1, referenceShare: 1, indices: [0, 1] });
  });

  it('cuts long examples and refuses a bad call', () => {
    const long = `${'puck goalie rink '.repeat(30)}end.`;
    const groups = groupText([long, long, 'puck goalie rink.'], [0, 0, 1], { groups: 1, seed: 0, examples: 1 });
    expect(groups[0]?.examples[0]).toHaveLength(160);
    expect(groups[0]?.examples[0]?.endsWith('…')).toBe(true);
    expect(() => groupText(['a b'], [], { groups: 1, seed: 0 })).toThrow(/one piece id per sentence/);
    expect(() => groupText(['a b'], [0], { groups: 0, seed: 0 })).toThrow(/at least 1/);
  });
});

describe('groupText with the task', () => {
  const KINASE = 'kinase receptor protein binds phosphorylation enzyme substrate ligand domain signalling'.split(' ');
  const INSULIN = 'insulin glucose pancreas diabetes plasma secretion beta islet fasting hormone'.split(' ');
  const NEURON = 'neuron synapse axon dendrite cortex firing spike membrane potential channel'.split(' ');
  // The task talks of all three biomedical topics, its sentences interleaved (its word model is
  // fitted on one half of them); the text adds cooking and hockey pieces.
  const own = [KINASE, INSULIN, NEURON].map((v, i) => pieces(v, 8, 10 + i, 0).sentences);
  const task = own[0]!.flatMap((_, j) => own.map((o) => o[j] as string));
  const parts = [pieces(KINASE, 10, 20, 0), pieces(INSULIN, 10, 21, 10), pieces(NEURON, 10, 22, 20), pieces(COOKING, 10, 23, 30), pieces(HOCKEY, 10, 24, 40)];
  const sentences = parts.flatMap((p) => p.sentences);
  const unit = parts.flatMap((p) => p.unit);
  const taskLikeGroups = (likeGroups: number | undefined, groups: number) =>
    groupText(sentences, unit, { groups, seed: 0, taskWords: taskWords(task, 0), ...(likeGroups !== undefined ? { likeGroups } : {}) }).filter((g) => g.unlike! < 0.5);

  it('gives likeGroups of the groups to the task-like pieces, half of them by default', () => {
    expect(taskLikeGroups(1, 6)).toHaveLength(1);
    expect(taskLikeGroups(3, 6)).toHaveLength(3);
    expect(taskLikeGroups(undefined, 6)).toHaveLength(3);
    // Three task-like groups part the three topics the task talks of.
    const words = taskLikeGroups(3, 6).map((g) => new Set(g.sentences.flatMap((s) => s.split(/\W+/))));
    for (const v of [KINASE, INSULIN, NEURON]) expect(words.filter((w) => v.some((x) => w.has(x))).length).toBe(1);
  });

  it('calls a group unlike the task only when the task is written as running text is; offers an --avoid for one of 1% of the text or more', () => {
    // Hockey told to "you" among the task's kind of reports: its style sets it apart.
    const you = (v: string[], n: number, seed: number, first: number) => {
      const rng = new Rng(seed);
      const out = { sentences: [] as string[], unit: [] as number[] };
      for (let p = 0; p < n; p++) for (let k = 0; k < 5; k++) {
        out.sentences.push(`You know you ${v[rng.int(v.length)]} it, do you ${v[rng.int(v.length)]} or ${v[rng.int(v.length)]} it with me?`);
        out.unit.push(first + p);
      }
      return out;
    };
    const mixed = [pieces(KINASE, 10, 30, 0), pieces(INSULIN, 10, 31, 10), you(HOCKEY, 6, 32, 20)];
    const text = mixed.flatMap((p) => p.sentences);
    const units = mixed.flatMap((p) => p.unit);
    const verdicts = (t: string[]) => groupText(text, units, { groups: 4, seed: 0, taskWords: taskWords(t, 0) });
    const asText = verdicts(task);
    expect(asText.some((g) => g.verdict === 'unlike')).toBe(true);
    for (const g of asText) if (g.verdict === 'unlike') expect(g.sentences.every((x) => x.startsWith('You know'))).toBe(true);
    // The same task as titles (its content words alone): no function words to read a style from, so nothing is unlike it.
    const titles = task.map((x) => x.split(' ').filter((w) => !/^(Then|the|and|were|there\.)$/.test(w)).join(' '));
    expect(verdicts(titles).filter((g) => g.verdict === 'unlike')).toEqual([]);
    // The smallest group offered is 1% of the text.
    expect(offersAvoid({ verdict: 'unlike', share: OFFER_MIN_SHARE })).toBe(true);
    expect(offersAvoid({ verdict: 'unlike', share: OFFER_MIN_SHARE / 2 })).toBe(false);
    expect(offersAvoid({ verdict: 'off-topic', share: 0.5 })).toBe(false);
  });
});
