import { closeSync, fdatasyncSync, openSync, readSync, truncateSync, fstatSync } from 'node:fs';
import { TadpoleError, writeFailure } from '../core/errors.js';
import { writeAllSync } from '../io/atomic.js';

/**
 * Spill file: one record per segment, in segment-id order, so pass 2 and the cut read it
 * sequentially. Little-endian: f64 score, u32 weight-in-sentences, u32 weight-in-bytes;
 * version 2 (a run that counts tokens) adds u32 weight-in-tokens. Version 1 stays what a run
 * without a tokenizer writes, so its files are those of earlier builds.
 * Header: magic "TDPSPIL1" (8 bytes) + u32 version + u32 reserved.
 */
const MAGIC = Buffer.from('TDPSPIL1', 'latin1');
export const SPILL_HEADER = 16;
/** A version-1 record; version 2's adds 4 bytes. */
export const SPILL_RECORD = 16;
const RECORD_BYTES: Record<number, number> = { 1: SPILL_RECORD, 2: SPILL_RECORD + 4 };
const BUF_RECORDS = 8192;

/** The version in a spill's header (1 or 2), or undefined when it is no spill of this build. */
function spillVersion(fd: number): number | undefined {
  const h = Buffer.alloc(SPILL_HEADER);
  readSync(fd, h, 0, SPILL_HEADER, 0);
  if (!h.subarray(0, 8).equals(MAGIC)) return undefined;
  const v = h.readUInt32LE(8);
  return RECORD_BYTES[v] !== undefined ? v : undefined;
}

function sizeOf(path: string): { size: number; record: number } {
  const fd = openSync(path, 'r');
  try {
    return { size: fstatSync(fd).size, record: RECORD_BYTES[spillVersion(fd) ?? 1]! };
  } finally {
    closeSync(fd);
  }
}

export class SpillWriter {
  private fd: number;
  private readonly record: number;
  private buf: Buffer;
  private used = 0;
  count = 0;

  /** `tokens`: records carry a token count (version 2); an appended spill keeps its own version. */
  constructor(readonly path: string, append = false, readonly tokens = false) {
    if (append) {
      const { size, record } = sizeOfOr(path);
      this.record = record;
      this.tokens = record === RECORD_BYTES[2];
      this.count = Math.max(0, (size - SPILL_HEADER) / record);
    } else this.record = RECORD_BYTES[tokens ? 2 : 1]!;
    this.buf = Buffer.alloc(BUF_RECORDS * this.record);
    try {
      this.fd = openSync(path, append ? 'a' : 'w');
    } catch (err) {
      throw writeFailure(`the spill file ${path}`, err, path);
    }
    if (!append) {
      const h = Buffer.alloc(SPILL_HEADER);
      MAGIC.copy(h, 0);
      h.writeUInt32LE(tokens ? 2 : 1, 8);
      this.put(h, h.length);
    }
  }

  write(score: number, sentences: number, bytes: number, tokens = 0): void {
    const o = this.used * this.record;
    this.buf.writeDoubleLE(score, o);
    this.buf.writeUInt32LE(sentences, o + 8);
    this.buf.writeUInt32LE(Math.min(bytes, 0xffffffff), o + 12);
    if (this.tokens) this.buf.writeUInt32LE(Math.min(tokens, 0xffffffff), o + 16);
    this.used++;
    this.count++;
    if (this.used === BUF_RECORDS) this.flush();
  }

  flush(): void {
    if (this.used > 0) {
      this.put(this.buf, this.used * this.record);
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
  const { size, record } = sizeOf(path);
  const want = SPILL_HEADER + records * record;
  if (size < want) throw new TadpoleError('TADPOLE_RUN', `${path} holds fewer segments than its checkpoint (${Math.floor((size - SPILL_HEADER) / record)} < ${records}): the run directory is damaged; rerun without --resume`);
  truncateSync(path, want);
}

/** An appended spill's size and record length, or an exit-5 error naming it. */
function sizeOfOr(path: string): { size: number; record: number } {
  try {
    return sizeOf(path);
  } catch (err) {
    throw writeFailure(`the spill file ${path}`, err, path);
  }
}

export interface SpillRecord {
  score: number;
  sentences: number;
  bytes: number;
  /** 0 in a spill that counted no tokens (SpillReader.tokens says which). */
  tokens: number;
}

/** Sequential reader; `next()` returns records in id order. */
export class SpillReader {
  private fd: number;
  private buf: Buffer;
  private have = 0;
  private at = 0;
  private pos: number;
  private readonly size: number;
  readonly count: number;
  /** Its records carry token counts (the run scored with a tokenizer). */
  readonly tokens: boolean;
  readonly record: SpillRecord = { score: 0, sentences: 0, bytes: 0, tokens: 0 };

  constructor(readonly path: string, firstRecord = 0) {
    try {
      this.fd = openSync(path, 'r');
    } catch (err) {
      // Scratch that vanished under the run (its folder removed or unmounted) is a storage failure, exit 5.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new TadpoleError('TADPOLE_IO', `cannot read back the spill file ${path}: it is gone (its folder was removed during the run)`, { file: path, cause: err });
      throw new TadpoleError('TADPOLE_RUN', `cannot open spill file ${path}: ${(err as Error).message}`, { cause: err });
    }
    const version = spillVersion(this.fd);
    if (version === undefined) throw new TadpoleError('TADPOLE_RUN', `${path} is not a tadpole spill file`);
    this.size = RECORD_BYTES[version]!;
    this.tokens = version === 2;
    this.buf = Buffer.alloc(BUF_RECORDS * this.size);
    const size = fstatSync(this.fd).size;
    this.count = Math.floor((size - SPILL_HEADER) / this.size);
    this.pos = SPILL_HEADER + firstRecord * this.size;
  }

  /** The next record (the same object, overwritten), or undefined at the end. */
  next(): SpillRecord | undefined {
    if (this.at >= this.have) {
      const n = readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
      this.pos += n;
      this.have = Math.floor(n / this.size);
      this.at = 0;
      if (this.have === 0) return undefined;
    }
    const o = this.at * this.size;
    this.record.score = this.buf.readDoubleLE(o);
    this.record.sentences = this.buf.readUInt32LE(o + 8);
    this.record.bytes = this.buf.readUInt32LE(o + 12);
    if (this.tokens) this.record.tokens = this.buf.readUInt32LE(o + 16);
    this.at++;
    return this.record;
  }

  close(): void {
    closeSync(this.fd);
  }
}
