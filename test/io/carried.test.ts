import { describe, expect, it } from 'vitest';
import { carriedFromColumns, carriedFromLine, carryKeys, recordText } from '../../src/io/carried.js';

const fromLine = (line: string, textField = 'text') => {
  const buf = Buffer.from(line);
  return carriedFromLine(buf, 0, buf.length, carryKeys(textField));
};

describe('carried fields: what a JSONL output record holds besides the kept text', () => {
  it('a JSONL line: members before and after the text as written, the text key as written', () => {
    const c = fromLine('{"id": 90071992547409930 ,"n":1e400,"text":"a b","z":-0.0,"s":"\\u00e9\\/"}');
    expect(c).toEqual({ before: '"id":90071992547409930,"n":1e400', textKey: '"text"', after: '"z":-0.0,"s":"\\u00e9\\/"' });
    expect(recordText(c!, 'a', '{"doc":0}')).toBe('{"id":90071992547409930,"n":1e400,"text":"a","z":-0.0,"s":"\\u00e9\\/","tadpole":{"doc":0}}');
  });

  it('the text is the last member with its key (as JSON.parse reads it); an escaped key is the same key', () => {
    const c = fromLine('{"text":"first","k":1,"t\\u0065xt":"second","k":2}');
    expect(c).toEqual({ before: '"text":"first","k":1', textKey: '"t\\u0065xt"', after: '"k":2' });
  });

  it('an input "tadpole" member is left out: the output writes its own', () => {
    expect(fromLine('{"tadpole":{"doc":9},"text":"x","tad\\u0070ole":1,"tadpoles":2}')).toEqual({ before: '', textKey: '"text"', after: '"tadpoles":2' });
  });

  it('another --text-field; a record of the text alone', () => {
    expect(fromLine('{"text":"not this","body":"this"}', 'body')).toEqual({ before: '"text":"not this"', textKey: '"body"', after: '' });
    const alone = fromLine('{"text":"x"}')!;
    expect(recordText(alone, 'x', '{}')).toBe('{"text":"x","tadpole":{}}');
  });

  it('a line that is not an object, or has no text field: undefined (the writer falls back)', () => {
    expect(fromLine('{"text":1')).toBeUndefined();
    expect(fromLine('{"body":"x"}')).toBeUndefined();
  });

  it('columns (CSV, Parquet): names and values as given, duplicates kept, the text value never asked for', () => {
    const names = ['id', 'text', 'id', 'tadpole', 'x'];
    const asked: number[] = [];
    const c = carriedFromColumns(names, names.map((n) => JSON.stringify(n)), (k) => (asked.push(k), JSON.stringify(`v${k}`)), 1);
    expect(c).toEqual({ before: '"id":"v0"', textKey: '"text"', after: '"id":"v2","x":"v4"' });
    expect(asked).toEqual([0, 2, 4]);
  });
});
