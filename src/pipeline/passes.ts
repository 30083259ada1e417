import { TadpoleError } from '../core/errors.js';
import { isKept, type Cut } from '../cut/exact.js';
import { SpillReader } from '../cut/spill.js';
import type { Doc, Triage } from '../io/documents.js';
import { DocIndexReader } from './doc-index.js';
import { nextIndexedDoc, type IndexedDoc } from './indexed-doc.js';
import { KeptTriage } from './kept-triage.js';
import type { KeepTally } from './keep-tally.js';
import { writeKeptRuns, type RunWriter } from './runs.js';

/** One document's spill records in pass 2, and the global id of its first segment. */
export interface SegmentedDoc extends IndexedDoc {
  firstId: number;
}

export interface SegmentedDocsOptions {
  segment: number;
  spillPath: string;
  docIndexPath: string;
  /** Global id of the spill's first segment (a range of the input). */
  firstId?: number;
  /** Skim the documents with nothing kept under this cut (kept-triage.ts). */
  cut?: Pick<Cut, 'threshold' | 'tieId'>;
  /** Stop early (a closed stdout). */
  stop?: () => boolean;
  afterBatch?: () => void;
}

/**
 * Pass 2's reading side: hands each document read again on with its spill records. The
 * splitter does not run again: pass 1's doc index holds each document's segment count,
 * text length and sentence spans, read only for documents whose caller asks for them. With
 * a `cut`, the documents with nothing kept are skimmed, not decoded: such a Doc has empty
 * text, and the caller must not ask for its spans. `read` opens the documents with the
 * triage it is given.
 */
export async function forEachSegmentedDoc(read: (triage: Triage | undefined) => AsyncIterable<Doc[]>, o: SegmentedDocsOptions, onDoc: (doc: Doc, seg: SegmentedDoc) => Promise<void>): Promise<void> {
  const reader = new SpillReader(o.spillPath);
  const index = new DocIndexReader(o.docIndexPath);
  let id = o.firstId ?? 0;
  const triage = o.cut ? new KeptTriage(o.docIndexPath, o.spillPath, o.cut, { indexOffset: 0, spillRecord: 0, id }) : undefined;
  try {
    for await (const docs of read(triage?.triage)) {
      for (const doc of docs) {
        const seg = nextIndexedDoc(doc, index, reader, o.segment);
        await onDoc(doc, { scores: seg.scores, sentences: seg.sentences, bytes: seg.bytes, spansAndBounds: seg.spansAndBounds, firstId: id });
        id += seg.scores.length;
        if (o.stop?.()) return;
      }
      o.afterBatch?.();
    }
    if (index.next() || reader.next()) throw new TadpoleError('TADPOLE_INPUT_CHANGED', 'the input changed between passes: it now ends before all segments scored in pass 1');
  } finally {
    reader.close();
    index.close();
    triage?.close();
  }
}

const NO_SPANS: { spans: number[]; bounds: number[] } = { spans: [], bounds: [] };

/** Pass 2 in cut mode: writes the kept runs of every document, tallying into `tally`. */
export async function emitKept(read: (triage: Triage | undefined) => AsyncIterable<Doc[]>, o: SegmentedDocsOptions & { cut: Pick<Cut, 'threshold' | 'tieId'> }, writer: RunWriter, tally: KeepTally): Promise<void> {
  await forEachSegmentedDoc(read, o, (doc, seg) => writeKept(writer, doc, seg, o.cut, seg.firstId, tally));
}

/** One document's segments as pass 2 (or the one streaming pass) holds them. */
export type DocSegments = Pick<IndexedDoc, 'spansAndBounds'> & { scores: ArrayLike<number>; sentences: ArrayLike<number>; bytes: ArrayLike<number> };

/**
 * One document's kept runs under `cut` (its segment s has the global id firstId + s),
 * written and tallied: the one way kept text reaches a RunWriter, in every mode.
 */
export async function writeKept(writer: RunWriter, doc: Doc, seg: DocSegments, cut: Pick<Cut, 'threshold' | 'tieId'>, firstId: number, tally: KeepTally): Promise<void> {
  // A plain loop: Uint8Array.from with a mapping function took the generic iterator path,
  // about a tenth of pass 2.
  const kept = new Uint8Array(seg.scores.length);
  let any = false;
  for (let s = 0; s < kept.length; s++) {
    if (isKept(cut, seg.scores[s]!, firstId + s)) {
      kept[s] = 1;
      any = true;
    }
  }
  // A document with nothing kept is only tallied: writeKeptRuns reads spans and bounds
  // for kept runs alone, so its spans are not read.
  const { spans, bounds } = any ? seg.spansAndBounds() : NO_SPANS;
  await writeKeptRuns(writer, doc, spans, bounds, kept, seg.sentences, seg.bytes, tally);
  tally.documents.total++;
}
