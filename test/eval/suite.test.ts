import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import type { EvalResult, MethodResult } from '../../src/eval/run.js';
import { chunkDocument, readSourceDocs } from '../../src/eval/sources.js';
import { normalizeSpec, type FileSetSpec } from '../../src/eval/spec.js';
import { formatSuite, leaveOneOut, summarizeDraws, summarizeSuite } from '../../src/eval/suite.js';
import { testDir } from '../helpers/temp.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const dir = testDir('tadpole-suite-');
async function docs(fs: FileSetSpec): Promise<string[]> {
  const out: string[] = [];
  for await (const d of readSourceDocs(fs)) out.push(d);
  return out;
}

describe('document split, chunking and record filters (suite specs)', () => {
  const f = join(dir, 'docs.jsonl.gz');
  writeFileSync(f, gzipSync(Buffer.from(Array.from({ length: 10 }, (_, i) => JSON.stringify({ text: `Document ${i}.`, category: i % 3 === 0 ? 'business' : 'sport' })).join('\n') + '\n')));
  it('held-out and rest are complementary and disjoint', async () => {
    const held = await docs({ files: [f], format: 'jsonl-text', split: { every: 4, part: 'held-out' } });
    const rest = await docs({ files: [f], format: 'jsonl-text', split: { every: 4, part: 'rest' } });
    expect(held).toEqual(['Document 0.', 'Document 4.', 'Document 8.']);
    expect(rest).toHaveLength(7);
    expect(rest.filter((d) => held.includes(d))).toEqual([]);
  });
  it('where keeps or drops records by a field', async () => {
    expect(await docs({ files: [f], format: 'jsonl-text', where: { field: 'category', notIn: ['business'] } })).toHaveLength(6);
    expect(await docs({ files: [f], format: 'jsonl-text', where: { field: 'category', in: ['business'] } })).toEqual(['Document 0.', 'Document 3.', 'Document 6.', 'Document 9.']);
  });
  it('where filters csv rows by a column, and names a missing column', async () => {
    const c = join(dir, 'news.csv.gz');
    writeFileSync(c, gzipSync(Buffer.from('label,title,description\n2,Cup final,"Goals, late"\n4,New chip,Faster\n2,Open,Rain\n')));
    expect(await docs({ files: [c], format: 'csv', columns: ['title', 'description'], where: { field: 'label', in: ['2'] } })).toEqual(['Cup final\nGoals, late', 'Open\nRain']);
    expect(await docs({ files: [c], format: 'csv', columns: ['title'], where: { field: 'label', notIn: ['2'] } })).toEqual(['New chip']);
    await expect(docs({ files: [c], format: 'csv', columns: ['title'], where: { field: 'class', in: ['2'] } })).rejects.toThrow(/no column "class"/);
  });
  it('a spec may name one file as task and source only with complementary split parts', () => {
    const base = { inDomain: 'x', methods: [{ name: 'random' }] };
    const src = { label: 'x', files: ['/a.jsonl'], format: 'jsonl-text' as const };
    expect(() => normalizeSpec({ ...base, sources: [{ ...src, split: { every: 5, part: 'rest' } }], task: { files: ['/a.jsonl'], format: 'jsonl-text', split: { every: 5, part: 'held-out' } } })).not.toThrow();
    expect(() => normalizeSpec({ ...base, sources: [{ ...src, split: { every: 5, part: 'held-out' } }], task: { files: ['/a.jsonl'], format: 'jsonl-text', split: { every: 5, part: 'held-out' } } })).toThrow(/both task and corpus/);
    expect(() => normalizeSpec({ ...base, sources: [{ ...src, split: { every: 1, part: 'rest' } }], task: { files: ['/b.jsonl'], format: 'jsonl-text' } })).toThrow(/split.every/);
  });
  it('chunkDocument cuts at blank lines into pieces of about the size, and long paragraphs at line breaks', () => {
    const para = (i: number) => `Line ${i} of a hard-wrapped paragraph\nthat goes on for a while.`;
    const text = Array.from({ length: 20 }, (_, i) => para(i)).join('\n\n');
    const chunks = chunkDocument(text, 200);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('\n\n')).toBe(text);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(200);
    const oneLong = Array.from({ length: 100 }, (_, i) => `item ${i}`).join('\n');
    expect(chunkDocument(oneLong, 100).length).toBeGreaterThan(3);
    expect(chunkDocument('short', 100)).toEqual(['short']);
  });
});

