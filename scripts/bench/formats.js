// Read speed of each input format against plain JSONL: the same 50 MB corpus as .jsonl,
// .jsonl.gz, .jsonl.zst, .jsonl.xz, CSV, TSV and Parquet (zstd, snappy; written by DuckDB when it can be
// imported: `npm i --no-save @duckdb/node-api`, or DUCKDB_NODE_API=/path/to/lib/index.js),
// each read through readDocuments (decode, split, parse: what every command does).
// MB/s are of the plain JSONL bytes, so the formats compare directly.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { readDocuments } from '../../dist/io/documents.js';
import { HAS_BUILTIN_ZSTD } from '../../dist/io/format/zstd.js';

const READER = { format: 'jsonl', textField: 'text', docPerLine: false, strict: false };

async function readAll(path, format = 'jsonl') {
  const t = performance.now();
  let docs = 0;
  for await (const b of readDocuments([path], { ...READER, format })) docs += b.length;
  return { docs, s: (performance.now() - t) / 1000 };
}

/** The JSONL corpus as CSV or TSV with its text and source columns, quoted as Python's csv module quotes. */
function delimitedFile(src, dst, delim) {
  const cell = (v) => (v.includes(delim) || /["\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = readFileSync(src, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  writeFileSync(dst, ['text', 'source'].join(delim) + '\n' + rows.map((r) => cell(r.text) + delim + cell(r.source)).join('\n') + '\n');
}

function zstdFile(src, dst) {
  if (typeof zlib.zstdCompressSync === 'function') return writeFileSync(dst, zlib.zstdCompressSync(readFileSync(src))), true;
  return spawnSync('zstd', ['-q', '-f', '-3', src, '-o', dst]).status === 0;
}

async function parquetFiles(src, dir) {
  let duckdb;
  try {
    duckdb = await import(process.env.DUCKDB_NODE_API ?? '@duckdb/node-api');
  } catch {
    return [];
  }
  const db = await duckdb.DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const out = [];
  for (const codec of ['zstd', 'snappy']) {
    const file = join(dir, `formats-50mb.${codec}.parquet`);
    if (!existsSync(file)) await c.run(`COPY (SELECT * FROM read_json('${src}', format = 'newline_delimited', columns = {text: 'VARCHAR', source: 'VARCHAR'})) TO '${file}' (FORMAT parquet, COMPRESSION ${codec})`);
    out.push([`Parquet (${codec}, DuckDB)`, file]);
  }
  return out;
}

export async function benchFormats() {
  const { makeCorpus } = await import('../make-corpus.js');
  const { benchDir } = await import('./e2e.js');
  const dir = benchDir();
  const plain = join(dir, 'formats-50mb.jsonl');
  if (!existsSync(plain)) await makeCorpus(plain, 50, 'jsonl', 4);
  const mb = statSync(plain).size / 1e6;
  const gz = `${plain}.gz`;
  if (!existsSync(gz)) writeFileSync(gz, zlib.gzipSync(readFileSync(plain), { level: 6 }));
  const forms = [['JSONL', plain], ['JSONL gzip', gz]];
  const zst = `${plain}.zst`;
  if (existsSync(zst) || zstdFile(plain, zst)) forms.push([`JSONL zstd (${HAS_BUILTIN_ZSTD ? "Node's zlib" : 'fzstd'})`, zst]);
  else console.log('formats: no zstd writer here (Node < 22.15 and no zstd CLI): .zst skipped');
  const xz = `${plain}.xz`;
  if (existsSync(xz) || spawnSync('xz', ['-T1', '-6', '-k', '-f', plain]).status === 0) forms.push(['JSONL xz (xz-decompress)', xz]);
  else console.log('formats: no xz CLI here: .xz skipped');
  for (const [ext, delim] of [['csv', ','], ['tsv', '\t']]) {
    const file = join(dir, `formats-50mb.${ext}`);
    if (!existsSync(file)) delimitedFile(plain, file, delim);
    forms.push([ext.toUpperCase(), file, ext]);
  }
  const pq = await parquetFiles(plain, dir);
  if (pq.length === 0) console.log('formats: @duckdb/node-api not importable: Parquet skipped (npm i --no-save @duckdb/node-api)');
  forms.push(...pq);
  let base;
  let docs;
  console.log(`formats: ${mb.toFixed(1)} MB of JSONL, Node ${process.version}; MB/s of the plain JSONL bytes`);
  for (const [name, file, format] of forms) {
    const r = await readAll(file, format);
    if (docs !== undefined && r.docs !== docs) throw new Error(`${name}: ${r.docs} documents, plain JSONL ${docs}`);
    docs = r.docs;
    base ??= r.s;
    console.log(`formats.${name}: ${(mb / r.s).toFixed(1)} MB/s (${(statSync(file).size / 1e6).toFixed(1)} MB on disk; ${(base / r.s).toFixed(2)}x plain JSONL)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFormats();
