import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { normalizeSpec } from '../../src/eval/spec.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const base = {
  sources: [{ label: 'bio', share: 0.5, files: ['/x/bio.jsonl'], format: 'jsonl-text' }],
  inDomain: 'bio',
  task: { files: ['/x/task.jsonl'], format: 'jsonl-text' },
  methods: [{ name: 'random' }],
};

describe('normalizeSpec', () => {
  it('fills keep 0.2, segment 15 and a general sample by default', () => {
    const s = normalizeSpec(base);
    expect([s.keep, s.segment, s.generalSample]).toEqual([0.2, 15, 5000]);
  });
  it('takes keep "share" (the in-domain share, known once the mix is built) and refuses any other word or a number outside (0, 1)', () => {
    expect(normalizeSpec({ ...base, keep: 'share' }).keep).toBe('share');
    expect(normalizeSpec({ ...base, keep: 0.05 }).keep).toBe(0.05);
    for (const keep of ['half', 1, 0, '0.2']) expect(() => normalizeSpec({ ...base, keep }), String(keep)).toThrow(/"keep" must be a number in \(0, 1\) or "share"/);
  });
  it('refuses a file used as both task and corpus', () => {
    expect(() => normalizeSpec({ ...base, task: { files: ['/x/bio.jsonl'], format: 'jsonl-text' } })).toThrow(/both task and corpus/);
  });
  it('refuses an inDomain label that no source has, naming the labels', () => {
    expect(() => normalizeSpec({ ...base, inDomain: 'cs' })).toThrow(/one of the source labels \(bio\)/);
  });
  it('refuses an unknown method and an unknown normalize step, listing the choices', () => {
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'bm25' }] })).toThrow(/should be one of: contrast, tadpole/);
    expect(() => normalizeSpec({ ...base, task: { ...base.task, normalize: ['lowercase'] } })).toThrow(/unknown normalize step "lowercase"/);
  });
  it('takes text to avoid for the default fit only, and never from a file the mix reads unless the split parts are complementary', () => {
    const avoid = { files: ['/x/posts.jsonl'], format: 'jsonl-text', maxSentences: 200 };
    expect(normalizeSpec({ ...base, methods: [{ name: 'contrast', avoid }] }).methods[0]!.avoid).toEqual(avoid);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'dsir', avoid }] })).toThrow(/methods\[0\]\.avoid.*only the default fit/);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'tadpole', options: { detector: 'iforest' }, avoid }] })).toThrow(/only the default fit .* not tadpole with detector iforest/);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoid: { ...avoid, maxSentences: 0 } }] })).toThrow(/"maxSentences" must be a positive integer/);
    const fromMix = { files: ['/x/bio.jsonl'], format: 'jsonl-text' };
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoid: fromMix }] })).toThrow(/also read by source "bio": text to avoid must not be in the mix/);
    const split = (part: string) => ({ split: { every: 4, part } });
    const sources = [{ ...base.sources[0]!, ...split('rest') }];
    expect(normalizeSpec({ ...base, sources, methods: [{ name: 'contrast', avoid: { ...fromMix, ...split('held-out') } }] }).methods[0]!.avoid!.split).toEqual({ every: 4, part: 'held-out' });
  });
  it('takes the inspect + --avoid loop (avoidKeptGroups) for the default fit only, with its defaults filled in', () => {
    expect(normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: {} }] }).methods[0]!.avoidKeptGroups).toEqual({ groups: 12, outOfDomain: 0.75, sentences: 200 });
    expect(normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: { groups: 4 } }] }).methods[0]!.avoidKeptGroups).toEqual({ groups: 4, outOfDomain: 0.75, sentences: 200 });
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'dsir', avoidKeptGroups: {} }] })).toThrow(/methods\[0\]\.avoidKeptGroups.*only the default fit/);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: { groups: 0 } }] })).toThrow(/"groups" must be a positive integer/);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: { outOfDomain: 1.5 } }] })).toThrow(/"outOfDomain" must be in \(0, 1\]/);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: { sentences: 2.5 } }] })).toThrow(/"sentences" must be a positive integer/);
    expect(normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: { groups: 6, likeGroups: 1 } }] }).methods[0]!.avoidKeptGroups).toEqual({ groups: 6, outOfDomain: 0.75, sentences: 200, likeGroups: 1 });
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: { groups: 6, likeGroups: 6 } }] })).toThrow(/"likeGroups" must be a positive integer under "groups"/);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoidKeptGroups: 3 }] })).toThrow(/must be an object/);
    expect(() => normalizeSpec({ ...base, methods: [{ name: 'contrast', avoid: { files: ['/x/p.jsonl'], format: 'jsonl-text' }, avoidKeptGroups: {} }] })).toThrow(/"avoid" or "avoidKeptGroups", not both/);
  });
  it('refuses shares that add up to more than 1', () => {
    const two = [base.sources[0], { label: 'cs', share: 0.6, files: ['/x/cs.jsonl'], format: 'jsonl-text' }];
    expect(() => normalizeSpec({ ...base, sources: two })).toThrow(/add up to 1.100/);
  });
});

describe.skipIf(!sharedDir())('the specs in corpora/', () => {
  const specs = readdirSync(join(root, 'corpora')).filter((f) => f.endsWith('.json'));
  it('there are the Figure-5, distractor and smoke specs', () => {
    expect(specs).toEqual(expect.arrayContaining(['figure5-bio.json', 'figure5-cs.json', 'distractors-bio.json', 'smoke-bio.json']));
  });
  for (const f of specs) {
    it(`${f} is valid and every file it names exists`, async () => {
      const { existsSync } = await import('node:fs');
      const s = normalizeSpec(JSON.parse(readFileSync(join(root, 'corpora', f), 'utf8')), f);
      for (const p of [...s.sources.flatMap((x) => x.files), ...s.task.files]) expect(existsSync(p), p).toBe(true);
      for (const m of s.methods) if (m.embedder?.modelDir) expect(existsSync(m.embedder.modelDir), m.embedder.modelDir).toBe(true);
    });
  }
});
