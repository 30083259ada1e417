#!/usr/bin/env node
// Writes test/fixtures/formats/: one small corpus (the first 40 BBC news records of
// shared/corpora) as plain JSONL, zstd JSONL, Parquet written by DuckDB (zstd and
// snappy), and a folder of mixed .jsonl / .gz / .zst shards; and sentences.parquet:
// 4,500 movie-review sentences ({row: BIGINT, text}) in three row groups of 2,048 rows
// (DuckDB writes at least 2,048 rows per group), for shard cuts between row groups. test/io/formats-equivalence.test.ts checks that every
// form gives the same kept text. The fixtures are committed (Node 20 cannot write zstd
// and DuckDB is no dependency of tadpole); to regenerate them:
//   npm i --no-save @duckdb/node-api && node scripts/make-format-fixtures.mjs
// (DUCKDB_NODE_API=/path/to/@duckdb/node-api/lib/index.js uses a copy installed elsewhere;
// zstd comes from Node >= 22.15's zlib, or the zstd CLI.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import { sharedPath } from '../dist/core/shared.js';

const OUT = resolve('test/fixtures/formats');
const RECORDS = 40;

function zstd(buf) {
  if (typeof zlib.zstdCompressSync === 'function') return zlib.zstdCompressSync(buf);
  const r = spawnSync('zstd', ['-q', '-19', '-c'], { input: buf, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error('no zstd: run on Node >= 22.15 or install the zstd CLI');
  return r.stdout;
}

const lines = gunzipSync(readFileSync(sharedPath('corpora', 'news-bbc', 'docs.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean).slice(0, RECORDS);
// Re-serialized the way tadpole writes JSONL (JSON.stringify), so carried fields compare byte for byte.
const records = lines.map((l) => JSON.parse(l));
const jsonl = (recs) => recs.map((r) => JSON.stringify(r) + '\n').join('');

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, 'shards', 'rest'), { recursive: true });
writeFileSync(join(OUT, 'corpus.jsonl'), jsonl(records));
writeFileSync(join(OUT, 'corpus.jsonl.zst'), zstd(Buffer.from(jsonl(records))));
// xz has no writer in Node: the xz CLI (xz-utils).
const xz = spawnSync('xz', ['-6', '-c'], { input: Buffer.from(jsonl(records)), maxBuffer: 1 << 28 });
if (xz.status !== 0) throw new Error('no xz CLI (apt-get install xz-utils)');
writeFileSync(join(OUT, 'corpus.jsonl.xz'), xz.stdout);
// Shards in path order (byte order): part-0.jsonl < part-1.jsonl.gz < rest/part-2.jsonl.zst.
const third = Math.ceil(RECORDS / 3);
writeFileSync(join(OUT, 'shards', 'part-0.jsonl'), jsonl(records.slice(0, third)));
writeFileSync(join(OUT, 'shards', 'part-1.jsonl.gz'), gzipSync(jsonl(records.slice(third, 2 * third))));
writeFileSync(join(OUT, 'shards', 'rest', 'part-2.jsonl.zst'), zstd(Buffer.from(jsonl(records.slice(2 * third)))));

const { DuckDBInstance } = await import(process.env.DUCKDB_NODE_API ?? '@duckdb/node-api');
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const src = join(OUT, 'corpus.jsonl');
for (const codec of ['zstd', 'snappy']) {
  const file = join(OUT, codec === 'zstd' ? 'corpus.parquet' : 'corpus-snappy.parquet');
  await c.run(`COPY (SELECT * FROM read_json('${src}', format = 'newline_delimited', columns = {id: 'VARCHAR', category: 'VARCHAR', text: 'VARCHAR'})) TO '${file}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 16)`);
}
// Built from shared/corpora the same way by test/io/formats-equivalence.test.ts (sentencesJsonl).
const sentences = gunzipSync(readFileSync(sharedPath('corpora', 'task-mr-sentence-polarity', 'text_train.txt.gz'))).toString('utf8').split('\n').filter(Boolean).slice(0, 4500);
const tmp = join(OUT, 'sentences.tmp.jsonl');
writeFileSync(tmp, sentences.map((text, row) => JSON.stringify({ row, text }) + '\n').join(''));
await c.run(`COPY (SELECT * FROM read_json('${tmp}', format = 'newline_delimited', columns = {row: 'BIGINT', text: 'VARCHAR'})) TO '${join(OUT, 'sentences.parquet')}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)`);
rmSync(tmp);
console.log(`wrote ${OUT}`);
