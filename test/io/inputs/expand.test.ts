import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandInputs } from '../../../src/io/inputs/expand.js';
import { globToRegExp } from '../../../src/io/inputs/glob.js';
import { testDir } from '../../helpers/temp.js';

function tree(files: string[]): string {
  const root = testDir('tadpole-expand-');
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), 'x\n');
  }
  return root;
}

describe('expandInputs', () => {
  it('a folder: corpus files under it, recursive, sorted by path, others and hidden ones left out', () => {
    const root = tree(['b/2.jsonl.zst', 'a.jsonl', 'b/1.txt.gz', 'b/c/0.parquet', 'README.md', '.cache/x.jsonl', 'b/notes.md', 'b/rows.csv', 'b/rows.tsv.gz', 'B.ndjson']);
    expect(expandInputs([root]).map((f) => f.slice(root.length + 1))).toEqual(['B.ndjson', 'a.jsonl', 'b/1.txt.gz', 'b/2.jsonl.zst', 'b/c/0.parquet', 'b/rows.csv', 'b/rows.tsv.gz']);
  });

  it('files and stdin pass through in the order given; folders expand in place', () => {
    const root = tree(['d/x.jsonl', 'd/y.jsonl', 'z.txt']);
    expect(expandInputs([join(root, 'z.txt'), '-', join(root, 'd')])).toEqual([join(root, 'z.txt'), '-', join(root, 'd', 'x.jsonl'), join(root, 'd', 'y.jsonl')]);
  });

  it('a quoted glob: the files it matches, sorted', () => {
    const root = tree(['s/part-2.jsonl.zst', 's/part-10.jsonl.zst', 's/part-1.jsonl.gz', 's/deep/part-3.jsonl.zst']);
    expect(expandInputs([join(root, 's', '*.jsonl.zst')])).toEqual([join(root, 's', 'part-10.jsonl.zst'), join(root, 's', 'part-2.jsonl.zst')]);
    expect(expandInputs([join(root, 's', '**', 'part-?.jsonl.*')])).toHaveLength(3);
  });

  it('an empty folder and a glob that matches nothing are refused', () => {
    const root = tree(['only.md']);
    expect(() => expandInputs([root])).toThrow(/no corpus files in this folder/);
    expect(() => expandInputs([join(root, '*.jsonl')])).toThrow(/no file matches this pattern/);
  });
});

describe('globToRegExp', () => {
  it('* and ? stay in a segment, ** spans segments, [..] is a class', () => {
    expect(globToRegExp('a/*.jsonl').test('a/x.jsonl')).toBe(true);
    expect(globToRegExp('a/*.jsonl').test('a/b/x.jsonl')).toBe(false);
    expect(globToRegExp('a/**/x.jsonl').test('a/x.jsonl')).toBe(true);
    expect(globToRegExp('a/**/x.jsonl').test('a/b/c/x.jsonl')).toBe(true);
    expect(globToRegExp('p-[0-9].txt').test('p-7.txt')).toBe(true);
    expect(globToRegExp('p-[!0-9].txt').test('p-7.txt')).toBe(false);
    expect(globToRegExp('a+b.txt').test('a+b.txt')).toBe(true);
  });
});
