/**
 * A seeded sample of the sentences of some inputs, spread over all of them, that does not
 * read all of them when it need not. The sample is drawn in whole segments (SAMPLE_GROUP
 * consecutive sentences of a document, counted from its start as the pipeline cuts them),
 * and `groups` says which sentences came together: a fit can then judge a piece of the
 * corpus by its segment's mean, as the cut does (select/self-training.ts).
 *
 * - Plain files (every input a regular file of uncompressed text or JSONL, together at
 *   least `seekMinBytes`): seek to seeded random byte offsets, uniform over the inputs laid
 *   end to end, take the next whole document (a line for JSONL / --doc-per-line, a
 *   blank-line separated paragraph for text) and one of its segments, chosen by the seed.
 *   "The next document" is taken in the inputs laid end to end (past the last document of
 *   one file comes the first of the next; past the last file, the first), so a folder of
 *   files and their concatenation give the same sample. Bytes read are bounded by the
 *   number of draws times the window, never by the size of the input (a document longer
 *   than MAX_SEEK_DOC_BYTES is skipped).
 * - Compressed, delimited (CSV/TSV) or small inputs: one pass over everything, keeping the
 *   segments with the smallest seeded random keys (io/sentences.ts, readSentenceGroups),
 *   which is exact but reads it all (gzip cannot be entered mid-stream). A seek sample that
 *   comes up short (too few whole documents) is redone this way when the inputs are under
 *   RESERVOIR_FALLBACK_MAX_BYTES, and returned short otherwise.
 * - stdin: with a spool (filter spools stdin for its second pass anyway) it is copied there
 *   first and the spool sampled as a file, so `cat corpus | tadpole filter -` draws the
 *   sample `tadpole filter corpus` draws. Without one it is read in one reservoir pass, and
 *   `differs` says when that sample is not the one the same bytes as a file would give.
 *
 * The sample is a function of the decoded text, the seed and the size, except where
 * `differs` says otherwise; its fingerprint (sha256 of seed, size and the sentences) names
 * it in stats and run directories.
 */
import { createHash } from 'node:crypto';
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { splitSentences } from '../text/sentences.js';
import { ReadCounters, type ReadOptions, type ReaderOptions } from './documents.js';
import { isDelimited } from './input-format.js';
import { isCompressed, resolveInput, resolveInputs, type InputKind } from './input-kind.js';
import { spoolStdin, STDIN } from './input.js';
import { openReadAt, type ReadAt } from './read-at.js';
import { readSentenceGroups, type DocSplitter } from './sentences.js';

export interface SampleOptions {
  /** Sentences wanted (fewer when the inputs hold fewer). */
  size: number;
  seed: number;
  /** Below this many bytes in all, one reservoir pass is as cheap as seeking: read it all. */
  seekMinBytes?: number;
  /** Where a reservoir pass splits documents (default: this thread; the sample is the same). */
  split?: DocSplitter | undefined;
}

export type SamplerKind = 'seek' | 'reservoir';

export interface SentenceSample {
  sentences: string[];
  /** `groups[i]`: the segment sentence i came from (0, 1, ...; a segment's sentences are consecutive). */
  groups: Uint32Array;
  size: number;
  seed: number;
  sampler: SamplerKind;
  /** Bytes read from the inputs (decompressed bytes for gzip). */
  bytesRead: number;
  /** Documents the sentences came from (seek) or read (reservoir). */
  documents: number;
  /** Seek: offsets drawn (each reads at most MAX_SEEK_DOC_BYTES plus a window); reservoir: 0. */
  draws: number;
  /** sha256 (hex, 16 characters) of seed, size, the sentences in order and their segments. */
  fingerprint: string;
  /** Reservoir: why the inputs were read whole (a noun phrase: "a gzip input", "an input under 64 MB"). */
  readWhole?: string;
  /**
   * Set when the same text arriving another way (decompressed, as a plain file) would be
   * sampled by seeking, i.e. give another sample: one line saying why, for stderr.
   */
  differs?: string;
  /** stdin was copied to the spool and sampled there: the spool's kind, for the passes that read it next. */
  spooled?: InputKind;
}

/**
 * 64 MiB: below this a reservoir pass (read + split at ~80 MB/s, scripts/bench/splitter.js)
 * costs under a second, about what 20,000 seeks cost on a cold disk, and it is exact.
 */
export const SEEK_MIN_BYTES = 64 * 1024 * 1024;
/** A seek sample that came up short is redone by a full pass only below this size (1 GiB). */
export const RESERVOIR_FALLBACK_MAX_BYTES = 1024 * 1024 * 1024;
/**
 * Sentences per sampled segment (the most taken per draw): the filter's default segment,
 * so the sample's segments are the units the cut keeps or drops.
 */
