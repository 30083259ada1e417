/** Typed arrays <-> base64, so model files stay compact JSON (little-endian, as Node runs on). */
export function f32ToB64(a: Float32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToF32(s: string): Float32Array {
  const b = Buffer.from(s, 'base64');
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}
export function f64ToB64(a: Float64Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToF64(s: string): Float64Array {
  const b = Buffer.from(s, 'base64');
  const out = new Float64Array(b.byteLength / 8);
  new Uint8Array(out.buffer).set(b);
  return out;
}
export function i32ToB64(a: Int32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}
export function b64ToI32(s: string): Int32Array {
  const b = Buffer.from(s, 'base64');
  const out = new Int32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}
