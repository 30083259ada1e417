import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocIndexReader, DocIndexWriter } from '../../src/pipeline/doc-index.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-docindex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('doc index (pass 1 -> pass 2)', () => {
  it('round-trips more entries than one buffer holds, in order, then ends', () => {
    const path = join(dir, 'a.index');
    const w = new DocIndexWriter(path);
    const n = 20_000; // > 8192 records per buffer: crosses two refills
    for (let i = 0; i < n; i++) w.write(i % 7, i * 13 + 1);
    w.close();
    expect(statSync(path).size).toBe(n * 8);
    const r = new DocIndexReader(path);
    for (let i = 0; i < n; i++) {
      const e = r.next();
      expect(e, `entry ${i}`).toBeDefined();
      if (e!.segments !== i % 7 || e!.textLength !== i * 13 + 1) throw new Error(`entry ${i}: ${JSON.stringify(e)}`);
    }
    expect(r.next()).toBeUndefined();
    r.close();
  });

  it('an empty index ends at once', () => {
    const path = join(dir, 'empty.index');
    new DocIndexWriter(path).close();
    const r = new DocIndexReader(path);
    expect(r.next()).toBeUndefined();
    r.close();
  });
});
