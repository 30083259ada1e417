import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readFileSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { isSeekableText, sniff } from '../io/format/magic.js';
import { inputPath, type InputRef } from '../io/input-kind.js';
import { openForRead, STDIN } from '../io/input.js';
import { remoteObject } from '../io/remote/registry.js';
import { isRemote } from '../io/remote/url.js';

/** Bytes hashed at each end of a file: catches appends, truncation and edits at the ends in O(1) time. */
const END_BYTES = 64 * 1024;

export function fingerprintInput(ref: InputRef, idx: number): InputFingerprint {
  const input = inputPath(ref);
  if (input === STDIN) return { idx, path: STDIN, size: -1, mtimeMs: 0, headTailSha256: '', gzip: false };
  if (isRemote(input)) {
    // An object's ETag changes with its bytes: it stands for the hash of its ends, without reading them.
    const o = remoteObject(input);
    return { idx, path: input, size: o.size, mtimeMs: 0, headTailSha256: `etag:${o.etag}`, gzip: typeof ref === 'string' ? sniff(o.head) !== 'text' : !ref.seekable };
  }
  const fd = openForRead(input);
  try {
    const st = fstatSync(fd);
    const h = createHash('sha256');
    const head = Buffer.alloc(Math.min(END_BYTES, st.size));
    readSync(fd, head, 0, head.length, 0);
    h.update(head);
    if (st.size > END_BYTES) {
      const tailLen = Math.min(END_BYTES, st.size - END_BYTES);
      const tail = Buffer.alloc(tailLen);
      readSync(fd, tail, 0, tailLen, st.size - tailLen);
      h.update(tail);
    }
    return { idx, path: resolve(input), size: st.size, mtimeMs: st.mtimeMs, headTailSha256: h.digest('hex'), gzip: typeof ref === 'string' ? !isSeekableText(input) : !ref.seekable };
  } finally {
    closeSync(fd);
  }
}

export function fingerprintInputs(inputs: readonly InputRef[]): InputFingerprint[] {
  return inputs.map((f, i) => fingerprintInput(f, i));
}

/** Why the inputs differ from the recorded ones (undefined: the same). mtime alone is not a change: copies and `touch` keep the bytes. */
export function inputsDiffer(recorded: InputFingerprint[], now: InputFingerprint[]): string | undefined {
  if (recorded.length !== now.length) return `the run had ${recorded.length} inputs, now ${now.length}`;
  for (let i = 0; i < now.length; i++) {
    const a = recorded[i]!;
    const b = now[i]!;
    if (a.path !== b.path) return `input ${i + 1} was ${a.path}, now ${b.path}`;
    if (a.path === STDIN) continue;
    if (a.size !== b.size) return `${b.path} changed size (${a.size} -> ${b.size} bytes)`;
    if (a.headTailSha256 !== b.headTailSha256) return `${b.path} changed content (${b.headTailSha256.startsWith('etag:') ? 'its ETag differs' : 'first/last 64 KiB differ'})`;
  }
  return undefined;
}

export function fileSha256(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch (err) {
    throw new TadpoleError('TADPOLE_MODEL', `cannot read ${path}: ${(err as Error).message}`, { file: path, cause: err });
  }
}

export interface InputFingerprint {
  idx: number;
  path: string;
  size: number;
  mtimeMs: number;
  /** sha256 of the first and last 64 KiB (the whole file when smaller). */
  headTailSha256: string;
  gzip: boolean;
}
