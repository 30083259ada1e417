import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';

export type TextEncodingName = 'utf8' | 'latin1';

async function isGzip(file: string): Promise<boolean> {
  if (file.endsWith('.gz')) return true;
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** The decompressed bytes of a file (gzip by extension or magic bytes), as a stream. */
export async function openBytes(file: string): Promise<Readable> {
  let gz: boolean;
  try {
    gz = await isGzip(file);
  } catch (cause) {
    throw new TadpoleError('TADPOLE_INPUT', `cannot open ${file}: ${(cause as Error).message}`, { file, cause });
  }
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  return gz ? raw.pipe(createGunzip()) : raw;
}

/**
 * Lines of a (possibly gzipped) file, without their terminators ("\n" or "\r\n"), streaming.
 * Chunks are decoded with a StringDecoder so a multi-byte character split across chunks
 * survives; a BOM at the start is dropped.
 */
export async function* readLines(file: string, encoding: TextEncodingName = 'utf8'): AsyncIterable<string> {
  const stream = await openBytes(file);
  const decoder = new StringDecoder(encoding);
  let carry = '';
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let text = carry + decoder.write(chunk);
      if (first && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      const parts = text.split('\n');
      carry = parts.pop() as string;
      for (const p of parts) yield p.endsWith('\r') ? p.slice(0, -1) : p;
    }
  } catch (cause) {
    if (cause instanceof TadpoleError) throw cause;
    throw new TadpoleError('TADPOLE_INPUT', `cannot read ${file}: ${(cause as Error).message}`, { file, cause });
  }
  carry += decoder.end();
  if (first && carry.charCodeAt(0) === 0xfeff) carry = carry.slice(1);
  if (carry.length > 0) yield carry.endsWith('\r') ? carry.slice(0, -1) : carry;
}

/** The whole decompressed file as a string (only for small files that are one JSON value). */
export async function readWhole(file: string, encoding: TextEncodingName = 'utf8'): Promise<string> {
  const parts: string[] = [];
  for await (const line of readLines(file, encoding)) parts.push(line);
  return parts.join('\n');
}
