import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocIndexReader, DocIndexWriter } from '../../src/passes/doc-index.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-docindex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spansOf = (i: number, n: number) => Array.from({ length: 2 * n }, (_, j) => i * 1000 + j);
/** Document i's place: offsets past 2^32 (a 5 GB input) must survive the two-u32 split. */
const placeOf = (i: number) => ({ input: i % 3, byteStart: i * 1_000_003 + (i % 2) * 2 ** 32, byteEnd: i * 1_000_003 + (i % 2) * 2 ** 32 + 17 + i });

describe('doc index (pass 1 -> pass 2)', () => {
  it('round-trips entries and spans across many buffer refills; unread spans are skipped, read ones are exact', () => {
    const path = join(dir, 'a.index');
    const w = new DocIndexWriter(path);
    const n = 5000;
    // Document 17 holds 40,000 sentences: its spans (320 KB) span several 64 KB buffers.
    const sentences = (i: number) => (i === 17 ? 40_000 : i % 9);
    for (let i = 0; i < n; i++) w.write(i % 7, i * 13 + 1, placeOf(i), spansOf(i, sentences(i)));
    w.close();
    const r = new DocIndexReader(path);
    for (let i = 0; i < n; i++) {
      const e = r.next();
      const p = placeOf(i);
      if (!e || e.segments !== i % 7 || e.textLength !== i * 13 + 1 || e.spanEntries !== 2 * sentences(i)) throw new Error(`entry ${i}: ${JSON.stringify(e)}`);
      if (e.input !== p.input || e.byteStart !== p.byteStart || e.byteLength !== p.byteEnd - p.byteStart) throw new Error(`place ${i}: ${JSON.stringify(e)}`);
      // Read the spans of every third document (and of the giant one); skip the rest.
      if (i % 3 === 0 || i === 17) expect(r.spans(), `spans of ${i}`).toEqual(spansOf(i, sentences(i)));
    }
    expect(r.next()).toBeUndefined();
    r.close();
  });

  it('a giant document skipped unread leaves the next entry intact', () => {
    const path = join(dir, 'skip.index');
    const w = new DocIndexWriter(path);
    w.write(1, 10, placeOf(0), spansOf(0, 50_000));
    w.write(2, 20, { input: 1, byteStart: 5, byteEnd: 25 }, [3, 9]);
    w.close();
    const r = new DocIndexReader(path);
    expect(r.next()?.spanEntries).toBe(100_000);
    expect(r.next()).toEqual({ segments: 2, textLength: 20, input: 1, byteStart: 5, byteLength: 20, spanEntries: 2 });
    expect(r.spans()).toEqual([3, 9]);
    expect(r.next()).toBeUndefined();
    r.close();
  });

  it('a resumed writer continues at a checkpointed length (what follows is dropped); a reader started at an entry\'s offset reads from it', () => {
    const path = join(dir, 'resume.index');
    const w = new DocIndexWriter(path);
    const marks: number[] = [];
    for (let i = 0; i < 10; i++) {
      marks.push(w.bytes);
      w.write(i, i + 100, placeOf(i), spansOf(i, i % 4));
    }
    w.close();
    // Resume after 5 entries: the 5 written after that checkpoint are replaced.
    const again = new DocIndexWriter(path, marks[5]);
    expect(again.bytes).toBe(marks[5]);
    for (let i = 50; i < 53; i++) again.write(i, i + 100, placeOf(i), spansOf(i, 2));
    again.sync();
    again.close();
    const want = [0, 1, 2, 3, 4, 50, 51, 52];
    const r = new DocIndexReader(path);
    const offsets: number[] = [];
    for (const i of want) {
      offsets.push(r.offset);
      expect(r.next()?.segments).toBe(i);
    }
    expect(r.next()).toBeUndefined();
    r.close();
    expect(offsets.slice(0, 6)).toEqual(marks.slice(0, 6));
    // Started at entry 6's offset (an emit checkpoint), it reads entries 51 and 52 with their spans.
    const from = new DocIndexReader(path, offsets[6]);
    expect(from.next()?.segments).toBe(51);
    expect(from.spans()).toEqual(spansOf(51, 2));
    expect(from.next()?.segments).toBe(52);
    expect(from.next()).toBeUndefined();
    from.close();
  });

  it('an empty index ends at once', () => {
    const path = join(dir, 'empty.index');
    new DocIndexWriter(path).close();
    const r = new DocIndexReader(path);
    expect(r.next()).toBeUndefined();
    r.close();
  });
});
