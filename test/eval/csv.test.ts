import { describe, expect, it } from 'vitest';
import { csvRecords } from '../../src/eval/csv.js';

async function* from(lines: string[]): AsyncIterable<string> {
  yield* lines;
}
async function all(lines: string[]): Promise<string[][]> {
  const out: string[][] = [];
  for await (const r of csvRecords(from(lines))) out.push(r);
  return out;
}

describe('csvRecords', () => {
  it('keeps a comma inside quotes in one field', async () => {
    expect(await all(['a,b', '1,"x, y"'])).toEqual([['a', 'b'], ['1', 'x, y']]);
  });
  it('turns a doubled quote into one quote', async () => {
    expect(await all(['"he said ""hi"""'])).toEqual([['he said "hi"']]);
  });
  it('joins a quoted field that spans lines with a newline', async () => {
    expect(await all(['1,"first', 'second",3'])).toEqual([['1', 'first\nsecond', '3']]);
  });
  it('skips empty lines between records', async () => {
    expect(await all(['a', '', 'b'])).toEqual([['a'], ['b']]);
  });
  it('yields an unterminated quoted field at end of input', async () => {
    expect(await all(['1,"open'])).toEqual([['1', 'open']]);
  });
});
