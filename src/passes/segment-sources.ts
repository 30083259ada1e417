import { TadpoleError } from '../core/errors.js';
import type { Cut } from '../cut/exact.js';
import { SpillReader } from '../cut/spill.js';
import type { Doc, SpanPlan, Triage } from '../io/documents.js';
import { segmentBounds } from '../segment/segments.js';
import { splitSentences } from '../text/sentences.js';
import { DocIndexReader } from './doc-index.js';
import { nextIndexedDoc, spillRecordsOf, type IndexedDoc } from './indexed-doc.js';
import { KeptSpans } from './kept-spans.js';
import { KeptTriage } from './kept-triage.js';
import type { DocSegments } from './run-writer.js';

/** Called for each document with its segments (global ids from `firstId`). */
export type OnDoc = (doc: Doc, seg: DocSegments, firstId: number) => Promise<void>;

/**
 * Where pass 2's documents and their segments come from: read again beside pass 1's spill
 * (SpilledSegments), or scored as they are read when the cut is known before the run
 * (--threshold: threads/scored-segments.ts). `afterBatch` runs after each batch read.
 */
export interface SegmentSource {
  /** `stop`, asked after each document: true ends the pass there (nothing more can be written). */
  each(onDoc: OnDoc, afterBatch: () => Promise<void>, stop: () => boolean): Promise<void>;
}

/** Reads the documents again: with a triage (documents with nothing kept are skimmed) and a span plan (remote objects fetched only where kept text lies). */
export type ReadAgain = (triage: Triage | undefined, spans: SpanPlan | undefined) => AsyncIterable<Doc[]>;

/** Where in pass 1's spill and doc index a pass 2 starts (a range, a shard, a resumed emit). */
export interface SpillStart {
  spill: string;
  docIndex: string;
  /** The doc index is read; false for a shard scored before doc indexes existed (its documents are split again). */
  indexed: boolean;
  segment: number;
  /** Global id of the first segment read (the spill's first record's id plus the records skipped). */
  id: number;
  /** Spill records and doc-index bytes already consumed (a resumed emit). */
  spillRecord: number;
  indexOffset: number;
  /** Skim the documents with nothing kept under this cut (kept-triage.ts). */
  cut: Pick<Cut, 'threshold' | 'tieId'> | undefined;
  /** With a cut: remote objects are fetched only where documents with a kept segment lie; `linesNeeded`: plain text is read whole (the output names its lines). */
  fetchKept: { linesNeeded: boolean } | undefined;
}

/**
 * Pass 2's reading side beside pass 1's output: hands each document read again on with its
 * spill records. The splitter does not run again: the doc index holds each document's segment
 * count, text length and sentence spans, read only for the documents whose spans are asked
 * for. With a cut, documents with nothing kept are skimmed, not decoded: such a Doc has
 * empty text, and its spans must not be asked for.
 */
export class SpilledSegments implements SegmentSource {
  private index: DocIndexReader | undefined;

  constructor(
    private readonly read: ReadAgain,
    private readonly at: SpillStart,
  ) {}

  /** Doc-index offset of the next document (a checkpoint's); the start's until reading begins. */
  get indexOffset(): number {
    return this.index?.offset ?? this.at.indexOffset;
  }

  async each(onDoc: OnDoc, afterBatch: () => Promise<void>, stop: () => boolean): Promise<void> {
    const at = this.at;
    const reader = new SpillReader(at.spill, at.spillRecord);
    const index = at.indexed ? new DocIndexReader(at.docIndex, at.indexOffset) : undefined;
    this.index = index;
    let id = at.id;
    const from = { indexOffset: at.indexOffset, spillRecord: at.spillRecord, id };
    const triage = at.cut && index ? new KeptTriage(at.docIndex, at.spill, at.cut, from) : undefined;
    const spans = at.cut && triage && at.fetchKept ? new KeptSpans(at.docIndex, at.spill, at.cut, from, triage, at.fetchKept.linesNeeded) : undefined;
    try {
      for await (const docs of this.read(triage?.triage, spans)) {
        for (const doc of docs) {
          const seg = index ? nextIndexedDoc(doc, index, reader, at.segment) : splitAgain(doc, reader, at.segment);
          await onDoc(doc, seg, id);
          id += seg.scores.length;
          if (stop()) return;
        }
        await afterBatch();
      }
      if (index?.next() || reader.next()) throw new TadpoleError('TADPOLE_INPUT_CHANGED', 'the input changed between passes: it now ends before all segments scored in pass 1');
    } finally {
      reader.close();
      index?.close();
      triage?.close();
      spans?.close();
    }
  }
}

/** A document's segments for a shard scored without a doc index: split again, checked against the spill. */
function splitAgain(doc: Doc, spill: SpillReader, segment: number): IndexedDoc {
  const spans = splitSentences(doc.text);
  const bounds = segmentBounds(spans.length / 2, segment);
  return { ...spillRecordsOf(doc, spill, bounds.length / 2, bounds), spansAndBounds: () => ({ spans, bounds }) };
}
