import { describe, expect, it } from 'vitest';
import { jsonText, timestampParsers } from '../../../src/io/format/parquet-json.js';

describe('Parquet values as JSON text (what a JSONL output record carries)', () => {
  it('64-bit integers as their digits, never through a double', () => {
    expect(jsonText(90071992547409930n)).toBe('90071992547409930');
    expect(jsonText(-9223372036854775808n)).toBe('-9223372036854775808');
    expect(jsonText(18446744073709551615n)).toBe('18446744073709551615');
  });

  it('doubles as the shortest text that reads back the same; -0 kept; NaN and the infinities as strings', () => {
    expect(jsonText(0.1)).toBe('0.1');
    expect(jsonText(Math.fround(0.1))).toBe('0.10000000149011612');
    expect(jsonText(-0)).toBe('-0');
    expect(jsonText(1e300)).toBe('1e+300');
    expect(JSON.parse(jsonText(1e300))).toBe(1e300);
    expect([NaN, Infinity, -Infinity].map(jsonText)).toEqual(['"NaN"', '"Infinity"', '"-Infinity"']);
  });

  it('strings, booleans, nulls, dates, bytes, lists and structs', () => {
    expect(jsonText('a"\u00e9')).toBe('"a\\"é"');
    expect(jsonText(true)).toBe('true');
    expect(jsonText(null)).toBe('null');
    expect(jsonText(undefined)).toBe('null');
    expect(jsonText(new Date(Date.UTC(2024, 1, 29)))).toBe('"2024-02-29T00:00:00.000Z"');
    expect(jsonText(new Uint8Array([0, 255, 1]))).toBe('"AP8B"');
    expect(jsonText([1n, -0, 'x'])).toBe('[1,-0,"x"]');
    expect(jsonText(new BigInt64Array([2n ** 62n]))).toBe('[4611686018427387904]');
    expect(jsonText({ a: { b: [9007199254740993n] } })).toBe('{"a":{"b":[9007199254740993]}}');
  });

  it('timestamps keep all their unit digits, before 1970 too', () => {
    expect(timestampParsers.timestampFromMicroseconds(1_700_000_000_123_456n)).toBe('2023-11-14T22:13:20.123456Z');
    expect(timestampParsers.timestampFromNanoseconds(1_700_000_000_123_456_789n)).toBe('2023-11-14T22:13:20.123456789Z');
    expect(timestampParsers.timestampFromMilliseconds(-1n)).toBe('1969-12-31T23:59:59.999Z');
    expect(timestampParsers.timestampFromMicroseconds(undefined as unknown as bigint)).toBeUndefined();
    expect(timestampParsers.timestampFromMilliseconds(10n ** 18n)).toBe('1000000000000000000');
  });
});
