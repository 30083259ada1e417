import { describe, expect, it } from 'vitest';
import { jsonMembers } from '../../../src/io/format/json-members.js';

/** The members of a line as [key, value] texts, the spans jsonMembers found cut out of it. */
function members(line: string, buf = Buffer.from(line)): Array<[string, string]> | undefined {
  const m = jsonMembers(buf, 0, buf.length);
  if (m === undefined) return undefined;
  const out: Array<[string, string]> = [];
  for (let i = 0; i < m.length; i += 4) out.push([buf.toString('utf8', m[i], m[i + 1]), buf.toString('utf8', m[i + 2], m[i + 3])]);
  return out;
}

describe('jsonMembers: the top-level key/value spans of a one-line JSON object', () => {
  it('gives every member as written, in order, duplicates included', () => {
    expect(members('{"id":90071992547409930,"n":1e400,"z":-0.0,"one":1.0,"k":1,"k":2}')).toEqual([
      ['"id"', '90071992547409930'],
      ['"n"', '1e400'],
      ['"z"', '-0.0'],
      ['"one"', '1.0'],
      ['"k"', '1'],
      ['"k"', '2'],
    ]);
  });

  it('skips strings that hold braces, brackets, commas, colons, quotes and backslashes', () => {
    const line = String.raw`{"a":"}]{[,:","b":"say \"hi\"","c":"ends in \\","d\"k":"\\\"","e":"\u00e9\/"}`;
    expect(members(line)).toEqual([
      ['"a"', '"}]{[,:"'],
      ['"b"', String.raw`"say \"hi\""`],
      ['"c"', String.raw`"ends in \\"`],
      [String.raw`"d\"k"`, String.raw`"\\\""`],
      ['"e"', String.raw`"\u00e9\/"`],
    ]);
  });

  it('takes nested objects and arrays whole, whatever their strings hold', () => {
    expect(members('{"o":{"a":[1,{"b":"}"}],"c":"]"},"arr":[[],{},"[", 2 ],"t":true,"f":false,"x":null}')).toEqual([
      ['"o"', '{"a":[1,{"b":"}"}],"c":"]"}'],
      ['"arr"', '[[],{},"[", 2 ]'],
      ['"t"', 'true'],
      ['"f"', 'false'],
      ['"x"', 'null'],
    ]);
  });

  it('allows JSON whitespace around every token, a BOM, a CR at the end; spans hold none of it', () => {
    expect(members('\uFEFF \t{ "a" :\t1 , "b"\t: [ 1 , 2 ] }\r')).toEqual([
      ['"a"', '1'],
      ['"b"', '[ 1 , 2 ]'],
    ]);
    expect(members('{}')).toEqual([]);
    expect(members(' { } ')).toEqual([]);
  });

  it('works on a line inside a larger buffer, with byte offsets past multi-byte UTF-8', () => {
    const buf = Buffer.from('{"x":"é"}\n{"ü":"日本","n":2}\n{"y":1}');
    const from = buf.indexOf('\n') + 1;
    const to = buf.indexOf('\n', from);
    const m = jsonMembers(buf, from, to)!;
    expect(buf.toString('utf8', m[0], m[3])).toBe('"ü":"日本"');
    expect(buf.toString('utf8', m[4], m[7])).toBe('"n":2');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['an array', '[1,2]'],
    ['a string', '"text"'],
    ['a number', '42'],
    ['an unclosed object', '{"a":1'],
    ['an unclosed string', '{"a":"b}'],
    ['an unclosed nested value', '{"a":[1,{"b":2}}'],
    ['mismatched brackets', '{"a":[1}]}'],
    ['a trailing comma', '{"a":1,}'],
    ['a missing colon', '{"a" 1}'],
    ['a missing value', '{"a":}'],
    ['an unquoted key', '{a:1}'],
    ['two values', '{"a":1 2}'],
    ['trailing bytes', '{"a":1} x'],
    ['two objects', '{"a":1}{"b":2}'],
    ['a quote escaped to the end', String.raw`{"a":"b\"}`],
  ])('answers undefined for %s', (_what, line) => {
    expect(members(line)).toBeUndefined();
  });

  it('stops at `to`: a string closed only after it is unclosed', () => {
    const buf = Buffer.from('{"a":"b\n"}');
    expect(jsonMembers(buf, 0, buf.indexOf('\n'))).toBeUndefined();
  });
});
