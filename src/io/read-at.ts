import { closeSync, fstatSync, readSync } from 'node:fs';
import { openForRead } from './input.js';
import { readRemoteSync, remoteObject } from './remote/registry.js';
import { isRemote } from './remote/url.js';

/** A file or remote object read at byte positions, synchronously (pread on a file, Range GETs on an object). */
export interface ReadAt {
  /** Reads up to `length` bytes at `position` into `buf` at `offset`; 0 at the end. */
  read(buf: Buffer, offset: number, length: number, position: number): number;
  close(): void;
  /** Its size in bytes, as first seen. */
  readonly size: number;
}

/** Bytes fetched per remote read at least: the seek sampler's and the planner's small windows share one request. */
const REMOTE_BLOCK = 256 * 1024;

export function openReadAt(path: string): ReadAt {
  if (!isRemote(path)) {
    const fd = openForRead(path);
    let size: number;
    try {
      size = fstatSync(fd).size;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    return { size, read: (buf, offset, length, position) => readSync(fd, buf, offset, length, position), close: () => closeSync(fd) };
  }
  const size = remoteObject(path).size;
  let block: Buffer = Buffer.alloc(0);
  let blockAt = 0;
  return {
    size,
    read(buf, offset, length, position) {
      if (position >= size || length <= 0) return 0;
      if (position < blockAt || position + Math.min(length, size - position) > blockAt + block.length) {
        blockAt = position;
        block = readRemoteSync(path, position, Math.min(size, position + Math.max(length, REMOTE_BLOCK)));
      }
      return block.copy(buf, offset, position - blockAt, Math.min(block.length, position - blockAt + length));
    },
    close() {},
  };
}
