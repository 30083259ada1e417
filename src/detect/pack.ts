/**
 * The 16-bit encoders the detectors use, plus checked reads of a detector's JSON state (a
 * damaged model file fails with TADPOLE_MODEL, naming the field).
 */
import { TadpoleError } from '../core/errors.js';
import { b64ToBytes, b64ToF32, b64ToF64, b64ToI16, b64ToI32, b64ToU16, declaredCount } from '../core/b64.js';

export function i16ToB64(a: Int16Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function u16ToB64(a: Uint16Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
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
  f32(key: string, length?: number): Float32Array {
    return b64ToF32(this.obj[key], this.field(key), length);
  }
  f64(key: string, length?: number): Float64Array {
    return b64ToF64(this.obj[key], this.field(key), length);
  }
  i32(key: string, length?: number): Int32Array {
    return b64ToI32(this.obj[key], this.field(key), length);
  }
  i16(key: string, length?: number): Int16Array {
    return b64ToI16(this.obj[key], this.field(key), length);
  }
  u16(key: string, length?: number): Uint16Array {
    return b64ToU16(this.obj[key], this.field(key), length);
  }
  /** A declared size: a positive whole number. */
  count(key: string): number {
    return declaredCount(this.obj[key], this.field(key));
  }
  bytes(key: string): Buffer {
    return b64ToBytes(this.obj[key], this.field(key));
  }
  private field(key: string): string {
    return `detector ${this.detector} "${key}"`;
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
