import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * Doc index: what pass 1 learned about each document that pass 2 needs to SKIP splitting
 * it. Pass 2 only has to find sentence offsets inside documents with a kept segment (a
 * fifth of them at --keep 0.2); for the rest it needs the document's segment count, to
 * step over its spill records, and a cheap check that the document is the one pass 1
 * scored. Measured on a 60 MB JSONL mix (--method random, keep 0.2): 68% of documents have
 * no kept segment, and the splitter was most of pass 2.
 *
 * Little-endian u32 pairs: segment count, text length (UTF-16 units). Private to one
 * `filter` run (its work folder), so it carries no header or version.
 */
const RECORD = 8;
const BUF_RECORDS = 8192;

export class DocIndexWriter {
  private fd: number;
  private buf = Buffer.alloc(BUF_RECORDS * RECORD);
  private used = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(segments: number, textLength: number): void {
    const o = this.used * RECORD;
    this.buf.writeUInt32LE(segments, o);
    this.buf.writeUInt32LE(Math.min(textLength, 0xffffffff), o + 4);
    if (++this.used === BUF_RECORDS) this.flush();
  }

  private flush(): void {
    if (this.used > 0) writeSync(this.fd, this.buf, 0, this.used * RECORD);
    this.used = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

export interface DocIndexEntry {
  segments: number;
  textLength: number;
}

export class DocIndexReader {
  private fd: number;
  private buf = Buffer.alloc(BUF_RECORDS * RECORD);
  private have = 0;
  private at = 0;
  private readonly entry: DocIndexEntry = { segments: 0, textLength: 0 };

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  /** The next document's entry (the same object each call), or undefined at the end. */
  next(): DocIndexEntry | undefined {
    if (this.at + RECORD > this.have) {
      const rest = this.have - this.at;
      this.buf.copy(this.buf, 0, this.at, this.have);
      this.have = rest + readSync(this.fd, this.buf, rest, this.buf.length - rest, null);
      this.at = 0;
      if (this.have < RECORD) return undefined;
    }
    this.entry.segments = this.buf.readUInt32LE(this.at);
    this.entry.textLength = this.buf.readUInt32LE(this.at + 4);
    this.at += RECORD;
    return this.entry;
  }

  close(): void {
    closeSync(this.fd);
  }
}
