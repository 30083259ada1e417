import { closeSync, fdatasyncSync, openSync, readSync, truncateSync, fstatSync } from 'node:fs';
import { TadpoleError, writeFailure } from '../core/errors.js';
import { writeAllSync } from '../io/atomic.js';

/**
 * Spill file: one record per segment, in segment-id order, so pass 2 and the cut read it
 * sequentially. Little-endian: f64 score, u32 weight-in-sentences, u32 weight-in-bytes.
 * Header: magic "TDPSPIL1" (8 bytes) + u32 version + u32 reserved.
 */
const MAGIC = Buffer.from('TDPSPIL1', 'latin1');
export const SPILL_HEADER = 16;
export const SPILL_RECORD = 16;
const VERSION = 1;
const BUF_RECORDS = 8192;

export class SpillWriter {
  private fd: number;
  private buf = Buffer.alloc(BUF_RECORDS * SPILL_RECORD);
  private used = 0;
  count = 0;

  constructor(readonly path: string, append = false) {
    try {
      this.fd = openSync(path, append ? 'a' : 'w');
    } catch (err) {
      throw writeFailure(`the spill file ${path}`, err, path);
    }
    if (!append) {
      const h = Buffer.alloc(SPILL_HEADER);
      MAGIC.copy(h, 0);
      h.writeUInt32LE(VERSION, 8);
      this.put(h, h.length);
    } else {
      const size = fstatSync(this.fd).size;
      this.count = Math.max(0, (size - SPILL_HEADER) / SPILL_RECORD);
    }
  }

  write(score: number, sentences: number, bytes: number): void {
    const o = this.used * SPILL_RECORD;
    this.buf.writeDoubleLE(score, o);
    this.buf.writeUInt32LE(sentences, o + 8);
    this.buf.writeUInt32LE(Math.min(bytes, 0xffffffff), o + 12);
    this.used++;
    this.count++;
    if (this.used === BUF_RECORDS) this.flush();
  }

  flush(): void {
    if (this.used > 0) {
      this.put(this.buf, this.used * SPILL_RECORD);
      this.used = 0;
    }
  }

  /** Every byte, or an exit-5 error naming the file (a short write would read back as lost segments). */
  private put(data: Buffer, length: number): void {
    try {
      writeAllSync(this.fd, data, 0, length);
    } catch (err) {
      throw writeFailure(`the spill file ${this.path}`, err, this.path);
    }
  }

  /** Flush and fdatasync: the records written so far survive a crash (checkpoints). */
  sync(): void {
    this.flush();
    try {
      fdatasyncSync(this.fd);
    } catch (err) {
      throw writeFailure(`the spill file ${this.path}`, err, this.path);
    }
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Resume: drop the records after the first `records` (written after the last checkpoint). */
export function truncateSpill(path: string, records: number): void {
  const size = fstatSizeOf(path);
  const want = SPILL_HEADER + records * SPILL_RECORD;
  if (size < want) throw new TadpoleError('TADPOLE_RUN', `${path} holds fewer segments than its checkpoint (${Math.floor((size - SPILL_HEADER) / SPILL_RECORD)} < ${records}): the run directory is damaged; rerun without --resume`);
  truncateSync(path, want);
}

function fstatSizeOf(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

export interface SpillRecord {
  score: number;
  sentences: number;
  bytes: number;
}

/** Sequential reader; `next()` returns records in id order. */
export class SpillReader {
  private fd: number;
  private buf = Buffer.alloc(BUF_RECORDS * SPILL_RECORD);
  private have = 0;
  private at = 0;
  private pos: number;
  readonly count: number;
  readonly record: SpillRecord = { score: 0, sentences: 0, bytes: 0 };

  constructor(readonly path: string, firstRecord = 0) {
    try {
      this.fd = openSync(path, 'r');
    } catch (err) {
      // Scratch that vanished under the run (its folder removed or unmounted) is a storage failure, exit 5.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new TadpoleError('TADPOLE_IO', `cannot read back the spill file ${path}: it is gone (its folder was removed during the run)`, { file: path, cause: err });
      throw new TadpoleError('TADPOLE_RUN', `cannot open spill file ${path}: ${(err as Error).message}`, { cause: err });
    }
    const h = Buffer.alloc(SPILL_HEADER);
    readSync(this.fd, h, 0, SPILL_HEADER, 0);
    if (!h.subarray(0, 8).equals(MAGIC)) throw new TadpoleError('TADPOLE_RUN', `${path} is not a tadpole spill file`);
    const size = fstatSync(this.fd).size;
    this.count = Math.floor((size - SPILL_HEADER) / SPILL_RECORD);
    this.pos = SPILL_HEADER + firstRecord * SPILL_RECORD;
  }

  /** The next record (the same object, overwritten), or undefined at the end. */
  next(): SpillRecord | undefined {
    if (this.at >= this.have) {
      const n = readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
      this.pos += n;
      this.have = Math.floor(n / SPILL_RECORD);
      this.at = 0;
      if (this.have === 0) return undefined;
    }
    const o = this.at * SPILL_RECORD;
    this.record.score = this.buf.readDoubleLE(o);
    this.record.sentences = this.buf.readUInt32LE(o + 8);
    this.record.bytes = this.buf.readUInt32LE(o + 12);
    this.at++;
    return this.record;
  }

  close(): void {
    closeSync(this.fd);
  }
}
