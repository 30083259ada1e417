import * as zlib from 'node:zlib';
import { TadpoleError } from '../../core/errors.js';
import type { ByteRange } from '../input.js';
import { HAS_BUILTIN_ZSTD } from './zstd.js';
import { checkedMetadata, unreadableParquet } from './parquet-plan.js';
import { jsonText, timestampParsers } from './parquet-json.js';
import { carriedFromColumns, type CarriedFields } from '../carried.js';
import { readRemoteBytes } from '../remote/read.js';
import { remoteObject } from '../remote/registry.js';
import { isRemote } from '../remote/url.js';

/**
 * Parquet read with hyparquet, one row group at a time, so memory is bounded by one row
 * group (DuckDB writes 122,880 rows per group by default). Snappy is hyparquet's own;
 * zstd pages go to Node's zlib zstd where present, else fzstd.
 *
 * Measured on 56.6 MB of JSONL written by DuckDB as Parquet (27,530 rows, one run each,
 * docs/design/decisions.md, "Parquet"): hyparquet + Node 24 zstd 0.74 s, snappy 1.33 s;
 * hyparquet + fzstd (Node 20) 3.8 s; DuckDB's Node API (1 thread) 1.5 s zstd, 1.7 s snappy.
 * hyparquet is 520 KB of JS with no dependency; DuckDB's Node package is 70 MB of native code.
 *
 * A document's offsets are ROW numbers, not bytes: byteStart = row, nextOffset = row + 1.
 * Resume restarts at a row (skipping whole row groups before it without decoding them);
 * the shard planner keeps a Parquet file whole in one shard, as it does a gzip file.
 */
async function zstdPageDecoder(): Promise<(input: Uint8Array, outputLength: number) => Uint8Array> {
  if (HAS_BUILTIN_ZSTD) return (input) => new Uint8Array((zlib as unknown as { zstdDecompressSync: (b: Uint8Array) => Buffer }).zstdDecompressSync(input));
  const { decompress } = await import('fzstd');
  return (input, outputLength) => decompress(input, new Uint8Array(outputLength));
}

/** A remote Parquet object as hyparquet reads a file: its footer, then the column chunks it needs, each a Range GET. */
function remoteBuffer(name: string): { byteLength: number; slice(start: number, end?: number): Promise<ArrayBuffer> } {
  const o = remoteObject(name);
  return {
    byteLength: o.size,
    async slice(start, end) {
      const b = await readRemoteBytes(name, start, end ?? o.size, o);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    },
  };
}

export interface ParquetRowDoc {
  row: number;
  text: string | undefined;
  fields: Record<string, unknown>;
  carried: CarriedFields;
}

/** The rows of a Parquet file from `range.start` (a row) on, one row group per batch. */
export async function* parquetRows(path: string, name: string, textField: string, range: ByteRange | undefined): AsyncGenerator<ParquetRowDoc[]> {
  // Loaded here, not at startup: commands that read no Parquet never pay for it.
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } = await import('hyparquet');
  const zstdPage = await zstdPageDecoder();
  let file;
  let metadata;
  let columns: string[];
  try {
    file = isRemote(path) ? remoteBuffer(path) : await asyncBufferFromFile(path);
    metadata = checkedMetadata(await parquetMetadataAsync(file));
    columns = parquetSchema(metadata).children.map((c) => c.element.name);
  } catch (err) {
    throw unreadableParquet(name, err);
  }
  if (!columns.includes(textField)) {
    throw new TadpoleError('TADPOLE_INPUT', `${name}: Parquet has no "${textField}" column (columns: ${columns.slice(0, 12).join(', ')}${columns.length > 12 ? ', ...' : ''}); name the text column with --text-field NAME`, { file: name });
  }
  const keys = columns.map((name) => JSON.stringify(name));
  const textColumn = columns.indexOf(textField);
  const first = range?.start ?? 0;
  const stop = range?.end ?? Number.MAX_SAFE_INTEGER;
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupEnd = groupStart + Number(group.num_rows);
    const from = Math.max(groupStart, first);
    const to = Math.min(groupEnd, stop);
    if (from < to) {
      let rows: Record<string, unknown>[];
      try {
        rows = await parquetReadObjects({ file, metadata, rowStart: from, rowEnd: to, compressors: { ZSTD: zstdPage }, parsers: timestampParsers });
      } catch (err) {
        throw new TadpoleError('TADPOLE_INPUT', `${name}: Parquet row group at row ${groupStart} cannot be read (${(err as Error).message})`, { file: name, cause: err });
      }
      yield rows.map((r, i) => {
        const text = r[textField];
        const carried = carriedFromColumns(columns, keys, (k) => jsonText(r[columns[k]!]), textColumn);
        return { row: from + i, text: typeof text === 'string' ? text : undefined, fields: jsonFields(r), carried };
      });
    }
    groupStart = groupEnd;
    if (groupStart >= stop) return;
  }
}

/** Column values as plain JavaScript (Doc.fields): 64-bit integers as numbers when exact, else strings; dates as ISO strings; bytes as base64. JSONL output writes `carried`, exact. */
function jsonFields(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = jsonValue(v);
  return out;
}

function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = jsonValue(x);
    return o;
  }
  return v;
}