export const SAMPLE_GROUP = 15;
/** First read at an offset; doubled until the document's end is found. */
const WINDOW = 8 * 1024;
/** A document longer than this is skipped by the seek sampler (bounds the bytes per draw). */
export const MAX_SEEK_DOC_BYTES = 1024 * 1024;
/** Draws stop after this many per wanted sentence (small or near-empty inputs). */
const MAX_DRAWS_PER_SENTENCE = 4;

export async function sampleSentences(inputs: readonly string[], reader: ReaderOptions, opts: SampleOptions, ro: ReadOptions = {}): Promise<SentenceSample> {
  // Each input's kind is decided here, once, at the library's entry (src/io/input-kind.ts).
  return sampleKinds(resolveInputs(inputs, reader.format), reader, opts, ro);
}

/** sampleSentences of inputs already resolved, as a run samples its corpus. */
export async function sampleKinds(resolved: readonly InputKind[], reader: ReaderOptions, opts: SampleOptions, ro: ReadOptions = {}): Promise<SentenceSample> {
  if (!(Number.isInteger(opts.size) && opts.size > 0)) throw new TadpoleError('TADPOLE_USAGE', `sample size must be a positive integer, got ${opts.size}`);
  const seekMin = opts.seekMinBytes ?? seekMinBytes();
  let kinds = [...resolved];
  let spool: InputKind | undefined; // stdin's bytes, once spooled: named as stdin in what is said
  if (ro.spool && ro.stdin && kinds.some((k) => k.input === STDIN)) {
    // Spool stdin whole first, then sample the spool as the file it now is.
    await spoolStdin(ro.stdin, ro.spool);
    spool = resolveInput(String(ro.spool.path), reader.format);
    kinds = kinds.map((k) => (k.input === STDIN ? spool! : k));
    const { spool: _spool, stdin: _stdin, ...rest } = ro;
    ro = rest;
  }
  const seekable = kinds.every((k) => k.seekable && !isDelimited(k.format));
  const total = kinds.reduce((a, k) => a + Math.max(0, k.size), 0);
  if (seekable && total >= seekMin) {
    const s = seekSample(kinds, reader, opts);
    // Too few whole documents for the draws (a small file, or mostly oversized documents):
    // read it all when that is affordable; a huge input keeps the short sample instead.
    if (s.sentences.length >= opts.size || total > RESERVOIR_FALLBACK_MAX_BYTES) return spool ? { ...s, spooled: spool } : s;
  }
  const counters = ro.counters ?? new ReadCounters();
  const decoded = { bytes: 0 };
  const { sentences, groups } = await readSentenceGroups(kinds, { ...reader, size: opts.size, seed: opts.seed, group: SAMPLE_GROUP }, { ...ro, counters, decoded }, opts.split);
  const name = (k: InputKind): string => (k === spool || k.input === STDIN ? 'stdin' : k.input);
  const why = whyWhole(kinds, seekable, seekMin, name);
  const differs = differsFromPlain(kinds, decoded.bytes, seekMin, name);
  return finish({ sentences, groups, size: opts.size, seed: opts.seed, sampler: 'reservoir', bytesRead: counters.bytes, documents: counters.docs, draws: 0, readWhole: why, ...(differs ? { differs } : {}), ...(spool ? { spooled: spool } : {}) });
}

