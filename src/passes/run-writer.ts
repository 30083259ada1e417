import { isKept, type Cut } from '../cut/exact.js';
import { recordText } from '../io/carried.js';
import type { Doc, ReaderOptions } from '../io/documents.js';
import type { Sink } from '../io/sink.js';
import type { IndexedDoc } from './indexed-doc.js';
import type { KeepTally } from './keep-tally.js';
import type { OutFormat } from './out-format.js';

const NO_SPANS: { spans: number[]; bounds: number[] } = { spans: [], bounds: [] };

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

/** A maximal run of consecutive kept segments of one document. */
export interface KeptRun {
  doc: Doc;
  /** Character offsets into doc.text: first kept sentence start .. last kept sentence end. */
  start: number;
  end: number;
  firstSegment: number;
  lastSegment: number;
}

/**
 * Writes runs: only text that was in the input, byte for byte.
 * text: runs separated by a blank line; --doc-per-line: one run per line;
 * jsonl: one record per run, the input record's other fields carried through as written, plus
 * "tadpole": { doc, segments: [first, last] } (segment ordinals within the document); a run
 * of a plain-text document also names its source: "tadpole": { file, line, ... }.
 */
export class RunWriter {
  constructor(
    private sink: Sink,
    private reader: ReaderOptions,
    private format: OutFormat = 'input',
    /** False when text was written before this writer's output (a later shard, a resumed run): separators continue. */
    private first = true,
  ) {}

  /** True until the first run is written (saved in checkpoints). */
  get atStart(): boolean {
    return this.first;
  }

  /**
   * Whether the first run this writer wrote was a text block (which a writer that had
   * written before would have preceded by a blank line): parts written apart and joined
   * later (threads/ranges-place.ts) add that separator when they are joined.
   */
  startedWithBlock = false;

  async write(run: KeptRun, extra?: Record<string, unknown>): Promise<void> {
    const text = run.doc.text.slice(run.start, run.end);
    const asRecord = this.format === 'jsonl' || (this.format === 'input' && run.doc.fields !== undefined);
    if (asRecord) {
      const source = run.doc.fields === undefined ? { file: run.doc.file, line: run.doc.line } : {};
      const tadpole = { doc: run.doc.ordinal, ...source, segments: [run.firstSegment, run.lastSegment], ...extra };
      // The input's other fields as it wrote them (src/io/carried.ts), never parsed and stringified again.
      const line = run.doc.carried ? recordText(run.doc.carried, text, JSON.stringify(tadpole)) : JSON.stringify({ ...(run.doc.fields ?? {}), [this.reader.textField]: text, tadpole });
      await this.sink.write(line + '\n');
    } else if (this.reader.docPerLine && run.doc.fields === undefined) {
      await this.sink.write(text + '\n');
    } else {
      if (this.first) this.startedWithBlock = true;
      await this.sink.write(this.first ? text + '\n' : '\n' + text + '\n');
    }
    this.first = false;
  }
}

/**
 * Writes one document's maximal runs of consecutive kept segments, each as one input span,
 * and tallies segments, sentences and bytes. `bounds` is flat [firstSentence, count] per
 * segment; kept[s], sentences[s] and bytes[s] describe segment s. documents.total is
 * writeKept's to count.
 */
async function writeKeptRuns(
  writer: RunWriter,
  doc: Doc,
  spans: number[],
  bounds: number[],
  kept: Uint8Array,
  sentences: ArrayLike<number>,
  bytes: ArrayLike<number>,
  tally: KeepTally,
): Promise<void> {
  const n = kept.length;
  let runFirst = -1;
  let any = false;
  for (let s = 0; s <= n; s++) {
    if (s < n) {
      tally.segments.total++;
      tally.sentences.total += sentences[s]!;
      tally.bytes.total += bytes[s]!;
      if (kept[s]) {
        tally.segments.kept++;
        tally.sentences.kept += sentences[s]!;
        tally.bytes.kept += bytes[s]!;
        any = true;
        if (runFirst < 0) runFirst = s;
        continue;
      }
    }
    if (runFirst >= 0) {
      const firstSentence = bounds[2 * runFirst]!;
      const lastSentence = bounds[2 * (s - 1)]! + bounds[2 * (s - 1) + 1]! - 1;
      await writer.write({ doc, start: spans[2 * firstSentence]!, end: spans[2 * lastSentence + 1]!, firstSegment: runFirst, lastSegment: s - 1 });
      runFirst = -1;
    }
  }
  if (any) tally.documents.withKept++;
}
