import { statSync } from 'node:fs';
import { TadpoleError } from '../core/errors.js';
import { readHead, sniff, type FormatKind } from './format/magic.js';
import { JSONL_SNIFF_BYTES, looksLikeJsonl } from './format/jsonl-sniff.js';
import { looksLikeWarc } from './format/warc.js';
import { STDIN, unreadable } from './input.js';
import { resolveFormat, type InputFormat, type ResolvedFormat } from './input-format.js';
import { remoteObject } from './remote/registry.js';
import { isRemote } from './remote/url.js';

/**
 * What one input is, decided once from its name, its first bytes and its size, and then
 * carried with it: the sampler, the reader, the opener, the shard planner and the run
 * fingerprint read this record instead of sniffing the file again.
 */
export interface InputKind {
  /** The input as given: a path, or '-' for stdin. */
  input: string;
  /** The --format it was resolved under (a reader given another one resolves it again). */
  requested: InputFormat;
  /** What its first bytes are (src/io/format/magic.ts); 'text' for stdin and pipes, judged as they stream. */
  bytes: FormatKind;
  /** How its documents are cut: --format, else its name, else its first bytes; Parquet by magic bytes; WARC (and WET) by its first bytes under --format auto. */
  format: ResolvedFormat | 'parquet' | 'warc';
  /** The format came from the first bytes (a plain file that starts like JSONL), not from --format or the name. */
  sniffedJsonl: boolean;
  /**
   * The format is judged on the decoded stream's first bytes as it is read: stdin, pipes and
   * compressed files under --format auto whose name says nothing.
   */
  formatFromStream: boolean;
  /** A regular file (or remote object) of plain UTF-8 text, so a byte offset can be seeked to (shards, resume, the seek sampler). */
  seekable: boolean;
  /** Bytes on disk (or in the object); -1 for stdin. */
  size: number;
}

/**
 * An input as a public entry takes it: a path (or '-'), or a record its caller already resolved
 * (the CLI resolves once, to pick the output format). Entries resolve it at their top
 * (resolveInputs) and pass InputKind inward; helpers that only name or stat an input take either.
 */
export type InputRef = string | InputKind;

export function inputPath(ref: InputRef): string {
  return typeof ref === 'string' ? ref : ref.input;
}

/** The kind of one input: one stat and one read of its first 64 KiB; a path that cannot be read is refused (exit 3). */
export function resolveInput(input: string, format: InputFormat): InputKind {
  if (input === STDIN) {
    const byName = resolveFormat(format, input);
    return { input, requested: format, bytes: 'text', format: byName, sniffedJsonl: false, formatFromStream: format === 'auto' && byName === 'text', seekable: false, size: -1 };
  }
  let size = -1;
  let regular = false;
  let head: Buffer | undefined;
  try {
    if (isRemote(input)) {
      // One ranged GET, made once per process (src/io/remote/registry.ts): an object is a regular file here.
      const o = remoteObject(input);
      size = o.size;
      regular = true;
      head = o.head;
    } else {
      const st = statSync(input);
      size = st.size;
      regular = st.isFile();
      if (regular) head = readHead(input);
    }
  } catch (err) {
    if (err instanceof TadpoleError) throw err;
    // Here, before any thread starts or byte is written, and in the words the reader would use.
    throw unreadable(input, err);
  }
  const bytes: FormatKind = head ? sniff(head) : 'text';
  const byName = resolveFormat(format, input);
  const plain = bytes === 'text';
  // WARC and WET are read record by record from their raw bytes (src/io/warc-documents.ts), whatever their name.
  if (format === 'auto' && head !== undefined && looksLikeWarc(head, bytes)) {
    return { input, requested: format, bytes, format: 'warc', sniffedJsonl: false, formatFromStream: false, seekable: false, size };
  }
  const sniffedJsonl = plain && byName === 'text' && format === 'auto' && head !== undefined && looksLikeJsonl(head.subarray(0, JSONL_SNIFF_BYTES));
  return {
    input,
    requested: format,
    bytes,
    format: bytes === 'parquet' ? 'parquet' : sniffedJsonl ? 'jsonl' : byName,
    sniffedJsonl,
    formatFromStream: format === 'auto' && byName === 'text' && bytes !== 'parquet' && !(plain && regular),
    seekable: plain && regular,
    size,
  };
}

/** The kind of an input given as a path or as a record resolved under another --format. */
function kindOf(ref: InputRef, format: InputFormat): InputKind {
  return typeof ref !== 'string' && ref.requested === format ? ref : resolveInput(inputPath(ref), format);
}

export function resolveInputs(inputs: readonly InputRef[], format: InputFormat): InputKind[] {
  return inputs.map((i) => kindOf(i, format));
}

/**
 * What an input is when it can be read only once: a named pipe (also `/dev/stdin` or
 * `/dev/fd/N` over a pipe), a socket or a character device. Told by stat, never by opening
 * it: opening a pipe that has no writer blocks in open(2), where no signal ends the wait.
 */
export function readOnce(input: string): string | undefined {
  if (input === STDIN) return undefined;
  let st;
  try {
    st = statSync(input);
  } catch {
    return undefined; // missing: the reader says so when it opens it
  }
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  return undefined;
}

/**
 * Refuses, before anything is opened or written, an input that can be read only once where
 * `command` reads its inputs twice (or fingerprints them first). stdin itself is spooled to a
 * file and read again: that is the way to give such a stream.
 */
export function refuseReadOnce(inputs: readonly InputRef[], command: string): void {
  for (const ref of inputs) {
    const path = inputPath(ref);
    const what = readOnce(path);
    if (!what) continue;
    // stdin by another name (`/dev/stdin`, `/dev/fd/0`, a shell's `<(...)`): `-` is the same stream, spooled.
    const instead = /^\/(dev|proc\/self)\/(stdin|fd\/\d+)$/.test(path) ? `give - (stdin) instead of ${path}, or pipe it to stdin` : `pipe it to stdin instead (cat ${path} | tadpole ${command.split(' ')[0]} ... -)`;
    throw new TadpoleError('TADPOLE_INPUT', `${path} is ${what}, which can be read only once, and ${command} reads its input twice: ${instead}, which is spooled and read again, or copy it to a file`, { file: path });
  }
}

/** Compressed (or re-encoded) bytes: read from the start, never seeked into. */
export function isCompressed(kind: InputKind): boolean {
  return kind.bytes === 'gzip' || kind.bytes === 'zstd' || kind.bytes === 'xz';
}