/** SEEK_MIN_BYTES, or TADPOLE_SAMPLE_SEEK_MIN_BYTES when set (small test corpora that must take the seek path). */
function seekMinBytes(): number {
  const v = Number(process.env.TADPOLE_SAMPLE_SEEK_MIN_BYTES);
  return Number.isInteger(v) && v > 0 ? v : SEEK_MIN_BYTES;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** Why a reservoir pass read every input: the first input that cannot be seeked into, or the size. */
function whyWhole(kinds: InputKind[], seekable: boolean, seekMin: number, name: (k: InputKind) => string): string {
  if (seekable) return `an input under ${mib(seekMin)}`;
  const k = kinds.find((x) => !x.seekable || isDelimited(x.format))!;
  if (k.input === STDIN) return 'stdin';
  if (isDelimited(k.format)) return k.format.toUpperCase();
  if (k.size < 0 || k.bytes === 'text') return `${name(k)} (not a regular file)`;
  return `a ${k.bytes} input`;
}

/**
 * One line for stderr when this reservoir sample is not the one the same text would give
 * as plain files: decoded, the inputs hold at least `seekMin` bytes, so plain they would be
 * sampled by seeking. Undefined when every arrival gives this sample.
 */
function differsFromPlain(kinds: InputKind[], decodedBytes: number, seekMin: number, name: (k: InputKind) => string): string | undefined {
  // CSV and WARC are read whole however they come: plain, they would not be seeked into either.
  if (decodedBytes < seekMin || kinds.some((k) => isDelimited(k.format) || k.format === 'warc')) return undefined;
  const packed = kinds.find((k) => isCompressed(k) || k.bytes === 'utf16le' || k.bytes === 'utf16be');
  const streamed = kinds.find((k) => !k.seekable);
  if (!packed && !streamed) return undefined;
  const what = packed
    ? `${name(packed)} is ${packed.bytes.startsWith('utf16') ? 'UTF-16' : `${packed.bytes}-compressed`}`
    : streamed!.input === STDIN ? 'stdin is read as it streams' : `${name(streamed!)} is not a regular file`;
  const fix = !packed ? 'give it as a file' : name(packed) === 'stdin' ? 'decompress it before the pipe' : 'decompress it to a file first';
  return `the corpus sample was drawn in one pass over ${mib(decodedBytes)} of text because ${what}; the same text as plain files (${mib(seekMin)} or more) is sampled by seeking, which draws another sample, so what is kept can differ slightly from a run on the plain text: ${fix} for a run identical to that one`;
}

function finish(s: Omit<SentenceSample, 'fingerprint'>): SentenceSample {
  const h = createHash('sha256');
  h.update(`tadpole-sample\0${s.seed}\0${s.size}\0`);
  s.sentences.forEach((x, i) => {
    if (i > 0 && s.groups[i] !== s.groups[i - 1]) h.update('\x01');
    h.update(x).update('\0');
  });
  return { ...s, fingerprint: h.digest('hex').slice(0, 16) };
}

/** Uniform in [0, 1) with 53 bits (offsets into inputs of many GB). */
function uniform(rng: Rng): number {
  return (rng.int(1 << 21) * 4294967296 + rng.int(4294967296)) / 2 ** 53;
}

function seekSample(kinds: InputKind[], reader: ReaderOptions, opts: SampleOptions): SentenceSample {
  const rng = new Rng(opts.seed ^ 0x5eed);
  const sizes = kinds.map((k) => k.size);
  const total = sizes.reduce((a, b) => a + b, 0);
  const starts: number[] = [];
  let acc = 0;
  for (const s of sizes) { starts.push(acc); acc += s; }
  const fds = kinds.map((k) => openReadAt(k.input));
  const jsonlInput = kinds.map((k) => k.format === 'jsonl');
  const taken = new Set<number>();
  const out: string[] = [];
  const groups: number[] = [];
  let bytesRead = 0;
  let documents = 0;
  let draws = 0;
  const maxDraws = opts.size * MAX_DRAWS_PER_SENTENCE;
  // The first whole document at or after pos in input j, in the inputs laid end to end.
  const documentFrom = (j: number, pos: number): DocAt & { input: number } => {
    for (let k = 0; k <= sizes.length; k++) {
      const at = (j + k) % sizes.length;
      if (sizes[at]! === 0) continue;
      const doc = documentAt(fds[at]!, k === 0 ? pos : 0, sizes[at]!, jsonlInput[at]! || reader.docPerLine);
      bytesRead += doc.bytesRead;
      if (doc.start !== PAST_END) return { ...doc, input: at };
    }
    return { start: -1, text: Buffer.alloc(0), bytesRead: 0, input: j };
  };
  try {
    // Rounds of draws sorted by offset (sequential-ish reads), sized by what a draw yields so far.
    while (out.length < opts.size && draws < maxDraws) {
      const perDraw = draws > 0 ? Math.max(0.25, out.length / draws) : SAMPLE_GROUP / 2;
      const n = Math.min(maxDraws - draws, Math.ceil(((opts.size - out.length) / perDraw) * 1.1) + 1);
      const offsets = Array.from({ length: n }, () => Math.floor(uniform(rng) * total)).sort((a, b) => a - b);
      draws += n;
      for (const g of offsets) {
        let j = 0;
        while (j < sizes.length - 1 && starts[j + 1]! <= g) j++;
        const doc = documentFrom(j, g - starts[j]!);
        if (doc.start < 0) continue;
        const key = starts[doc.input]! + doc.start;
        if (taken.has(key)) continue; // small inputs: the same document twice adds nothing
        taken.add(key);
        const text = docText(doc.text, doc.start, jsonlInput[doc.input]!, reader.textField);
        if (text === undefined) continue;
        const spans = splitSentences(text);
        const count = spans.length / 2;
        if (count === 0) continue;
        documents++;
        const first = SAMPLE_GROUP * rng.int(Math.ceil(count / SAMPLE_GROUP));
        const group = documents - 1;
        for (let i = first; i < Math.min(count, first + SAMPLE_GROUP) && out.length < opts.size; i++) {
          out.push(text.slice(spans[2 * i], spans[2 * i + 1]));
          groups.push(group);
        }
        if (out.length >= opts.size) break;
      }
    }
  } finally {
    for (const fd of fds) fd.close();
  }
  return finish({ sentences: out, groups: Uint32Array.from(groups), size: opts.size, seed: opts.seed, sampler: 'seek', bytesRead, documents, draws });
}

/** DocAt.start when no document starts between pos and the end of the file (the next file's first is next). */
const PAST_END = -2;

interface DocAt {
  /** Byte offset of the document in its file; -1: none (oversized). */
  start: number;
  text: Buffer;
  bytesRead: number;
}

/**
 * The first whole document starting at or after `pos` in one file: reads a window from
 * pos-1 and doubles it until the document's end is in it. PAST_END when pos lies in the
 * file's last document (the caller goes on to the next file's first).
 */
function documentAt(fd: ReadAt, pos: number, size: number, perLine: boolean): DocAt {
  let bytesRead = 0;
  const from = Math.max(0, pos - 1);
  let buf = Buffer.alloc(0);
  const none = (): DocAt => ({ start: -1, text: Buffer.alloc(0), bytesRead });
  for (let win = WINDOW; ; win *= 2) {
    // Grow the window by reading only the bytes not read yet.
    const at = from + buf.length;
    const more = Buffer.allocUnsafe(Math.max(0, Math.min(win - buf.length, size - at)));
    const n = more.length > 0 ? fd.read(more, 0, more.length, at) : 0;
    bytesRead += n;
    buf = buf.length === 0 ? more.subarray(0, n) : Buffer.concat([buf, more.subarray(0, n)]);
    const atEnd = from + buf.length >= size || n === 0;
    const start = pos === 0 ? 0 : boundaryIn(buf, from, pos, perLine);
    if (start < 0 || start >= size) {
      if (atEnd) return { start: PAST_END, text: Buffer.alloc(0), bytesRead };
      if (buf.length > MAX_SEEK_DOC_BYTES) return none();
      continue;
    }
    const rel = start - from;
    const end = docEnd(buf, rel, perLine);
    if (end >= 0) return { start, text: buf.subarray(rel, end), bytesRead };
    if (atEnd) return { start, text: buf.subarray(rel), bytesRead };
    if (buf.length - rel > MAX_SEEK_DOC_BYTES) return none();
  }
}

function isBlankByte(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 0x0b || c === 0x0c;
}

function isBlankLine(buf: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isBlankByte(buf[k]!)) return false;
  return true;
}

