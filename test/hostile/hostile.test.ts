import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { TadpoleError } from '../../src/core/errors.js';
import { DEFAULT_READER, ReadCounters, readDocuments, type Doc, type ReaderOptions } from '../../src/io/documents.js';
import { Sink } from '../../src/io/sink.js';
import { readModel } from '../../src/model/file.js';
import { openScorer } from '../../src/model/open.js';
import { runFilter } from '../../src/commands/filter.js';
import type { SentenceScorer } from '../../src/select/selector.js';
import { BIN, cli, fitModel, newsJsonl, tempDir } from '../run/helpers.js';

let dir: string;
let model: string;

beforeAll(() => {
  dir = tempDir('tadpole-hostile-');
  model = fitModel(dir);
});

async function read(name: string, bytes: Buffer, opts: Partial<ReaderOptions> = {}): Promise<{ docs: Doc[]; c: ReadCounters }> {
  const f = join(dir, name);
  writeFileSync(f, bytes);
  const c = new ReadCounters();
  const docs: Doc[] = [];
  for await (const b of readDocuments([f], { ...DEFAULT_READER, ...opts }, { counters: c })) docs.push(...b);
  return { docs, c };
}

describe('hostile input: reader outcomes', () => {
  it('invalid UTF-8 in text: replaced with U+FFFD, counted, kept', async () => {
    const { docs, c } = await read('bad-utf8.txt', Buffer.concat([Buffer.from('Hi there, caf'), Buffer.from([0xe9, 0xff]), Buffer.from(' is open.\n')]));
    expect(docs).toHaveLength(1);
    expect(docs[0]!.text).toBe('Hi there, caf\uFFFD\uFFFD is open.');
    expect(c.invalidUtf8Docs).toBe(1);
  });

  it('a stray NUL byte in text: kept as a character of the text', async () => {
    const { docs } = await read('nul.txt', Buffer.from('A sentence with a\0stray NUL. Then another sentence.\n'));
    expect(docs[0]!.text).toBe('A sentence with a\0stray NUL. Then another sentence.');
  });

  it('CRLF: CR-only lines separate paragraphs; lone CR is not a line break', async () => {
    const { docs, c } = await read('crlf.txt', Buffer.from('One.\r\nTwo.\r\n\r\nThree.\rStill three.\r\n'));
    expect(docs.map((d) => d.text)).toEqual(['One.\r\nTwo.\r', 'Three.\rStill three.\r']);
    expect(c.lines).toBe(4);
  });

  it('BOM: stripped once at the start of a file and counted', async () => {
    const { docs, c } = await read('bom.jsonl', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"A."}\n')]));
    expect(docs[0]!.text).toBe('A.');
    expect(c.bomsStripped).toBe(1);
  });

  it('whitespace-only documents: skipped and counted', async () => {
    const { docs, c } = await read('ws.txt', Buffer.from('A.\n\n \t \n\f\n\nB.\n'), { docPerLine: true });
    expect(docs.map((d) => d.text)).toEqual(['A.', 'B.']);
    expect(c.emptyDocs).toBe(2);
  });

  it('JSONL lines that are not objects, lack the field or hold a non-string: skipped and counted', async () => {
    const lines = ['[1,2]', '"str"', 'null', '{"other": "x"}', '{"text": 5}', '{not json', '{"text": "Good."}'].join('\n') + '\n';
    const { docs, c } = await read('bad.jsonl', Buffer.from(lines));
    expect(docs.map((d) => d.text)).toEqual(['Good.']);
    expect(c.badJsonLines).toBe(4);
    expect(c.missingFieldLines).toBe(2);
    expect(c.warnings[0]).toMatch(/bad\.jsonl:1: skipped: not a JSON object/);
  });

  it('--strict: the first bad JSONL line is an error naming file and line', async () => {
    await expect(read('strict.jsonl', Buffer.from('{"text":"A."}\n{"text": 5}\n'), { strict: true })).rejects.toThrow(/strict\.jsonl:2: bad JSONL record/);
  });

  it('concatenated gzip members: read as one stream, as gzip(1) does', async () => {
    const { docs } = await read('two.jsonl.gz', Buffer.concat([gzipSync('{"text":"A."}\n'), gzipSync('{"text":"B."}\n')]));
    expect(docs.map((d) => d.text)).toEqual(['A.', 'B.']);
  });

  it('empty file: no documents, no error', async () => {
    const { docs, c } = await read('empty.txt', Buffer.alloc(0));
    expect(docs).toEqual([]);
    expect(c.lines).toBe(0);
  });

  it('a line over --max-doc-bytes: skipped and counted without being held', async () => {
    const { docs, c } = await read('long-small.txt', Buffer.from('x'.repeat(5000) + '\nShort.\n'), { maxDocBytes: 1000, docPerLine: true });
    expect(docs.map((d) => d.text)).toEqual(['Short.']);
    expect(c.oversizedDocs).toBe(1);
  });
});

