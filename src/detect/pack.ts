/**
 * Typed arrays <-> base64 for the widths src/core/b64.ts does not cover, plus checked reads
 * of a detector's JSON state (a damaged model file fails with TADPOLE_MODEL, naming the field).
 */
import { TadpoleError } from '../core/errors.js';
import { b64ToF32, b64ToF64, b64ToI32 } from '../core/b64.js';

export function i16ToB64(a: Int16Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToI16(s: string): Int16Array {
  const b = Buffer.from(s, 'base64');
  const out = new Int16Array(b.byteLength / 2);
  new Uint8Array(out.buffer).set(b);
  return out;
}
export function u16ToB64(a: Uint16Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToU16(s: string): Uint16Array {
  const b = Buffer.from(s, 'base64');
  const out = new Uint16Array(b.byteLength / 2);
  new Uint8Array(out.buffer).set(b);
  return out;
}

function bad(detector: string, what: string): TadpoleError {
  return new TadpoleError('TADPOLE_MODEL', `model file: detector ${detector} has a missing or invalid "${what}"; refit the model`);
}

export class StateReader {
  constructor(
    private readonly detector: string,
    private readonly obj: Record<string, unknown>,
  ) {}
  num(key: string): number {
    const v = this.obj[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(this.detector, key);
    return v;
  }
  str(key: string): string {
    const v = this.obj[key];
    if (typeof v !== 'string') throw bad(this.detector, key);
    return v;
  }
  f32(key: string, length?: number): Float32Array {
    const a = b64ToF32(this.str(key));
    if (length !== undefined && a.length !== length) throw bad(this.detector, key);
    return a;
  }
  f64(key: string, length?: number): Float64Array {
    const a = b64ToF64(this.str(key));
    if (length !== undefined && a.length !== length) throw bad(this.detector, key);
    return a;
  }
  i32(key: string, length?: number): Int32Array {
    const a = b64ToI32(this.str(key));
    if (length !== undefined && a.length !== length) throw bad(this.detector, key);
    return a;
  }
  i16(key: string, length?: number): Int16Array {
    const a = b64ToI16(this.str(key));
    if (length !== undefined && a.length !== length) throw bad(this.detector, key);
    return a;
  }
  u16(key: string, length?: number): Uint16Array {
    const a = b64ToU16(this.str(key));
    if (length !== undefined && a.length !== length) throw bad(this.detector, key);
    return a;
  }
}

/** Throws TADPOLE_USAGE-free internal check used by score(): the detector must be fitted and dims must match. */
export function checkScoreInput(detector: string, fittedDims: number, X: Float32Array, n: number): void {
  if (fittedDims <= 0) throw new TadpoleError('TADPOLE_RUN', `detector ${detector}: score() called before fit()`);
  if (X.length < n * fittedDims) {
    throw new TadpoleError('TADPOLE_INPUT', `detector ${detector}: expected ${n} rows of ${fittedDims} dims (${n * fittedDims} values), got ${X.length}`);
  }
}

export function checkFitInput(detector: string, X: Float32Array, n: number, dims: number, minRows = 1): void {
  if (!Number.isInteger(dims) || dims <= 0) throw new TadpoleError('TADPOLE_INPUT', `detector ${detector}: dims must be a positive integer, got ${dims}`);
  if (n < minRows) throw new TadpoleError('TADPOLE_INPUT', `detector ${detector}: needs at least ${minRows} rows to fit, got ${n}`);
  if (X.length < n * dims) throw new TadpoleError('TADPOLE_INPUT', `detector ${detector}: expected ${n}x${dims} values, got ${X.length}`);
}