/**
 * Absolute offset of the first document start at or after `pos` in buf (read from
 * `from`), or -1 when buf does not reach it: the line after the first line break at or
 * after pos-1 (per-line), or the first non-blank line after a blank one (paragraphs).
 */
function boundaryIn(buf: Buffer, from: number, pos: number, perLine: boolean): number {
  const nl = buf.indexOf(0x0a, Math.max(0, pos - 1 - from));
  if (nl < 0) return -1;
  if (perLine) return from + nl + 1;
  let afterBlank = false;
  for (let p = nl + 1; p < buf.length; ) {
    const e = buf.indexOf(0x0a, p);
    const lineEnd = e < 0 ? buf.length : e;
    const blank = isBlankLine(buf, p, lineEnd);
    if (!blank && afterBlank) return from + p;
    if (e < 0) return -1;
    if (blank) afterBlank = true;
    p = e + 1;
  }
  return -1;
}

/** End (exclusive, relative to buf) of the document starting at `rel`; -1 when not within buf. */
function docEnd(buf: Buffer, rel: number, perLine: boolean): number {
  if (perLine) return buf.indexOf(0x0a, rel);
  let sawText = false;
  for (let p = rel; ; ) {
    const e = buf.indexOf(0x0a, p);
    if (e < 0) return -1;
    const blank = isBlankLine(buf, p, e);
    if (blank && sawText) return p;
    if (!blank) sawText = true;
    p = e + 1;
  }
}

function docText(raw: Buffer, start: number, jsonl: boolean, field: string): string | undefined {
  let text = raw.toString('utf8');
  if (start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!jsonl) return text.trim() === '' ? undefined : text;
  try {
    const rec = JSON.parse(text) as unknown;
    const v = rec && typeof rec === 'object' && !Array.isArray(rec) ? (rec as Record<string, unknown>)[field] : undefined;
    return typeof v === 'string' && v.trim() !== '' ? v : undefined;
  } catch {
    return undefined; // a bad line is skipped here as the reader skips it
  }
}
