import * as zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { TadpoleError } from '../../core/errors.js';
import { through } from './stream.js';

/**
 * zstd: Node's own (zlib, Node >= 22.15) when this Node has it, else fzstd (pure JS).
 *
 * Measured on 100 MB of JSONL from shared/corpora (zstd -3, 30.5 MB), decompressed
 * output per second, streaming, one run each (docs/design/decisions.md, "zstd"):
 *   Node 24 built-in 175 MB/s; zstd-napi 213 MB/s (Node 20); fzstd 42 MB/s; gunzip 215 MB/s.
 * zstd-napi has no prebuilt binary that installs offline: it compiles zstd from source at
 * `npm ci` (95 s here, and a C toolchain for every user); fzstd is 96 KB of JS with no
 * install step, and 42 MB/s is 20x the default filter's 2 MB/s, so it costs a run under 5%.
 * The built-in one wins where it exists (native speed, nothing to install).
 */
type ZstdZlib = {
  createZstdDecompress?: (opts?: { chunkSize?: number }) => Transform;
  createZstdCompress?: (opts?: { params?: Record<number, number> }) => Transform;
  constants: Record<string, number>;
};
const builtin = zlib as unknown as ZstdZlib;

export const HAS_BUILTIN_ZSTD = typeof builtin.createZstdDecompress === 'function' && typeof builtin.createZstdCompress === 'function';

export function zstdDecode(chunks: AsyncIterable<Buffer>, name: string): AsyncIterable<Buffer> {
  if (HAS_BUILTIN_ZSTD) return through(chunks, builtin.createZstdDecompress!({ chunkSize: 1 << 20 }), name, 'zstd data is damaged or truncated');
  return fzstdDecode(chunks, name);
}

/** fzstd's streaming decoder: reads concatenated and skippable frames, as zstd(1) does. */
export async function* fzstdDecode(chunks: AsyncIterable<Buffer>, name: string): AsyncGenerator<Buffer> {
  const { Decompress } = await import('fzstd');
  let out: Buffer[] = [];
  const d = new Decompress((chunk: Uint8Array) => out.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  const push = (chunk: Uint8Array, final: boolean): Buffer[] => {
    try {
      d.push(chunk, final);
    } catch (err) {
      throw new TadpoleError('TADPOLE_INPUT', `${name}: zstd data is damaged or truncated (${(err as Error).message})`, { file: name, cause: err });
    }
    const done = out;
    out = [];
    return done;
  };
  for await (const chunk of chunks) yield* push(chunk, false);
  yield* push(new Uint8Array(0), true);
}

/** A zstd compressor for output, or undefined on a Node without one (Node < 22.15). */
export function zstdCompressor(): Transform | undefined {
  if (!HAS_BUILTIN_ZSTD) return undefined;
  // Level 3 (zstd's default): the CLI's speed/size trade-off.
  const level = builtin.constants.ZSTD_c_compressionLevel;
  return builtin.createZstdCompress!(level !== undefined ? { params: { [level]: 3 } } : {});
}
