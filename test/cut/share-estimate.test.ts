import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { describeTaskShare, estimateSampleShare, shareInWords, taskLikePart } from '../../src/cut/share-estimate.js';

/** Sample segments of 15 sentences: `share` of them from a task-like mode `gap` below the rest. */
function mixture(share: number, segments: number, gap: number, seed = 1): { mean: number; sentences: number }[] {
  const rng = new Rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Array.from({ length: segments }, () => ({ mean: rng.next() < share ? -gap + 0.7 * normal() : normal(), sentences: 15 }));
}

describe('estimateSampleShare', () => {
  it('reads the share of a task-like part apart from the rest, with a range at least 1.5x either side', () => {
    for (const share of [0.35, 0.2, 0.08]) {
      const r = estimateSampleShare(mixture(share, 1500, 5));
      expect(r.share, `${share}: ${r.none}`).toBeDefined();
      const est = r.share!;
      expect(est.estimate / share, String(share)).toBeGreaterThan(0.85);
      expect(est.estimate / share, String(share)).toBeLessThan(1.15);
      expect(est.low).toBeLessThanOrEqual(est.estimate / 1.5 + 1e-12);
      expect(est.high).toBeGreaterThanOrEqual(Math.min(1, est.estimate * 1.5) - 1e-12);
      expect(r.segments).toBe(1500);
    }
  });
  it('gives no estimate, and says why, where the scores cannot tell', () => {
    // One mode, as a scorer that tells nothing gives: no estimate, and no bound worth giving.
    const flat = estimateSampleShare(mixture(0, 1500, 4));
    expect(flat.none).toMatch(/no part apart from the rest/);
    expect(flat.share).toBeUndefined();
    // Two modes that overlap: a shallow valley is no estimate; the most task-like part, doubled, is over half the sample: no bound.
    const overlap = estimateSampleShare(mixture(0.3, 1500, 1.6));
    expect(overlap.none).toMatch(/no part apart from the rest/);
    expect(overlap.share).toBeUndefined();
    // A small sample: a valley there can be a tail's (figure5-bio at 5,000 sentences read a fifth of the truth); no bound either.
    const small = estimateSampleShare(mixture(0.3, 400, 6), mixture(0.3, 400, 6, 2));
    expect(small.none).toMatch(/400 scored segments, under 600: too few/);
    expect(small.share).toBeUndefined();
  });
  it('without an estimate, bounds the share where the scores support it, and the bound holds', () => {
    // A part under 5% of the sample, far apart: too few segments to read a valley, but the
    // most task-like Gaussian part, doubled, is a ceiling under half the sample.
    const scarce = estimateSampleShare(mixture(0.02, 1500, 6));
    expect(scarce.share?.estimate).toBeUndefined();
    expect(scarce.share!.low).toBe(0);
    expect(scarce.share!.high).toBeGreaterThanOrEqual(0.02);
    expect(scarce.share!.high).toBeLessThan(0.1);
    // A scarce part the first fit (the task against the whole sample) sets far past the bulk:
    // its far tail is a floor, under the share; the probe's scores overlap, so no ceiling.
    const floor = estimateSampleShare(mixture(0.02, 1500, 1.5), mixture(0.02, 1500, 8, 2));
    expect(floor.share?.estimate).toBeUndefined();
    expect(floor.share!.low).toBeGreaterThan(0.02 / 2);
    expect(floor.share!.low).toBeLessThanOrEqual(0.02);
    expect(floor.share!.high).toBe(1);
    // The same probe scores with a first fit that sets nothing apart: no floor, so no range.
    expect(estimateSampleShare(mixture(0.02, 1500, 1.5), mixture(0, 1500, 8, 2)).share).toBeUndefined();
  });
  it("without an estimate, floors the share at the task-like part's weight where a fit hardly tells the task from that part", () => {
    // Two modes that overlap (no valley): the most task-like Gaussian part doubled is over half
    // the sample, so alone it bounds nothing.
    const overlap = mixture(0.3, 1500, 1.6);
    expect(estimateSampleShare(overlap).share).toBeUndefined();
    // The part told from the task (near-domain text, as where the domain is scarce): still nothing.
    expect(estimateSampleShare(overlap, [], 0.95).share).toBeUndefined();
    // The part hardly told from the task: it is the task's own kind of text, and its weight
    // bounds the share both ways: at least half of it, at most twice it (given past half the sample).
    const own = estimateSampleShare(overlap, [], 0.7);
    expect(own.share?.estimate).toBeUndefined();
    expect(own.none).toMatch(/no part apart from the rest/);
    expect(own.share!.low).toBeGreaterThan(0.3 / 2);
    expect(own.share!.low).toBeLessThanOrEqual(0.3);
    expect(own.share!.high).toBeGreaterThanOrEqual(0.3);
    expect(own.share!.high).toBeLessThan(1);
    expect(own.share!.high / own.share!.low).toBeCloseTo(4, 6);
    // A valley still gives the estimate, whatever the part's AUROC.
    expect(estimateSampleShare(mixture(0.2, 1500, 5), [], 0.7)).toEqual(estimateSampleShare(mixture(0.2, 1500, 5)));
  });
  it("names the segments of the scores' most task-like part, in the order given", () => {
    const segments = mixture(0.1, 1500, 6, 3);
    const inPart = taskLikePart(segments);
    expect(inPart).toHaveLength(1500);
    const members = segments.filter((_, i) => inPart[i]);
    expect(members.length / 1500).toBeGreaterThan(0.07);
    expect(members.length / 1500).toBeLessThan(0.13);
    // The task-like mode (6 below the rest, its spread 0.7) is the part; the rest's far tail is not.
    expect(segments.every((s, i) => inPart[i] === s.mean < -3 || Math.abs(s.mean + 3) < 0.5)).toBe(true);
    // Too few segments to fit three parts: none.
    expect(taskLikePart(segments.slice(0, 2))).toEqual([false, false]);
  });
  it('says it in one line, naming what the sample came from', () => {
    expect(describeTaskShare({ share: { estimate: 0.123, low: 0.082, high: 0.1845 }, segments: 1300 })).toMatch(/^about 12\.3% of the corpus's sentences look like the task \(range 8\.20%-18\.4%\), read from 1300 sample segments/);
    expect(describeTaskShare({ none: 'no valley', segments: 5 }, 'the general sample')).toBe('how much of the general sample looks like the task: no estimate, no valley');
    expect(describeTaskShare({ share: { low: 0, high: 0.31 }, none: 'no valley', segments: 900 })).toBe("at most 31.0% of the corpus's sentences look like the task, read from 900 sample segments; no closer estimate: no valley");
    expect(describeTaskShare({ share: { low: 0.004, high: 1 }, none: 'no valley', segments: 900 })).toBe("at least 0.40% of the corpus's sentences look like the task, read from 900 sample segments; no closer estimate: no valley");
    expect(describeTaskShare({ share: { low: 0.004, high: 0.2 }, none: 'no valley', segments: 900 })).toMatch(/^between 0\.40% and 20\.0% of the corpus's sentences look like the task/);
    // The eval's words beside the truth: the same three kinds.
    expect(shareInWords({ share: { estimate: 0.123, low: 0.082, high: 0.1845 } })).toBe('12.3% (range 8.20%-18.4%)');
    expect(shareInWords({ share: { low: 0.004, high: 1 }, none: 'no valley' })).toBe('at least 0.40% (no closer estimate: no valley)');
    expect(shareInWords({ none: 'too few' })).toBe('no estimate (too few)');
  });
});

describe('the default fit reads the share from its sample, whatever the keep', () => {
  // A sample of 1,600 segments of 5 sentences: 30% read like the task, the rest of a far topic.
  const rng = new Rng(4);
  const pick = (words: string[]) => Array.from({ length: 7 }, () => words[rng.int(words.length)]).join(' ');
  const BIO = 'kinase receptor protein binds enzyme cells expression inhibitor ligand membrane peptide gene'.split(' ');
  const SPORT = 'match goal season coach striker league penalty referee stadium fans keeper derby'.split(' ');
  const task = Array.from({ length: 300 }, () => `It is known that the ${pick(BIO)} was measured in the lab and that it was there.`);
  const general: string[] = [];
  const groups: number[] = [];
  for (let g = 0; g < 1600; g++) {
    const bio = g % 10 < 3;
    for (let s = 0; s < 5; s++) {
      general.push(`It was said that the ${pick(bio ? BIO : SPORT)} ${s} was there and that it is so.`);
      groups.push(g);
    }
  }
  it('the same reading at keep 5% and 30%, near the 30% that reads like the task, in model show', async () => {
    const { fitModel } = await import('../../src/model/fit.js');
    const { describeModel, summarizeModel } = await import('../../src/model/describe.js');
    const { taskShareOf } = await import('../../src/cut/share-estimate.js');
    const fit = (keep: number) => fitModel({ method: 'contrast', task, general, generalGroups: Uint32Array.from(groups), seed: 0, options: { keep } });
    const [a, b] = [await fit(0.05), await fit(0.3)];
    expect(taskShareOf(a)).toEqual(taskShareOf(b));
    const share = taskShareOf(a)?.share;
    expect(share, taskShareOf(a)?.none).toBeDefined();
    expect(share!.estimate).toBeGreaterThan(0.3 / 1.5);
    expect(share!.estimate).toBeLessThan(0.3 * 1.5);
    expect(describeModel(summarizeModel(a)).join('\n')).toMatch(/^about [\d.]+% of the general sample's sentences look like the task \(range/m);
    expect(describeModel(a)).toEqual(describeModel(summarizeModel(a)));
  }, 60_000);
  it('reads it too where the self-training moves by consensus (a task of titles), from one more fit', async () => {
    const { fitModel } = await import('../../src/model/fit.js');
    const { taskShareOf } = await import('../../src/cut/share-estimate.js');
    const model = await fitModel({ method: 'contrast', task, general, generalGroups: Uint32Array.from(groups), seed: 0, options: { keep: 0.05, moveBy: 'consensus' } });
    const r = taskShareOf(model);
    expect(r?.segments, r?.none).toBe(1600);
    expect(r?.share?.estimate, r?.none).toBeDefined();
    expect(r!.share!.low).toBeLessThanOrEqual(0.3);
    expect(r!.share!.high).toBeGreaterThanOrEqual(0.3);
  }, 60_000);
});
