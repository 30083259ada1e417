/**
 * Parquet values as the JSON text a JSONL output record carries, exact where JSON can hold
 * the value: 64-bit integers as their decimal digits (a BigInt never passes through a
 * double), doubles as the shortest text that reads back as the same double (`-0` kept), NaN
 * and the infinities, which JSON has no number for, as the strings "NaN", "Infinity",
 * "-Infinity". Timestamps keep their unit's digits (see timestampParsers).
 */
export function jsonText(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : JSON.stringify(String(v));
  if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'null' : JSON.stringify(v.toISOString());
  if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64'));
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `[${Array.from(v as ArrayLike<unknown>, jsonText).join(',')}]`;
  if (typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`).join(',')}}`;
  return 'null';
}

/**
 * hyparquet's timestamp parsers, writing ISO 8601 strings with all of their unit's digits
 * (its own make a Date, which drops what is finer than a millisecond). A timestamp outside
 * what an ISO date can write stays its integer count of units.
 */
export const timestampParsers = {
  timestampFromMilliseconds: (n: bigint): unknown => isoOf(n, 1000n, 3),
  timestampFromMicroseconds: (n: bigint): unknown => isoOf(n, 1_000_000n, 6),
  timestampFromNanoseconds: (n: bigint): unknown => isoOf(n, 1_000_000_000n, 9),
};

function isoOf(units: bigint, perSecond: bigint, digits: number): unknown {
  // A null of an optional column.
  if (typeof units !== 'bigint') return units;
  let seconds = units / perSecond;
  let fraction = units % perSecond;
  if (fraction < 0n) {
    fraction += perSecond;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return units.toString();
  return `${date.toISOString().slice(0, -5)}.${fraction.toString().padStart(digits, '0')}Z`;
}
