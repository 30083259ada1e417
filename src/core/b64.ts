/**
 * Typed arrays <-> base64, so model files stay compact JSON (little-endian, as Node runs on).
 * Decoding is strict: a model file is read from disk and may be damaged or hostile, and
 * `Buffer.from(s, 'base64')` skips bad characters and stops quietly at a cut, so every
 * decode checks the text, the byte count and, where the caller knows it, the length.
 */
import { TadpoleError } from './errors.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The array a model file's field holds, or TADPOLE_MODEL naming the field and what is wrong. */
function decode(s: unknown, width: number, what: string, length?: number): Buffer {
  if (typeof s !== 'string') throw damaged(what, `${s === null ? 'null' : Array.isArray(s) ? 'an array' : typeof s} where base64 text belongs`);
  if (s.length % 4 !== 0 || !BASE64.test(s)) throw damaged(what, 'not base64');
  // The decoded size, known before decoding: a declared length it cannot hold is refused unallocated.
  const bytes = (s.length / 4) * 3 - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
  if (bytes % width !== 0) throw damaged(what, `${bytes} bytes is not a whole number of ${width}-byte values`);
  if (length !== undefined && bytes / width !== length) throw damaged(what, `${bytes / width} values where the model declares ${length}`);
  return Buffer.from(s, 'base64');
}

/** TADPOLE_MODEL for a model file whose field `what` is wrong in the way `why` says. */
export function damaged(what: string, why: string): TadpoleError {
  return new TadpoleError('TADPOLE_MODEL', `model file is damaged: ${what}: ${why}; refit the model or restore the file`);
}

/** Copies into a fresh, aligned buffer (a Buffer's bytes may sit at any offset of a shared pool). */
function typed<T>(b: Buffer, make: (n: number) => T & { buffer: ArrayBufferLike }, width: number): T {
  const out = make(b.byteLength / width);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export function f32ToB64(a: Float32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToF32(s: unknown, what = 'a float32 array', length?: number): Float32Array {
  return typed(decode(s, 4, what, length), (n) => new Float32Array(n), 4);
}
export function f64ToB64(a: Float64Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToF64(s: unknown, what = 'a float64 array', length?: number): Float64Array {
  return typed(decode(s, 8, what, length), (n) => new Float64Array(n), 8);
}
export function i32ToB64(a: Int32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToI32(s: unknown, what = 'an int32 array', length?: number): Int32Array {
  return typed(decode(s, 4, what, length), (n) => new Int32Array(n), 4);
}
export function b64ToI16(s: unknown, what = 'an int16 array', length?: number): Int16Array {
  return typed(decode(s, 2, what, length), (n) => new Int16Array(n), 2);
}
export function b64ToU16(s: unknown, what = 'a uint16 array', length?: number): Uint16Array {
  return typed(decode(s, 2, what, length), (n) => new Uint16Array(n), 2);
}

/** A size a model file declares (buckets, dims, rows): a positive whole number, or TADPOLE_MODEL. */
export function declaredCount(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw damaged(what, `${JSON.stringify(v) ?? 'nothing'} where a positive whole number belongs`);
  return v;
}

/** Raw bytes (a serialized index): the text checked as base64 first. */
export function b64ToBytes(s: unknown, what: string): Buffer {
  return decode(s, 1, what);
}
