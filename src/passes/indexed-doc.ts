import { TadpoleError } from '../core/errors.js';
import type { SpillReader } from '../cut/spill.js';
import type { Doc } from '../io/documents.js';
import { segmentBounds } from '../segment/segments.js';
import { storedByteLength, type DocIndexReader } from './doc-index.js';

/** One document's spill records in pass 2 (filter, or a shard's emit); its sentences are found only when asked for. */
export interface IndexedDoc {
  scores: Float64Array;
  sentences: Uint32Array;
  bytes: Uint32Array;
  /** Its sentence spans (from pass 1's doc index, checked against the spill) and [first, count] segment bounds. */
  spansAndBounds(): { spans: number[]; bounds: number[] };
}

/**
 * The next document's segments from pass 1's doc index and spill, checked against the
 * document as read again: its byte length, its text length (unless skimmed), and, when its
 * spans are asked for, its segment counts. Any difference means the input changed.
 */
export function nextIndexedDoc(doc: Doc, index: DocIndexReader, spill: SpillReader, segment: number): IndexedDoc {
  const entry = index.next();
  if (!entry) throw changedInput(doc, 'more documents than pass 1 scored');
  if (entry.byteLength !== storedByteLength(doc) || (!doc.skimmed && entry.textLength !== Math.min(doc.text.length, 0xffffffff))) throw changedInput(doc, 'a document differs from pass 1');
  const n = entry.segments;
  const { scores, sentences, bytes } = spillRecordsOf(doc, spill, n);
  const spansAndBounds = () => {
    if (doc.skimmed) throw new TadpoleError('TADPOLE_INTERNAL', `${doc.file}:${doc.line}: the spans of a skimmed document were asked for in pass 2`);
    const spans = index.spans();
    if (!spans || spans[spans.length - 1]! > doc.text.length) throw changedInput(doc, 'a document differs from pass 1');
    const bounds = segmentBounds(spans.length / 2, segment);
    if (bounds.length / 2 !== n) throw changedInput(doc, 'a segment differs from pass 1');
    for (let s = 0; s < n; s++) if (sentences[s] !== bounds[2 * s + 1]) throw changedInput(doc, 'a segment differs from pass 1');
    return { spans, bounds };
  };
  return { scores, sentences, bytes, spansAndBounds };
}

/** A document's n spill records; `bounds` (flat [first, count]), when known, must agree with their sentence counts. */
export function spillRecordsOf(doc: Doc, spill: SpillReader, n: number, bounds?: ArrayLike<number>): { scores: Float64Array; sentences: Uint32Array; bytes: Uint32Array } {
  const scores = new Float64Array(n);
  const sentences = new Uint32Array(n);
  const bytes = new Uint32Array(n);
  for (let s = 0; s < n; s++) {
    const rec = spill.next();
    if (!rec) throw changedInput(doc, 'more segments than pass 1 scored');
    if (bounds && rec.sentences !== bounds[2 * s + 1]) throw changedInput(doc, 'a segment differs from pass 1');
    scores[s] = rec.score;
    sentences[s] = rec.sentences;
    bytes[s] = rec.bytes;
  }
  return { scores, sentences, bytes };
}

export function changedInput(doc: Doc, why: string): TadpoleError {
  return new TadpoleError('TADPOLE_INPUT_CHANGED', `${doc.file}:${doc.line}: the input changed between passes (${why}); inputs must not change while tadpole filters them`, { file: doc.file, line: doc.line });
}
