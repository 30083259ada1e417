import type { Doc, ReaderOptions } from '../io/documents.js';
import type { Sink } from '../io/sink.js';

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
 * Writes runs in the input's format: only text that was in the input, byte for byte.
 * text: runs separated by a blank line; --doc-per-line: one run per line;
 * jsonl: one record per run, the input record's other fields carried through, plus
 * "tadpole": { doc, segments: [first, last] } (segment ordinals within the document).
 */
export class RunWriter {
  /** asJsonl: every run as a JSONL record, whatever the input format (--weights). */
  constructor(
    private sink: Sink,
    private reader: ReaderOptions,
    private asJsonl = false,
    /** False when text was written before this writer's output (a later shard, a resumed run): separators continue. */
    private first = true,
  ) {}

  /** True until the first run is written (saved in checkpoints). */
  get atStart(): boolean {
    return this.first;
  }

  async write(run: KeptRun, extra?: Record<string, unknown>): Promise<void> {
    const text = run.doc.text.slice(run.start, run.end);
    if (run.doc.fields !== undefined || this.asJsonl) {
      const rec = { ...(run.doc.fields ?? {}), [this.reader.textField]: text, tadpole: { doc: run.doc.ordinal, segments: [run.firstSegment, run.lastSegment], ...extra } };
      await this.sink.write(JSON.stringify(rec) + '\n');
    } else if (this.reader.docPerLine) {
      await this.sink.write(text + '\n');
    } else {
      await this.sink.write(this.first ? text + '\n' : '\n' + text + '\n');
    }
    this.first = false;
  }
}
