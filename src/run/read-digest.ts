import { TadpoleError } from '../core/errors.js';
import { createHash, type Hash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { openForRead } from '../io/input.js';
import type { InputKind } from '../io/input-kind.js';
import type { ShardPlan } from '../passes/plan.js';
import { isRemote } from '../io/remote/url.js';

/** Where a digest has reached: the input index and the byte offset in it (a document boundary). */
interface Position {
  input: number;
  offset: number;
}

const CHUNK = 1 << 20;

/**
 * sha256 of the bytes a shard has read so far, in reading order: every plain-text input of
 * its plan from the plan's start up to a read position. A checkpoint records it, and a resumed
 * run hashes the same bytes again before it reads on: an edit anywhere in what was already
 * read (the input fingerprint sees only the size and the first and last 64 KiB) is refused.
 *
 * The bytes are read again from the file (just read by the reader, so from the page cache) at
 * each checkpoint rather than tapped from the reader's stream, so the reader and its threads
 * are untouched. Compressed, Parquet and UTF-16 inputs and stdin are not hashed here: their
 * positions are not file offsets (stdin's spool is compared byte for byte on resume instead).
 * Nor are remote objects: every read of one is held to its first ETag (src/io/remote/read.ts),
 * and reading it again here would fetch it twice.
 */
export class ReadDigest {
  private readonly hash: Hash = createHash('sha256');
  private readonly order: number[];
  private readonly hashed: boolean[];
  private at: Position;
  private readonly buf = Buffer.allocUnsafe(CHUNK);

  constructor(
    private readonly inputs: readonly InputKind[],
    private readonly plan: ShardPlan,
  ) {
    this.order = [...plan.only].sort((a, b) => a - b);
    this.hashed = inputs.map((k) => k.seekable && !isRemote(k.input));
    const first = this.order[0] ?? inputs.length;
    this.at = { input: first, offset: plan.ranges.get(first)?.start ?? 0 };
  }

  /** Whether any input of the plan is hashed (otherwise the digest says nothing). */
  get covers(): boolean {
    return this.order.some((j) => this.hashed[j]);
  }

  /** Hashes the plan's bytes from where it stopped up to `to` (a read position; `undefined`: the plan's end). */
  advance(to?: Position): void {
    for (const j of this.order) {
      if (j < this.at.input) continue;
      if (to && j > to.input) break;
      const range = this.plan.ranges.get(j);
      const from = j === this.at.input ? this.at.offset : (range?.start ?? 0);
      const end = to && j === to.input ? to.offset : (range?.end ?? Number.MAX_SAFE_INTEGER);
      if (this.hashed[j] && end > from) this.hashRange(j, from, end);
      this.at = { input: j, offset: Math.max(from, end) };
    }
  }

  digest(): string {
    return this.hash.copy().digest('hex');
  }

  /** Input j's path, as given. */
  path(j: number): string {
    return this.inputs[j]!.input;
  }

  private hashRange(j: number, from: number, end: number): void {
    const path = this.path(j);
    const fd = openForRead(path);
    try {
      for (let pos = from; pos < end; ) {
        const n = readSync(fd, this.buf, 0, Math.min(CHUNK, end - pos), pos);
        if (n === 0) break; // the file ends early: the size check reports it
        this.hash.update(this.buf.subarray(0, n));
        pos += n;
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** The digest of what was read up to `at` (the whole plan without it); nothing when no input is hashed. */
export function readDigestAt(digest: ReadDigest, at?: Position): { readSha256?: string } {
  if (!digest.covers) return {};
  digest.advance(at);
  return { readSha256: digest.digest() };
}

/** A resumed shard hashes what its checkpoint says was read and refuses an input edited there since. */
export function checkReadDigest(digest: ReadDigest, at: Position, recorded: string | undefined, runDir: string): void {
  if (recorded === undefined || !digest.covers) return;
  digest.advance(at);
  if (digest.digest() !== recorded) {
    throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the inputs changed since the run in ${runDir} read them: the bytes it read, up to ${digest.path(at.input)} byte ${at.offset}, differ now (edited in place); cannot resume: start a new --run-dir`);
  }
}