describe('hostile input: whole runs', () => {
  it('truncated gzip: exit 3 naming the file, no output file left', () => {
    const gz = gzipSync(newsJsonl(200_000));
    const f = join(dir, 'trunc.jsonl.gz');
    writeFileSync(f, gz.subarray(0, gz.length - 5000));
    const outDir = join(dir, 'trunc-out');
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir);
    const r = cli(['filter', '-q', '-m', model, f, '-o', join(outDir, 'kept.jsonl')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/trunc\.jsonl\.gz: gzip data is damaged or truncated/);
    expect(readdirSync(outDir)).toEqual([]);
  });

  it('a 64 MB line with no newline: skipped and counted, peak RSS bounded; a 1 MB unpunctuated sentence is scored', () => {
    const words = ['alpha ', 'beta ', 'gamma ', 'delta ', 'tumour ', 'market '];
    const piece = Buffer.from(Array.from({ length: 20000 }, (_, i) => words[(i * 7) % words.length]).join(''));
    const big = join(dir, 'long.txt');
    writeFileSync(big, Buffer.alloc(0));
    while (statSync(big).size < 64_000_000) appendFileSync(big, piece);
    const oneMb = join(dir, 'sentence-1mb.txt');
    writeFileSync(oneMb, Buffer.concat(Array.from({ length: 9 }, () => piece)).subarray(0, 1_000_000));
    const preload = join(dir, 'rss.mjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`maxrss_kb=${process.resourceUsage().maxRSS}\\n`));\n");
    const run = (file: string) => {
      const stats = join(dir, 'rss-stats.json');
      const r = spawnSync(process.execPath, ['--import', preload, BIN, 'filter', '-q', '-m', model, file, '--stats', stats], { maxBuffer: 1 << 26 });
      const rss = Number(/maxrss_kb=(\d+)/.exec(r.stderr.toString())?.[1]);
      return { code: r.status, rssMb: rss / 1024, stats: JSON.parse(readFileSync(stats, 'utf8')) as { reader: Record<string, number>; sentences: { total: number } } };
    };
    const long = run(big);
    const sentence = run(oneMb);
    console.log(`peak RSS: 64 MB line (default --max-doc-bytes) ${long.rssMb.toFixed(0)} MB; 1 MB sentence ${sentence.rssMb.toFixed(0)} MB`);
    expect(long.code).toBe(0);
    expect(long.stats.reader.oversizedDocs).toBe(1);
    expect(long.rssMb).toBeLessThan(400);
    expect(sentence.code).toBe(0);
    expect(sentence.stats.sentences.total).toBeGreaterThanOrEqual(1);
    expect(sentence.rssMb).toBeLessThan(400);
    rmSync(big);
  });
});

describe('hostile input: a file that changes between passes', () => {
  /** A scorer that runs `mutate` once, on its first batch (i.e. during pass 1). */
  async function mutatingScorer(mutate: () => void): Promise<SentenceScorer> {
    const inner = await openScorer(readModel(model));
    let done = false;
    return {
      method: inner.method,
      score: (s) => {
        if (!done) {
          done = true;
          mutate();
        }
        return inner.score(s);
      },
      dispose: () => inner.dispose(),
    };
  }

  it.each([
    ['grows', (f: string) => appendFileSync(f, '{"text": "Appended while filtering. It changes pass 2."}\n'), 'TADPOLE_INPUT_CHANGED', /changed size/],
    ['disappears', (f: string) => rmSync(f), 'TADPOLE_INPUT', /cannot read input \(ENOENT\)/],
  ] as const)('a file that %s during pass 1: refused with a clear error, no output file left', async (_what, mutate, code, msg) => {
    const f = join(dir, `changing-${_what}.jsonl`);
    writeFileSync(f, newsJsonl(80_000));
    const out = join(dir, `changing-${_what}-out`);
    mkdirSync(out, { recursive: true });
    const scorer = await mutatingScorer(() => mutate(f));
    const err = await runFilter({ inputs: [f], reader: DEFAULT_READER, model: readModel(model), keep: 0.2, segment: 15, keepBy: 'sentences', sink: Sink.toFile(join(out, 'kept.jsonl')), scorer, batchSentences: 50 }).catch((e: unknown) => e);
    await scorer.dispose();
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).code).toBe(code);
    expect((err as Error).message).toMatch(msg);
    expect(readdirSync(out)).toEqual([]);
    expect(existsSync(join(out, 'kept.jsonl'))).toBe(false);
  });

  it('two lines swapped in the middle (same size, same first and last 64 KiB): caught by pass 2 per document', async () => {
    const f = join(dir, 'changing-swapped.jsonl');
    writeFileSync(f, newsJsonl(400_000));
    const swap = () => {
      const lines = readFileSync(f, 'utf8').split('\n');
      let m = Math.floor(lines.length / 2);
      while (lines[m]!.length === lines[m + 1]!.length) m++;
      [lines[m], lines[m + 1]] = [lines[m + 1]!, lines[m]!];
      writeFileSync(f, lines.join('\n'));
    };
    const size = statSync(f).size;
    const scorer = await mutatingScorer(swap);
    const err = await runFilter({ inputs: [f], reader: DEFAULT_READER, model: readModel(model), keep: 0.2, segment: 15, keepBy: 'sentences', sink: Sink.toFile(join(dir, 'swapped-kept.jsonl')), scorer, batchSentences: 50 }).catch((e: unknown) => e);
    await scorer.dispose();
    expect(statSync(f).size).toBe(size);
    expect(size).toBeGreaterThan(3 * 65536);
    expect((err as TadpoleError).code).toBe('TADPOLE_INPUT_CHANGED');
    expect((err as Error).message).toMatch(/changing-swapped\.jsonl:\d+: the input changed between passes \(a document differs from pass 1\)/);
    expect(existsSync(join(dir, 'swapped-kept.jsonl'))).toBe(false);
  });
});
