import { describe, expect, it } from 'vitest';
import type { Cut, KeepBy } from '../../src/cut/exact.js';
import { drivePasses, type Drive, type PassPlace, type Scored } from '../../src/passes/drive.js';
import type { Pass2Writer } from '../../src/passes/emit-pass.js';
import { emptyTally } from '../../src/passes/keep-tally.js';

/** A place that runs nothing: it records what the driver asked of it, in order. */
function fakePlace(scored: Scored | null = { segments: 10, moments: { mean: 1, std: 2 }, reader: { docs: 3 } }) {
  const calls: string[] = [];
  const writers: Array<{ writer: Pass2Writer; from: string }> = [];
  const cut: Cut = { keep: 0.5, keepBy: 'bytes', threshold: 0.25, tieId: 7, totalWeight: 10, targetWeight: 5, keptWeight: 5, keptSegments: 5, totalSegments: 10 };
  const place: PassPlace = {
    async score() {
      calls.push('score');
      return scored ?? undefined;
    },
    betweenPasses() {
      calls.push('between');
    },
    cut(keep: number, keepBy: KeepBy) {
      calls.push(`cut ${keep} ${keepBy}`);
      return cut;
    },
    async emit(writer, from) {
      calls.push(`emit ${writer.kind} ${from}`);
      writers.push({ writer, from });
      const tally = emptyTally();
      tally.documents.total = 3;
      return from === 'scoring' ? { tally, scored: { moments: { mean: 4, std: 5 }, reader: { docs: 3 } } } : { tally };
    },
  };
  return { place, calls, writers, cut };
}

const drive = (over: Partial<Drive<Cut>> = {}): Drive<Cut> => ({ stages: ['score', 'cut', 'emit'], keep: { share: 0.5, by: 'bytes' }, writes: { kind: 'kept' }, recorded: undefined, threshold: undefined, progress: undefined, ...over });

describe('drivePasses', () => {
  it('runs pass 1, the cut and pass 2 in that order, checking the inputs before pass 2 reads them again', async () => {
    const f = fakePlace();
    const lines: string[] = [];
    const r = await drivePasses(f.place, drive({ progress: (l) => lines.push(l) }));
    expect(f.calls).toEqual(['score', 'cut 0.5 bytes', 'between', 'emit kept spill']);
    expect(f.writers[0]!.writer).toEqual({ kind: 'kept', cut: f.cut });
    expect(r.cut).toBe(f.cut);
    expect(r.scored?.moments).toEqual({ mean: 1, std: 2 });
    expect(r.tally?.documents.total).toBe(3);
    expect(lines).toHaveLength(1); // the cut's line, said while the cut reads the spills
  });

  it('--weights: no cut; pass 2 weighs every segment with pass 1\'s moments', async () => {
    const f = fakePlace();
    const r = await drivePasses(f.place, drive({ writes: { kind: 'weights', C: 2, alpha: 0.5 } }));
    expect(f.calls).toEqual(['score', 'between', 'emit weights spill']);
    expect(f.writers[0]!.writer).toEqual({ kind: 'weights', C: 2, alpha: 0.5, moments: { mean: 1, std: 2 } });
    expect(r.cut).toBeUndefined();
  });

  it('--threshold: no pass 1 and no cut; one pass scores as it writes, and its moments are the run\'s', async () => {
    const f = fakePlace();
    const r = await drivePasses(f.place, drive({ threshold: 0.125 }));
    expect(f.calls).toEqual(['emit kept scoring']);
    expect(f.writers[0]!.writer).toEqual({ kind: 'kept', cut: { threshold: 0.125, tieId: Number.MAX_SAFE_INTEGER } });
    expect(r.scored?.moments).toEqual({ mean: 4, std: 5 });
    expect(r.seconds.pass2).toBe(0);
  });

  it('one stage at a time, as the score, cut and emit commands drive them', async () => {
    const score = fakePlace();
    expect((await drivePasses(score.place, drive({ stages: ['score'] }))).tally).toBeUndefined();
    expect(score.calls).toEqual(['score']);

    const cut = fakePlace();
    await drivePasses(cut.place, drive({ stages: ['cut'] }));
    expect(cut.calls).toEqual(['cut 0.5 bytes']);

    const emit = fakePlace();
    const recorded = { ...emit.cut, threshold: 0.75 };
    const r = await drivePasses(emit.place, drive({ stages: ['emit'], recorded }));
    expect(emit.calls).toEqual(['between', 'emit kept spill']);
    expect(emit.writers[0]!.writer).toEqual({ kind: 'kept', cut: recorded });
    expect(r.cut).toBe(recorded);
  });

  it('a place that scored nothing (a run directory resumed past pass 1) still cuts and emits', async () => {
    const f = fakePlace(null);
    const r = await drivePasses(f.place, drive());
    expect(f.calls).toEqual(['score', 'cut 0.5 bytes', 'between', 'emit kept spill']);
    expect(r.scored).toBeUndefined();
  });
});