function result(spec: string, byMethod: Record<string, number>): EvalResult {
  const methods = Object.entries(byMethod).map(([name, p]) => ({ name, precisionChars: p, seconds: 1 }) as unknown as MethodResult);
  return { spec, inDomain: 'x', keep: 0.2, keepBy: 'sentences', keepRule: 'fixed', inDomainShare: 0.3, segment: 15, seed: 1, labels: ['x'], mix: [{ label: 'x', docs: 1, bytes: 1, sentences: 1, share: 0.3, availableBytes: 1 }], taskSentences: 1, generalSentences: 1, methods };
}

describe('suite summary', () => {
  const results = [result('suite-a', { m1: 0.9, m2: 0.95 }), result('suite-b', { m1: 0.8, m2: 0.5 }), result('suite-c', { m1: 0.85, m2: 0.99 })];
  it('gives every method its mixes, mean and minimum with the worst mix', () => {
    const s = summarizeSuite(results);
    const m2 = s.rows.find((r) => r.method === 'm2')!;
    expect(m2.min).toBe(0.5);
    expect(m2.worst).toBe('suite-b');
    expect(m2.mean).toBeCloseTo((0.95 + 0.5 + 0.99) / 3, 12);
  });
  it('leave-one-domain-out picks by the best minimum on the other mixes', () => {
    const loo = leaveOneOut(summarizeSuite(results));
    // Leaving b out, m2 has the better minimum (0.95 vs 0.85) and scores 0.5 on b.
    expect(loo.find((l) => l.heldOut === 'suite-b')).toEqual({ heldOut: 'suite-b', chosen: 'm2', score: 0.5 });
    expect(loo.find((l) => l.heldOut === 'suite-a')!.chosen).toBe('m1');
  });
  it("never picks a row given the user's word (text to avoid, the inspect loop), however good", () => {
    const withWord = results.map((r) => ({ ...r, methods: [...r.methods, { name: 'm3', precisionChars: 1, seconds: 1, avoidSentences: 200 } as unknown as MethodResult, { name: 'm4', precisionChars: 1, seconds: 1, keptGroups: { groups: [], avoided: [], sentences: 0, precisionCharsBefore: 1 } } as unknown as MethodResult] }));
    const s = summarizeSuite(withWord);
    expect(s.rows.filter((r) => r.usersWord).map((r) => r.method)).toEqual(['m3', 'm4']);
    expect(leaveOneOut(s).map((l) => l.chosen)).toEqual(leaveOneOut(summarizeSuite(results)).map((l) => l.chosen));
    expect(summarizeDraws([s, s]).rows.filter((r) => r.usersWord)).toHaveLength(2);
    expect(formatSuite(s, withWord, 'suite')).toContain("rows given the user's word (--avoid) are no candidates");
    // Named as candidates, they count.
    expect(leaveOneOut(s, ['m1', 'm3'])[0]!.chosen).toBe('m3');
  });
  it('prints one row per method with mean and min', () => {
    const text = formatSuite(summarizeSuite(results), results, 'suite');
    expect(text).toMatch(/m2\s+95\.0%\s+50\.0%\s+99\.0%\s+81\.3%\s+50\.0%/);
    expect(text).toContain('leave-one-domain-out');
    expect(text).toContain('(keep 20.0% of sentences, segments of 15)');
  });
  it('names the mixes that keep another share than the rest', () => {
    const mixed = [...results.slice(0, 2), { ...results[2]!, keep: 0.1 }];
    expect(formatSuite(summarizeSuite(mixed), mixed, 'suite')).toContain('(keep 20.0% of sentences; c 10.0%, segments of 15)');
  });
  it('over draws: the worst draw per method and mix, the mean of every draw and mix, the minimum of all', () => {
    const other = [result('suite-a', { m1: 0.7, m2: 0.97 }), result('suite-b', { m1: 0.9, m2: 0.6 }), result('suite-c', { m1: 0.8, m2: 0.99 })];
    const s = summarizeDraws([summarizeSuite(results), summarizeSuite(other)]);
    const m1 = s.rows.find((r) => r.method === 'm1')!;
    expect(m1.byMix).toEqual({ 'suite-a': 0.7, 'suite-b': 0.8, 'suite-c': 0.8 });
    expect(m1.min).toBe(0.7);
    expect(m1.worst).toBe('suite-a');
    expect(m1.mean).toBeCloseTo((0.9 + 0.8 + 0.85 + 0.7 + 0.9 + 0.8) / 6, 12);
    expect(s.rows.find((r) => r.method === 'm2')!.byMix['suite-b']).toBe(0.5);
    // Leave-one-domain-out then judges the worst cases: leaving a out, m1's worst elsewhere is
    // 0.8 against m2's 0.5, so m1 is chosen and scores its worst draw on a.
    expect(leaveOneOut(s).find((l) => l.heldOut === 'suite-a')).toEqual({ heldOut: 'suite-a', chosen: 'm1', score: 0.7 });
    const text = formatSuite(s, results, 'over 2 draws', { note: 'worst share', shares: false });
    expect(text).toContain('over 2 draws: worst share');
    expect(text).not.toContain('(in-domain share of mix)');
  });
});

