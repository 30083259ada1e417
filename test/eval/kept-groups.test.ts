import { describe, expect, it } from 'vitest';
import { pickKeptGroups } from '../../src/eval/kept-groups.js';
import { Rng } from '../../src/core/rng.js';
import { groupText, offersAvoid } from '../../src/inspect/groups.js';
import { taskWords } from '../../src/inspect/task-words.js';

const WORDS = {
  news: 'minister parliament election said government police court report vote policy'.split(' '),
  forum: 'anyone think thanks post reply lol edu writes know really'.split(' '),
};

/** Segments of 5 sentences, each from one vocabulary; label 0 = news (in domain), 1 = forum. */
function mix(segments: Array<0 | 1>, seed: number): { sentences: string[]; weights: Float64Array; labels: Uint8Array } {
  const rng = new Rng(seed);
  const sentences: string[] = [];
  for (const l of segments) {
    const v = l === 0 ? WORDS.news : WORDS.forum;
    for (let j = 0; j < 5; j++) sentences.push(`The ${Array.from({ length: 7 }, () => v[rng.int(v.length)]).join(' ')}.`);
  }
  return { sentences, weights: Float64Array.from(segments, () => 5), labels: Uint8Array.from(segments) };
}

describe('pickKeptGroups', () => {
  const labels: Array<0 | 1> = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? 1 : 0));
  const m = mix(labels, 1);
  const keptAll = new Uint8Array(40).fill(1);

  it('avoids the groups mostly out of domain, with a seeded sample of their sentences', () => {
    const p = pickKeptGroups(m.sentences, m, keptAll, 0, { groups: 2, outOfDomain: 0.75, sentences: 12 }, 3);
    expect(p.groups.map((g) => g.outOfDomain)).toEqual([0, 1]);
    expect(p.groups[0]!.share).toBeGreaterThan(0.7);
    expect(p.avoided).toEqual([2]);
    expect(p.avoid).toHaveLength(12);
    const forum = new Set(m.sentences.filter((_, i) => labels[Math.floor(i / 5)] === 1));
    for (const s of p.avoid) expect(forum.has(s)).toBe(true);
    expect(pickKeptGroups(m.sentences, m, keptAll, 0, { groups: 2, outOfDomain: 0.75, sentences: 12 }, 3)).toEqual(p);
  });

  it('looks at the kept segments only, and avoids nothing when no group is foreign enough', () => {
    const keptNews = Uint8Array.from(labels, (l) => (l === 0 ? 1 : 0));
    const p = pickKeptGroups(m.sentences, m, keptNews, 0, { groups: 3, outOfDomain: 0.75, sentences: 50 }, 0);
    expect(p.avoided).toEqual([]);
    expect(p.avoid).toEqual([]);
    expect(p.groups.every((g) => g.outOfDomain === 0)).toBe(true);
    // Counting forum as the in-domain source turns every kept group foreign.
    expect(pickKeptGroups(m.sentences, m, keptNews, 1, { groups: 3, outOfDomain: 0.75, sentences: 50 }, 0).avoid).toHaveLength(50);
    expect(pickKeptGroups(m.sentences, m, new Uint8Array(40), 0, { groups: 3, outOfDomain: 0.75, sentences: 50 }, 0)).toEqual({ groups: [], avoided: [], avoid: [] });
  });

  it('with pick "offered", avoids what inspect offers an --avoid for, whatever the labels say', () => {
    const spec = { groups: 2, outOfDomain: 0.75, sentences: 12, pick: 'offered' as const };
    // Without a task inspect gives no verdicts, so it offers nothing: the labels would avoid group 2.
    expect(pickKeptGroups(m.sentences, m, keptAll, 0, spec, 3).avoided).toEqual([]);
    // Forum posts written to "you", news as reports: with a task of news, the forum group is unlike it.
    const rng = new Rng(5);
    const pick = (v: string[], n: number) => Array.from({ length: n }, () => v[rng.int(v.length)]).join(' ');
    const written = (l: 0 | 1) => (l === 0 ? `The ${pick(WORDS.news, 4)} of the ${pick(WORDS.news, 3)} was in the ${pick(WORDS.news, 2)}.` : `I ${pick(WORDS.forum, 3)} you ${pick(WORDS.forum, 2)}, do you ${pick(WORDS.forum, 2)}?`);
    const styled = { ...m, sentences: labels.flatMap((l) => Array.from({ length: 5 }, () => written(l))) };
    const task = Array.from({ length: 150 }, () => written(0));
    const p = pickKeptGroups(styled.sentences, styled, keptAll, 0, spec, 3, task);
    const groups = groupText(styled.sentences, Array.from(styled.sentences, (_, i) => Math.floor(i / 5)), { groups: 2, seed: 3, examples: 0, words: 0, taskWords: taskWords(task, 3) });
    expect(p.avoided).toEqual(groups.filter(offersAvoid).map((g) => g.id));
    expect(p.avoided).toHaveLength(1);
    const forum = new Set(styled.sentences.filter((_, i) => labels[Math.floor(i / 5)] === 1));
    expect(p.avoid).toHaveLength(12);
    const offered = new Set(groups.filter(offersAvoid).flatMap((g) => g.sentences));
    for (const s of p.avoid) expect(offered.has(s)).toBe(true);
    // The group offered holds the forum posts.
    expect([...forum].every((s) => offered.has(s))).toBe(true);
  });
});
