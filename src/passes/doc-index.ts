import { closeSync, fdatasyncSync, openSync, readSync, truncateSync } from 'node:fs';
import { TadpoleError, writeFailure } from '../core/errors.js';
import { writeAllSync } from '../io/atomic.js';

/**
 * Doc index: what pass 1 learned about each document, so that pass 2 never runs the
 * sentence splitter again. Pass 2 needs the sentence spans of documents with a kept
 * segment only (about a third of them at --keep 0.2 on the bench mix); for the rest it
 * needs the segment count, to step over their spill records, and a cheap check that the
 * document is the one pass 1 scored (its length). Measured on a 60 MB JSONL mix with
 * --method random: the splitter was most of pass 2.
 *
 * It also holds where each document lies in its input (input index, first byte, byte
 * length), so that pass 2 can tell, before decoding a line, whether it is a document pass 1
 * scored and whether anything of it is kept: lines with nothing kept are neither decoded
 * nor JSON-parsed (kept-triage.ts).
 *
 * Per document, u32 in host order (little-endian wherever Node runs): segment count, text
 * length (UTF-16 units), input index, byte length, first byte (low and high 32 bits), span
 * entries (2 per sentence), then the spans. About 8 bytes a sentence plus 28 a document (10%
 * of the bench mix's bytes), in the run's own scratch folder, removed with it. No header:
 * the file lives and dies within one `filter`, or with its shard's directory in a run
 * directory (where checkpoints record its length, and a resume truncates it to that).
 */
const CHUNK = 1 << 16;
/** Fixed part of an entry: seven u32. */
const ENTRY_BYTES = 28;

export class DocIndexWriter {
  private fd: number;
  private buf = new Uint32Array(CHUNK / 4);
  private view = Buffer.from(this.buf.buffer);
  private used = 0;
  /** Bytes in the file once buffered entries are flushed. */
  private flushed: number;

  /** `keepBytes`: continue a file after its first keepBytes (a resumed shard), dropping the rest. */
  constructor(private readonly path: string, keepBytes?: number) {
    try {
      if (keepBytes === undefined) {
        this.fd = openSync(path, 'w');
        this.flushed = 0;
      } else {
        truncateSync(path, keepBytes);
        this.fd = openSync(path, 'a');
        this.flushed = keepBytes;
      }
    } catch (err) {
      throw writeFailure(`the doc index ${path}`, err, path);
    }
  }

  /** The file's length with everything written so far (what a checkpoint records). */
  get bytes(): number {
    return this.flushed + this.used * 4;
  }

  write(segments: number, textLength: number, where: DocPlace, spans: ArrayLike<number>): void {
    this.u32(segments);
    this.u32(Math.min(textLength, 0xffffffff));
    this.u32(where.input);
    this.u32(Math.min(where.byteEnd - where.byteStart, 0xffffffff));
    this.u32(where.byteStart % 0x100000000);
    this.u32(Math.floor(where.byteStart / 0x100000000));
    this.u32(spans.length);
    for (let i = 0; i < spans.length; i++) this.u32(spans[i]!);
  }

  private u32(v: number): void {
    this.buf[this.used++] = v;
    if (this.used === this.buf.length) this.flush();
  }

  private flush(): void {
    try {
      if (this.used > 0) writeAllSync(this.fd, this.view, 0, this.used * 4);
    } catch (err) {
      throw writeFailure(`the doc index ${this.path}`, err, this.path);
    }
    this.flushed += this.used * 4;
    this.used = 0;
  }

  /** Flush and fdatasync: the entries written so far survive a crash (checkpoints). */
  sync(): void {
    this.flush();
    try {
      fdatasyncSync(this.fd);
    } catch (err) {
      throw writeFailure(`the doc index ${this.path}`, err, this.path);
    }
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Where a document lies: its input's index and its byte range in the (decompressed) input. */
export interface DocPlace {
  input: number;
  byteStart: number;
  byteEnd: number;
}

/** Byte length as stored (capped at u32). */
export function storedByteLength(p: DocPlace): number {
  return Math.min(p.byteEnd - p.byteStart, 0xffffffff);
}

export interface DocIndexEntry {
  segments: number;
  textLength: number;
  input: number;
  byteStart: number;
  /** byteEnd - byteStart, capped at u32. */
  byteLength: number;
  /** Span entries (2 per sentence) stored after the entry. */
  spanEntries: number;
}

export class DocIndexReader {
  private fd: number;
  private buf = Buffer.alloc(CHUNK);
  /** File position of buf[0]. */
  private base = 0;
  private have = 0;
  private at = 0;
  /** Bytes of the current entry's spans not read yet (skipped by the next `next()`). */
  private unread = 0;
  private readonly entry: DocIndexEntry = { segments: 0, textLength: 0, input: 0, byteStart: 0, byteLength: 0, spanEntries: 0 };

  /** `from`: the byte offset of the first entry to read (a resumed emit). */
  constructor(path: string, from = 0) {
    try {
      this.fd = openSync(path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      throw new TadpoleError('TADPOLE_IO', `cannot read back the doc index ${path}: it is gone (its folder was removed during the run)`, { file: path, cause: err });
    }
    this.base = from;
  }

  /** Byte offset of the next entry: after the current one's spans, read or not. */
  get offset(): number {
    return this.base + this.at + this.unread;
  }

  /** The next document's entry (the same object each call), or undefined at the end. */
  next(): DocIndexEntry | undefined {
    this.skip(this.unread);
    this.unread = 0;
    if (!this.fill(ENTRY_BYTES)) return undefined;
    const b = this.buf;
    const at = this.at;
    this.entry.segments = b.readUInt32LE(at);
    this.entry.textLength = b.readUInt32LE(at + 4);
    this.entry.input = b.readUInt32LE(at + 8);
    this.entry.byteLength = b.readUInt32LE(at + 12);
    this.entry.byteStart = b.readUInt32LE(at + 16) + b.readUInt32LE(at + 20) * 0x100000000;
    this.entry.spanEntries = b.readUInt32LE(at + 24);
    this.at += ENTRY_BYTES;
    this.unread = this.entry.spanEntries * 4;
    return this.entry;
  }

  /** The current entry's sentence spans (flat [start, end, ...]); undefined when the file ends early. */
  spans(): number[] | undefined {
    const n = this.unread / 4;
    const out = new Array<number>(n);
    let i = 0;
    while (i < n) {
      if (!this.fill(4)) return undefined;
      const upto = Math.min(n, i + Math.floor((this.have - this.at) / 4));
      for (; i < upto; i++, this.at += 4) out[i] = this.buf.readUInt32LE(this.at);
    }
    this.unread = 0;
    return out;
  }

  /** At least `bytes` buffered (bytes <= CHUNK); false at the end of the file. */
  private fill(bytes: number): boolean {
    if (this.have - this.at >= bytes) return true;
    const rest = this.have - this.at;
    this.buf.copy(this.buf, 0, this.at, this.have);
    this.base += this.at;
    this.at = 0;
    this.have = rest;
    for (;;) {
      const got = readSync(this.fd, this.buf, this.have, this.buf.length - this.have, this.base + this.have);
      this.have += got;
      if (this.have >= bytes) return true;
      if (got === 0) return false;
    }
  }

  private skip(bytes: number): void {
    const inBuf = Math.min(bytes, this.have - this.at);
    this.at += inBuf;
    const beyond = bytes - inBuf;
    if (beyond > 0) {
      this.base += this.have + beyond;
      this.at = 0;
      this.have = 0;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}
