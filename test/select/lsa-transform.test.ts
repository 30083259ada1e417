import { describe, expect, it } from 'vitest';
import { b64ToF32, b64ToI32 } from '../../src/core/b64.js';
import { sharedDir } from '../../src/core/shared.js';
import { Lsa } from '../../src/select/lsa.js';
import { tfidfRows } from '../../src/select/sparse.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';

/** The reference: CSR tf-idf rows (Map lookups, regex tokens) times the components, row-normalised. */
function reference(lsa: Lsa, sentences: string[]): Float32Array {
  const j = lsa.toJSON();
  const buckets = b64ToI32(j.buckets);
  const idf = Float64Array.from(b64ToF32(j.idf));
  const comps = b64ToF32(j.components);
  const column = new Map<number, number>();
  buckets.forEach((b, c) => column.set(b >>> 0, c));
  const A = tfidfRows(sentences, column, idf);
  const d = j.dims;
  const out = new Float32Array(sentences.length * d);
  for (let r = 0; r < A.rows; r++) {
    for (let k = A.ptr[r] as number; k < (A.ptr[r + 1] as number); k++) {
      for (let t = 0; t < d; t++) out[r * d + t] = (out[r * d + t] as number) + (A.val[k] as number) * (comps[(A.idx[k] as number) * d + t] as number);
    }
    let s = 0;
    for (let t = 0; t < d; t++) s += (out[r * d + t] as number) ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let t = 0; t < d; t++) out[r * d + t] = (out[r * d + t] as number) * inv;
  }
  return out;
}

describe.skipIf(!sharedDir())('Lsa.transform (char-code hasher, typed column lookup)', () => {
  it('equals the tf-idf reference on task and unseen news text, repeated words and empty sentences included', () => {
    const fitText = chemprotSentences(800);
    const lsa = Lsa.fit(fitText, { dims: 16, seed: 3 });
    const probe = [...fitText.slice(0, 50), ...corpusRecords('news-bbc/docs.jsonl.gz', 20).map((r) => String(r.text).slice(0, 400)), 'the the the protein protein', '', '!!!'];
    const fast = lsa.transform(probe);
    const ref = reference(lsa, probe);
    expect(fast.length).toBe(ref.length);
    let maxDiff = 0;
    for (let i = 0; i < fast.length; i++) maxDiff = Math.max(maxDiff, Math.abs((fast[i] as number) - (ref[i] as number)));
    expect(maxDiff).toBeLessThan(1e-5);
    // An empty or punctuation-only sentence projects to the zero row, as before.
    expect(Array.from(fast.subarray(fast.length - 16))).toEqual(new Array(16).fill(0));
  });
});
