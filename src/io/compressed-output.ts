import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { TadpoleError } from '../core/errors.js';
import { tempPathFor, trackTemp, untrackTemp } from './atomic.js';
import { zstdCompressor } from './format/zstd.js';

/** Output is compressed by the name asked for: `-o kept.jsonl.gz` gzip, `-o kept.jsonl.zst` zstd, else plain. */
export function compressionFor(path: string): 'gzip' | 'zstd' | undefined {
  if (/\.gz$/i.test(path)) return 'gzip';
  if (/\.(zst|zstd)$/i.test(path)) return 'zstd';
  return undefined;
}

/** The compressor an output path asks for (undefined: plain). Refused up front where this Node has no zstd. */
export function compressorFor(path: string): Transform | undefined {
  const kind = compressionFor(path);
  if (kind === 'gzip') return createGzip({ level: 6 });
  if (kind === 'zstd') {
    const z = zstdCompressor();
    if (!z) {
      throw new TadpoleError('TADPOLE_USAGE', `${path}: writing zstd needs Node >= 22.15 (this is ${process.version}, which can read zstd but not write it); write ${path.replace(/\.(zst|zstd)$/i, '.gz')} or plain output instead`, { file: path });
    }
    return z;
  }
  return undefined;
}

/** Checked before a run starts, so a zstd output on an old Node fails before any work. */
export function checkOutputCompression(path: string | undefined): void {
  if (path) compressorFor(path)?.destroy();
}

/**
 * A finished plain file moved to a target that asks for compression: compressed into a
 * temp file beside the target, renamed into place, the plain file removed. (Resumable
 * outputs are written plain, because a checkpoint truncates them by byte length.)
 */
export async function compressInto(from: string, to: string, compressor: Transform): Promise<void> {
  const tmp = trackTemp(tempPathFor(to));
  try {
    await pipeline(createReadStream(from), compressor, createWriteStream(tmp));
    renameSync(tmp, to);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new TadpoleError('TADPOLE_IO', `cannot write ${to}: ${(err as Error).message}`, { file: to, cause: err });
  }
  untrackTemp(tmp);
  rmSync(from, { force: true });
}