describe('suite summary at 0.5x, 1x and 2x the in-domain share', () => {
  /** A mix whose methods keep "share", each with precision / recall at the three cuts. */
  const shareResult = (spec: string, byMethod: Record<string, Array<[number, number]>>): EvalResult => {
    const r = result(spec, Object.fromEntries(Object.entries(byMethod).map(([m, cuts]) => [m, cuts[1]![0]])));
    for (const m of r.methods) m.atShare = byMethod[m.name]!.map(([precisionChars, recallChars], k) => ({ factor: [0.5, 1, 2][k]!, keep: [0.005, 0.01, 0.02][k]!, precisionChars, recallChars }));
    return { ...r, keep: 0.01, keepRule: 'share' };
  };
  const results = [
    shareResult('suite-a', { m1: [[1, 0.5], [0.9, 0.9], [0.5, 1]], m2: [[0.6, 0.3], [0.5, 0.5], [0.3, 0.6]] }),
    shareResult('suite-b', { m1: [[0.8, 0.4], [0.7, 0.7], [0.45, 0.9]], m2: [[0.7, 0.35], [0.6, 0.6], [0.4, 0.8]] }),
  ];
  it('per method and cut: mean and minimum precision with the worst mix, mean recall', () => {
    const m1 = summarizeSuite(results).rows.find((r) => r.method === 'm1')!;
    expect(m1.atShare!.map((c) => c.factor)).toEqual([0.5, 1, 2]);
    expect(m1.atShare![0]!.precisionMean).toBeCloseTo(0.9, 12);
    expect(m1.atShare![0]!.precisionMin).toBe(0.8);
    expect(m1.atShare![0]!.worst).toBe('suite-b');
    expect(m1.atShare![2]!.recallMean).toBeCloseTo(0.95, 12);
    expect(m1.atShare![2]!.precisionMin).toBe(0.45);
    // 1x is the cut the mixes' own table shows.
    expect([m1.atShare![1]!.precisionMean, m1.atShare![1]!.precisionMin]).toEqual([m1.mean, m1.min]);
  });
  it('a method without cuts on some mix has none: a mean over fewer mixes would not compare', () => {
    const partial = [results[0]!, { ...results[1]!, methods: results[1]!.methods.filter((m) => m.name !== 'm2') }];
    const rows = summarizeSuite(partial).rows;
    expect(rows.find((r) => r.method === 'm2')!.atShare).toBeUndefined();
    expect(rows.find((r) => r.method === 'm1')!.atShare).toHaveLength(3);
    expect(formatSuite(summarizeSuite(partial), partial, 'suite')).toMatch(/m2\s+-\s+-\s+-\s+-/);
  });
  it('prints the three-cut table for a suite of keep "share" mixes only', () => {
    const text = formatSuite(summarizeSuite(results), results, 'suite');
    expect(text).toContain("(keep each mix's in-domain share of sentences, segments of 15)");
    expect(text).toMatch(/method\s+0\.5x mean\s+0\.5x min\s+0\.5x recall\s+1x mean\s+1x min\s+1x recall\s+2x mean\s+2x min\s+2x recall/);
    expect(text).toMatch(/m2\s+65\.0%\s+60\.0%\s+32\.5%\s+55\.0%\s+50\.0%\s+55\.0%\s+35\.0%\s+30\.0%\s+70\.0%/);
    const fixed = results.map((r) => ({ ...r, keepRule: 'fixed' as const }));
    expect(formatSuite(summarizeSuite(fixed), fixed, 'suite')).not.toContain('0.5x mean');
  });
  it('over draws: the mean of the draws\' means, the minimum of their minimums and its mix', () => {
    const other = [
      shareResult('suite-a', { m1: [[0.6, 0.3], [0.5, 0.5], [0.3, 0.7]], m2: [[0.6, 0.3], [0.5, 0.5], [0.3, 0.6]] }),
      shareResult('suite-b', { m1: [[0.9, 0.5], [0.8, 0.8], [0.5, 0.9]], m2: [[0.7, 0.35], [0.6, 0.6], [0.4, 0.8]] }),
    ];
    const m1 = summarizeDraws([summarizeSuite(results), summarizeSuite(other)]).rows.find((r) => r.method === 'm1')!;
    expect(m1.atShare![0]!.precisionMean).toBeCloseTo((0.9 + 0.75) / 2, 12);
    expect(m1.atShare![0]!.precisionMin).toBe(0.6);
    expect(m1.atShare![0]!.worst).toBe('suite-a');
    expect(m1.atShare![2]!.recallMean).toBeCloseTo((0.95 + 0.8) / 2, 12);
  });
});

