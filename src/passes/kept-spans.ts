import { isKept, type Cut } from '../cut/exact.js';
import { SpillReader } from '../cut/spill.js';
import type { SpanPlan } from '../io/documents.js';
import { DocIndexReader } from './doc-index.js';
import type { KeptTriage } from './kept-triage.js';

/**
 * Documents of one run of kept ones closer than this are fetched as one span, the bytes
 * between them with it: one Range request instead of two, so a dense keep stays one stream.
 * Measured on the local S3 server (docs/benchmarks/speed-and-memory.md, "Remote inputs").
 */
const DEFAULT_GAP_BYTES = 1 << 20;

function gapBytes(): number {
  const n = Number(process.env.TADPOLE_REMOTE_GAP_BYTES);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_GAP_BYTES;
}

/**
 * Pass 2's plan for remote objects (ReadOptions.spans): from pass 1's doc index and spill,
 * the byte spans that hold the documents with a kept segment, those less than a gap apart
 * joined. It walks its own cursors, lazily: nothing is opened until a remote input asks,
 * so local inputs cost nothing. The documents between spans are stepped over by the
 * triage (KeptTriage.notRead), which holds its own cursors over the same files.
 */
export class KeptSpans implements SpanPlan {
  private index: DocIndexReader | undefined;
  private spill: SpillReader | undefined;
  /** The next document with a kept segment, found but not yet in a span. */
  private ahead: { input: number; start: number; end: number } | undefined;
  private done = false;
  private nextId: number;
  private readonly gap = gapBytes();

  constructor(
    private readonly docIndexPath: string,
    private readonly spillPath: string,
    private readonly cut: Pick<Cut, 'threshold' | 'tieId'>,
    private readonly from: { indexOffset: number; spillRecord: number; id: number },
    private readonly triage: KeptTriage,
    readonly linesNeeded: boolean,
  ) {
    this.nextId = from.id;
  }

  nextSpan(input: number): { start: number; end: number } | undefined {
    let doc = this.keptAhead();
    while (doc && doc.input < input) doc = this.take();
    if (!doc || doc.input !== input) return undefined;
    const span = { start: doc.start, end: doc.end };
    this.take();
    for (let next = this.keptAhead(); next && next.input === input && next.start - span.end < this.gap; next = this.keptAhead()) {
      span.end = Math.max(span.end, next.end);
      this.take();
    }
    return span;
  }

  notRead(input: number, before: number): Array<{ start: number; end: number }> {
    return this.triage.notRead(input, before);
  }

  private take(): { input: number; start: number; end: number } | undefined {
    this.ahead = undefined;
    return this.keptAhead();
  }

  private keptAhead(): { input: number; start: number; end: number } | undefined {
    if (this.ahead || this.done) return this.ahead;
    this.index ??= new DocIndexReader(this.docIndexPath, this.from.indexOffset);
    this.spill ??= new SpillReader(this.spillPath, this.from.spillRecord);
    for (let e = this.index.next(); e; e = this.index.next()) {
      let kept = false;
      for (let s = 0; s < e.segments; s++) {
        const rec = this.spill.next();
        // A short spill: the reader's own checks report it; no span is fetched past it.
        if (!rec) break;
        if (!kept && isKept(this.cut, rec.score, this.nextId)) kept = true;
        this.nextId++;
      }
      if (kept) return (this.ahead = { input: e.input, start: e.byteStart, end: e.byteStart + e.byteLength });
    }
    this.done = true;
    return undefined;
  }

  close(): void {
    this.index?.close();
    this.spill?.close();
  }
}
