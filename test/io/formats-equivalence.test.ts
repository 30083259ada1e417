import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedPath } from '../../src/core/shared.js';
import { runMain } from '../helpers/cli.js';
import { cli, fitModel, tempDir } from '../run/helpers.js';

/**
 * One corpus in every form tadpole reads (made by scripts/make-format-fixtures.mjs:
 * Parquet written by DuckDB): each gives the same kept text, the same records.
 */
const FIX = join(import.meta.dirname, '..', 'fixtures', 'formats');
const zstdDecompressSync = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;

/** The rows of sentences.parquet, as scripts/make-format-fixtures.mjs wrote them (BIGINT row numbers come back as JSON numbers). */
function sentencesJsonl(): string {
  const lines = gunzipSync(readFileSync(sharedPath('corpora', 'task-mr-sentence-polarity', 'text_train.txt.gz'))).toString('utf8').split('\n').filter(Boolean).slice(0, 4500);
  return lines.map((text, row) => JSON.stringify({ row, text }) + '\n').join('');
}

/** A CSV/TSV cell as pandas and Python's csv module write one: quoted when it holds the delimiter, a quote or a line break. */
function cell(value: string, delimiter: string): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** corpus.jsonl as delimited text (its records all have the same string fields, in the same order). */
function delimitedCorpus(delimiter: string, eol: string): string {
  const records = readFileSync(join(FIX, 'corpus.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>);
  const columns = Object.keys(records[0]!);
  return [columns, ...records.map((r) => columns.map((c) => r[c]!))].map((row) => row.map((v) => cell(v, delimiter)).join(delimiter) + eol).join('');
}

let dir: string;
let model: string;
let reference: Buffer;

async function filter(...args: string[]): Promise<Buffer> {
  const r = await runMain(['filter', '-q', '-m', model, ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

function keptTexts(out: Buffer): string[] {
  return out.toString('utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text);
}

beforeAll(async () => {
  dir = tempDir('tadpole-formats-eq-');
  model = fitModel(dir);
  reference = await filter(join(FIX, 'corpus.jsonl'));
});

describe('the same corpus in every format: the same kept text', () => {
  it('the reference keeps some but not all of the corpus', () => {
    const kept = keptTexts(reference);
    expect(kept.length).toBeGreaterThan(3);
    expect(reference.length).toBeLessThan(readFileSync(join(FIX, 'corpus.jsonl')).length * 0.6);
  });

  it.each([
    ['.jsonl.zst', ['corpus.jsonl.zst']],
    ['Parquet (zstd, written by DuckDB)', ['corpus.parquet']],
    ['Parquet (snappy)', ['corpus-snappy.parquet']],
    ['a folder of mixed .jsonl / .gz / .zst shards', ['shards']],
  ])('%s', async (_what, inputs) => {
    const out = await filter(...inputs.map((f) => join(FIX, f)));
    expect(keptTexts(out)).toEqual(keptTexts(reference));
    // Carried fields and document ordinals too: the records are byte-identical.
    expect(out.toString('utf8')).toBe(reference.toString('utf8'));
  });

  it('CSV (Excel line ends), TSV and gzip CSV: the same records, every column carried', async () => {
    const csv = delimitedCorpus(',', '\r\n');
    expect(csv).toMatch(/"[^"]*\n/); // quoted fields with line breaks: the case a line reader gets wrong
    writeFileSync(join(dir, 'corpus.csv'), csv);
    writeFileSync(join(dir, 'corpus.tsv'), delimitedCorpus('\t', '\n'));
    writeFileSync(join(dir, 'corpus.csv.gz'), gzipSync(csv));
    for (const f of ['corpus.csv', 'corpus.tsv', 'corpus.csv.gz']) expect((await filter(join(dir, f))).toString('utf8')).toBe(reference.toString('utf8'));
    const piped = await runMain(['filter', '-q', '-m', model, '--format', 'csv', '-'], { input: csv });
    expect(piped.code).toBe(0);
    expect(piped.stdout.toString('utf8')).toBe(reference.toString('utf8'));
  });

  it('JSONL on stdin, in a .txt and in a gzip .txt, no --format: read as JSONL by its first bytes', async () => {
    const jsonl = readFileSync(join(FIX, 'corpus.jsonl'));
    const piped = await runMain(['filter', '-q', '-m', model, '-'], { input: jsonl });
    expect(piped.code).toBe(0);
    expect(piped.stdout.toString('utf8')).toBe(reference.toString('utf8'));
    writeFileSync(join(dir, 'corpus-jsonl.txt'), jsonl);
    writeFileSync(join(dir, 'corpus-jsonl.txt.gz'), gzipSync(jsonl));
    for (const f of ['corpus-jsonl.txt', 'corpus-jsonl.txt.gz']) expect((await filter(join(dir, f))).toString('utf8')).toBe(reference.toString('utf8'));
    // --format text still reads it as text: the JSON syntax is then the text.
    expect((await runMain(['split', '--format', 'text', join(dir, 'corpus-jsonl.txt')])).stdout.toString('utf8')).toMatch(/^\{"id":"business\/001\.txt"/);
  });

  it('CSV with --run-dir, killed mid-run and resumed (the header read again from the file start): the same output', async () => {
    const csv = join(dir, 'resume.csv');
    writeFileSync(csv, delimitedCorpus(',', '\n'));
    const runDir = join(dir, 'run-csv');
    const out = join(dir, 'resumed-csv.jsonl');
    const args = ['filter', '-q', '-m', model, '--run-dir', runDir, '--batch-sentences', '100', '--checkpoint-seconds', '0', csv, '-o', out];
    const killed = cli(args, { env: { TADPOLE_TEST_CRASH_AT: 'score:2' } });
    expect(killed.signal).toBe('SIGKILL');
    const resumed = await runMain([...args, '--resume']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference.toString('utf8'));
  });

  it('the folder is the same run as its files named one by one, and as a quoted glob', async () => {
    const files = ['shards/part-0.jsonl', 'shards/part-1.jsonl.gz', 'shards/rest/part-2.jsonl.zst'].map((f) => join(FIX, f));
    expect((await filter(...files)).equals(reference)).toBe(true);
    expect((await filter(join(FIX, 'shards', '**', 'part-*'))).equals(reference)).toBe(true);
  });

  it('a misnamed zstd file is read by its magic bytes', async () => {
    const misnamed = join(dir, 'corpus-zst.jsonl');
    copyFileSync(join(FIX, 'corpus.jsonl.zst'), misnamed);
    expect((await filter(misnamed)).equals(reference)).toBe(true);
  });

  it('-o kept.jsonl.gz writes gzip; -o kept.jsonl.zst writes zstd where Node has it, else is refused before any work', async () => {
    const gz = join(dir, 'kept.jsonl.gz');
    await filter(join(FIX, 'corpus.parquet'), '-o', gz);
    expect(gunzipSync(readFileSync(gz)).equals(reference)).toBe(true);
    const zst = join(dir, 'kept.jsonl.zst');
    const r = await runMain(['filter', '-q', '-m', model, join(FIX, 'corpus.jsonl'), '-o', zst]);
    if (zstdDecompressSync) {
      expect(r.code).toBe(0);
      expect(zstdDecompressSync(readFileSync(zst)).equals(reference)).toBe(true);
    } else {
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toMatch(/kept\.jsonl\.zst: writing zstd needs Node >= 22\.15 .*write .*kept\.jsonl\.gz or plain output instead$/);
      expect(readdirSync(dir).filter((f) => f.includes('kept.jsonl.zst'))).toEqual([]);
    }
  });

  it('Parquet with --run-dir, killed mid-run and resumed: the same output (rows are the resume offsets)', async () => {
    const runDir = join(dir, 'run-parquet');
    const out = join(dir, 'resumed.jsonl.gz');
    const args = ['filter', '-q', '-m', model, '--run-dir', runDir, '--batch-sentences', '100', '--checkpoint-seconds', '0', join(FIX, 'corpus.parquet'), '-o', out];
    const killed = cli(args, { env: { TADPOLE_TEST_CRASH_AT: 'score:2' } });
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false);
    const resumed = await runMain([...args, '--resume']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(gunzipSync(readFileSync(out)).equals(reference)).toBe(true);
  });

  async function shardedRun(name: string, inputs: string[], n: number): Promise<Buffer[]> {
    const runDir = join(dir, name);
    for (let i = 0; i < n; i++) {
      const r = await runMain(['score', '-q', '-m', model, '--run-dir', runDir, '--shard', `${i}/${n}`, ...inputs]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect((await runMain(['cut', '-q', '--run-dir', runDir, '--keep', '0.2'])).code).toBe(0);
    for (let i = 0; i < n; i++) expect((await runMain(['emit', '-q', '--run-dir', runDir, '--shard', `${i}/${n}`])).code).toBe(0);
    const parts = readdirSync(join(runDir, 'parts')).filter((f) => f.startsWith('part-')).sort();
    return parts.map((p) => readFileSync(join(runDir, 'parts', p)));
  }

  it('one Parquet file of three row groups in 3 shards (cut between row groups): the parts concatenate to the output of the same rows as JSONL', async () => {
    const jsonl = join(dir, 'sentences.jsonl');
    writeFileSync(jsonl, sentencesJsonl());
    const want = await filter(jsonl);
    const parts = await shardedRun('run-parquet-3', [join(FIX, 'sentences.parquet')], 3);
    expect(parts.filter((p) => p.length > 0)).toHaveLength(3);
    expect(Buffer.concat(parts).toString('utf8')).toBe(want.toString('utf8'));
  });

  it('Parquet and a folder of shards in 2 shards: the parts concatenate to the filter output', async () => {
    const inputs = [join(FIX, 'corpus.parquet'), join(FIX, 'shards')];
    expect(Buffer.concat((await shardedRun('run-mixed-2', inputs, 2))).equals((await filter(...inputs)))).toBe(true);
  });

  it('CSV and JSONL in 3 shards (a CSV file goes whole to one shard): the parts concatenate to the filter output', async () => {
    const csv = join(dir, 'shards.csv');
    writeFileSync(csv, delimitedCorpus(',', '\n'));
    const inputs = [csv, join(FIX, 'corpus.jsonl')];
    expect(Buffer.concat((await shardedRun('run-csv-3', inputs, 3))).equals((await filter(...inputs)))).toBe(true);
  });
});

describe('JSONL refusals', () => {
  it('a .jsonl file of which no line is JSON is refused, not an empty output and exit 0', async () => {
    const f = join(dir, 'prose.jsonl');
    writeFileSync(f, 'Plain prose under a JSONL name.\n\nAnother paragraph.\n');
    const r = await runMain(['filter', '-q', '-m', model, f]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/prose\.jsonl: not JSONL: none of its 2 non-blank lines is a JSON object; --format text reads it as text$/);
    expect(r.stdout.length).toBe(0);
  });
});

describe('CSV refusals', () => {
  it('a missing --text-field column is refused naming the file and the columns', async () => {
    mkdirSync(join(dir, 'y'), { recursive: true });
    writeFileSync(join(dir, 'y', 'c.csv'), 'id,body\n1,"Some text. More text."\n');
    const r = await runMain(['filter', '-q', '-m', model, join(dir, 'y', 'c.csv'), '-o', join(dir, 'y', 'out.jsonl')]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/c\.csv: CSV has no "text" column \(columns: id, body\); name the text column with --text-field NAME$/);
    expect(readdirSync(join(dir, 'y'))).toEqual(['c.csv']);
  });

  it('a quote never closed is refused, not read as one huge last field', async () => {
    mkdirSync(join(dir, 'z'), { recursive: true });
    writeFileSync(join(dir, 'z', 'c.csv'), 'id,text\n1,"Fine. Closed."\n2,"Opened, never closed.\n3,More text.\n');
    const r = await runMain(['filter', '-q', '-m', model, join(dir, 'z', 'c.csv'), '-o', join(dir, 'z', 'out.jsonl')]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/c\.csv: a quoted field opened in the record at line 3 is never closed: a field that starts with a double quote must end with one \(is it CSV\? --format text reads it as plain text\)$/);
    expect(readdirSync(join(dir, 'z'))).toEqual(['c.csv']);
  });

  it('a record with a wrong number of fields is skipped and counted (--strict: refused)', async () => {
    const csv = join(dir, 'ragged.csv');
    writeFileSync(csv, delimitedCorpus(',', '\n').replace('\n', '\nstray,row,with,too,many,fields\n'));
    const stats = join(dir, 'ragged-stats.json');
    const run = await runMain(['filter', '-q', '-m', model, csv, '--stats', stats]);
    expect(run.code).toBe(0);
    expect(run.stdout.toString('utf8')).toBe(reference.toString('utf8'));
    expect((JSON.parse(readFileSync(stats, 'utf8')) as { reader: { badCsvRecords: number } }).reader.badCsvRecords).toBe(1);
    // Skipped, not swallowed: one warning line even under -q.
    expect(run.stderr).toBe('tadpole: warning: skipped 1 CSV/TSV record with more or fewer fields than its header (counts in --stats; --strict stops at the first bad record and names its line)\n');
    const r = await runMain(['split', '--strict', csv]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/ragged\.csv:2: bad CSV record: 6 fields where the header has 3 \(drop --strict to skip and count such records\)$/);
  });
});

describe('Parquet refusals', () => {
  it('a missing --text-field column is refused naming the file and the columns', async () => {
    mkdirSync(join(dir, 'x'), { recursive: true });
    const r = await runMain(['filter', '-q', '-m', model, '--text-field', 'body', join(FIX, 'corpus.parquet'), '-o', join(dir, 'x', 'out.jsonl')]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/corpus\.parquet: Parquet has no "body" column \(columns: id, category, text\); name the text column with --text-field NAME$/);
    expect(readdirSync(join(dir, 'x'))).toEqual([]);
  });
});