describe.skipIf(!sharedDir())('corpora/suite', () => {
  const files = readdirSync(join(root, 'corpora/suite')).filter((f) => f.endsWith('.json'));
  /** The specs of a sibling suite folder, as paths relative to corpora/suite. */
  const specsIn = (dir: string): string[] => readdirSync(join(root, 'corpora', dir)).filter((f) => f.endsWith('.json')).map((f) => `../${dir}/${f}`);
  const loadSpec = (f: string) => normalizeSpec(JSON.parse(readFileSync(join(root, 'corpora/suite', f), 'utf8')), f);
  const expectTaskOutsideMix = (s: ReturnType<typeof loadSpec>, f: string): void => {
    const mixFiles = new Set(s.sources.flatMap((x) => x.files));
    for (const t of s.task.files) expect(mixFiles.has(t), `${f}: ${t}`).toBe(false);
  };
  it('has at least 10 task/mix specs over at least 8 in-domain labels', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
    const labels = new Set(files.map((f) => JSON.parse(readFileSync(join(root, 'corpora/suite', f), 'utf8')).inDomain));
    expect(labels.size).toBeGreaterThanOrEqual(8);
  });
  // corpora/suite-hard: mixes beyond every method measured, kept runnable beside the suite.
  const hard = specsIn('suite-hard');
  // corpora/suite-check: mixes of kinds the suite lacks, one of them at 10% in-domain.
  const check = specsIn('suite-check');
  // corpora/suite-avoid: five check mixes with and without text to avoid.
  const avoided = specsIn('suite-avoid');
  // corpora/suite-fresh: five mixes built after every choice, from pairings no other suite uses.
  const fresh = specsIn('suite-fresh');
  // corpora/suite-probe: a question task and four more topics within a genre.
  const probe = specsIn('suite-probe');
  // corpora/suite-raw: two suite tasks as their datasets ship them, labels kept.
  const raw = specsIn('suite-raw');
  for (const f of [...files, ...hard, ...check, ...avoided, ...fresh, ...probe, ...raw]) {
    const least = f.startsWith('../suite-check/') || f.startsWith('../suite-avoid/') ? 0.1 : 0.2;
    it(`${f} is valid, names existing files, puts ${100 * least}-40% of the bytes in-domain, and keeps no more than that`, () => {
      const s = loadSpec(f);
      for (const p of [...s.sources.flatMap((x) => x.files), ...s.task.files]) expect(existsSync(p), p).toBe(true);
      const inShare = s.sources.filter((x) => x.label === s.inDomain).reduce((a, x) => a + (x.share ?? 0), 0);
      expect(inShare).toBeGreaterThanOrEqual(least - 1e-9);
      expect(inShare).toBeLessThanOrEqual(0.4);
      // Keeping more than the in-domain share caps a perfect selector below 100%: such a mix
      // could not tell a selector that meets the 90% target from one that misses it.
      expect(s.keep).toBeLessThanOrEqual(inShare + 1e-9);
    });
  }
  it('the avoid suite runs each mix with and without 200 held-out sentences of one of its own sources', () => {
    expect(avoided).toHaveLength(5);
    for (const f of avoided) {
      const s = loadSpec(f);
      const avoid = s.methods.find((m) => m.avoid)!.avoid!;
      expect(avoid).toMatchObject({ maxSentences: 200, split: { part: 'held-out' } });
      expect(s.sources.some((x) => x.files.join() === avoid.files.join() && x.split?.part === 'rest' && JSON.stringify(x.where) === JSON.stringify(avoid.where))).toBe(true);
    }
  });
  it('the raw suite gives two suite mixes their task as shipped, labels kept, and measures the default with and without stripping them', () => {
    expect(raw).toHaveLength(2);
    for (const f of raw) {
      const s = loadSpec(f);
      const base = loadSpec(f.replace('../suite-raw/', '').replace('-raw.json', '.json'));
      expect(s.sources).toEqual(base.sources);
      expect(s.task.files).toEqual(base.task.files);
      expect(s.task).not.toEqual(base.task);
      expect(s.methods.map((m) => m.options?.artefacts ?? null)).toContain('keep');
    }
  });
  it('the fresh suite takes every task from files none of its mix reads', () => {
    expect(fresh).toHaveLength(5);
    for (const f of fresh) {
      expectTaskOutsideMix(loadSpec(f), f);
    }
  });
  it('the probe suite: the question task reads no file of its mix; each forum task is held-out posts of a group whose other posts only the in-domain source reads', () => {
    expect(probe).toHaveLength(5);
    for (const f of probe) {
      const s = loadSpec(f);
      if (!f.includes('forum-')) {
        expectTaskOutsideMix(s, f);
        continue;
      }
      const group = s.task.where!.in![0]!;
      expect(s.task.split).toEqual({ every: 4, part: 'held-out' });
      for (const x of s.sources.filter((x) => x.files.join() === s.task.files.join())) {
        expect(x.split?.part, `${f}: ${x.label}`).toBe('rest');
        expect(x.where!.in!.includes(group), `${f}: ${x.label}`).toBe(x.label === s.inDomain);
      }
    }
  });
  it('the check suite holds ten mixes, among them three title tasks', () => {
    expect(check).toHaveLength(10);
    expect(check.filter((f) => f.includes('titles'))).toHaveLength(3);
  });
  // corpora/suite-scarce: the domain 0.5-3% of a large mix, keep its true share.
  // corpora/suite-scarce-ambiguous: two more, whose other sources hold the task's topic too.
  const scarce = specsIn('suite-scarce');
  const ambiguous = specsIn('suite-scarce-ambiguous');
  it('the scarce suite: nine valid mixes of 50 MB or more, 0.5-3% of the bytes in-domain, each keeping the in-domain share (and the three ambiguous ones)', () => {
    expect(scarce).toHaveLength(9);
    expect(ambiguous).toHaveLength(3);
    for (const f of [...scarce, ...ambiguous]) {
      const s = loadSpec(f);
      for (const p of [...s.sources.flatMap((x) => x.files), ...s.task.files]) expect(existsSync(p), p).toBe(true);
      expect(s.keep, f).toBe('share');
      expect(s.mixBytes, f).toBeGreaterThanOrEqual(50e6);
      const inShare = s.sources.filter((x) => x.label === s.inDomain).reduce((a, x) => a + (x.share ?? 0), 0);
      expect(inShare, f).toBeGreaterThanOrEqual(0.005 - 1e-9);
      expect(inShare, f).toBeLessThanOrEqual(0.03);
    }
  });
});
