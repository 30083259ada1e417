import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli.js';
import { fitModel, newsJsonl, tempDir } from '../run/helpers.js';

/** Inputs that are not a corpus: each is refused with exit 3, one line naming the file, and no output file. */

let dir: string;
let model: string;
let news: Buffer;

beforeAll(() => {
  dir = tempDir('tadpole-formats-');
  model = fitModel(dir);
  news = newsJsonl(60_000);
});

/** Pseudo-random bytes (a fixed LCG: the test is the same on every run). */
function noise(n: number, seed = 7): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

function utf32le(s: string): Buffer {
  const cps = [0xfeff, ...Array.from(s, (c) => c.codePointAt(0) as number)];
  const b = Buffer.alloc(cps.length * 4);
  cps.forEach((cp, i) => b.writeUInt32LE(cp, i * 4));
  return b;
}

async function refusedRun(name: string, inputs: string[], extra: string[] = []): Promise<{ code: number | null; stderr: string; left: string[] }> {
  const out = join(dir, `out-${name}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  const r = await runMain(['filter', '-q', '-m', model, ...inputs, '-o', join(out, 'kept.jsonl'), ...extra]);
  return { code: r.code, stderr: r.stderr, left: readdirSync(out) };
}

describe('hostile input: what cannot be a corpus is refused (exit 3, one line, no output file)', () => {
  const cases: Array<[string, string, () => Buffer, RegExp]> = [
    // Magic bytes decide, never the name: each file is named as if it were plain JSONL.
    ['bzip2', 'bz.jsonl', () => Buffer.concat([Buffer.from('BZh91AY&SY'), noise(4000)]), /bz\.jsonl: bzip2-compressed, which tadpole does not read; recompress it as zstd/],
    ['damaged xz', 'xz.jsonl', () => Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), noise(4000)]), /xz\.jsonl: xz data is damaged or truncated/],
    ['lz4', 'lz.jsonl', () => Buffer.concat([Buffer.from([0x04, 0x22, 0x4d, 0x18]), noise(4000)]), /lz\.jsonl: lz4-compressed/],
    ['zip', 'z.jsonl', () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), deflateRawSync(news)]), /z\.jsonl: a zip archive/],
    ['binary', 'random.txt', () => noise(100_000), /random\.txt: binary data, not text \(judged on its first 64 KiB\)/],
    ['binary inside gzip', 'random.txt.gz', () => gzipSync(noise(100_000)), /random\.txt\.gz \(inside gzip\): binary data/],
    ['UTF-32', 'wide.jsonl', () => utf32le(news.toString('utf8')), /wide\.jsonl: UTF-32 text \(byte-order mark\).*iconv/],
    ['JSONL with no record holding the text field', 'body.jsonl', () => Buffer.from(news.toString('utf8').replace(/"text":/g, '"body":')), /body\.jsonl: no record has a string "text" field \(its records have: .*body.*\); name the text field with --text-field NAME/],
  ];

  it.each(cases)('%s', async (_what, name, bytes, message) => {
    writeFileSync(join(dir, name), bytes());
    const r = await refusedRun(name, [join(dir, name)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.left).toEqual([]);
  });

  it('Parquet on stdin: refused (its index is at the end of the file)', async () => {
    const r = await runMain(['filter', '-q', '-m', model, '--format', 'jsonl'], { input: Buffer.concat([Buffer.from('PAR1'), noise(3000), Buffer.from('PAR1')]) });
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/^tadpole filter: error: <stdin>: Parquet is read from a file path/);
  });

  it('a folder with no corpus files: refused naming the folder', async () => {
    const empty = join(dir, 'no-corpus');
    mkdirSync(join(empty, 'sub'), { recursive: true });
    writeFileSync(join(empty, 'sub', 'notes.md'), '# not a corpus\n');
    const r = await refusedRun('empty-folder', [empty]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/no-corpus: no corpus files in this folder/);
    expect(r.left).toEqual([]);
  });

  it('a glob that matches nothing: refused naming the pattern', async () => {
    const r = await refusedRun('no-match', [join(dir, 'nothing-here', '*.jsonl.zst')]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/nothing-here\/\*\.jsonl\.zst: no file matches this pattern/);
  });
});

describe('hostile input: decoded, not refused', () => {
  it('UTF-16 JSONL with a BOM (LE and BE): decoded, the same kept text as the UTF-8 file', async () => {
    const utf8 = join(dir, 'plain.jsonl');
    writeFileSync(utf8, news);
    const le = join(dir, 'le.jsonl');
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(news.toString('utf8'), 'utf16le')]));
    const be = join(dir, 'be.jsonl');
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(news.toString('utf8'), 'utf16le').swap16()]));
    const want = await runMain(['filter', '-q', '-m', model, utf8]);
    expect(want.code).toBe(0);
    expect(want.stdout.length).toBeGreaterThan(1000);
    for (const f of [le, be]) {
      const got = await runMain(['filter', '-q', '-m', model, f]);
      expect(got.code).toBe(0);
      expect(got.stdout.toString('utf8')).toBe(want.stdout.toString('utf8'));
    }
  });

  it('xz (made by the xz CLI, committed fixture): decoded, the same kept text as the plain file', async () => {
    const fix = join(import.meta.dirname, '..', 'fixtures', 'formats');
    const want = await runMain(['filter', '-q', '-m', model, join(fix, 'corpus.jsonl')]);
    const got = await runMain(['filter', '-q', '-m', model, join(fix, 'corpus.jsonl.xz')]);
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
    expect(got.stdout.equals(want.stdout)).toBe(true);
  });

  it('a task of under 50 sentences: fitted, with a warning', async () => {
    const task = join(dir, 'small-task.txt');
    const text = (JSON.parse(news.toString('utf8').split('\n')[0] as string) as { text: string }).text;
    writeFileSync(task, text.split(/(?<=\.) /).slice(0, 20).join(' ') + '\n');
    const r = await runMain(['fit', '--task', task, '-o', join(dir, 'small-model.json')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: the task has only \d+ sentences \(under 50\)/);
  });
});
