import { createRequire } from 'node:module';
import { TadpoleError } from '../../core/errors.js';
import { openReadAt } from '../read-at.js';

/**
 * hyparquet loaded on first use, synchronously (the planner is synchronous; require() of an
 * ES module works on Node >= 20.19 and 22.12, the engines range): a run with no Parquet
 * shard cut never pays its load time (~50 ms).
 */
function parquetMetadata(footer: Buffer): import('hyparquet').FileMetaData {
  const hyparquet = createRequire(import.meta.url)('hyparquet') as typeof import('hyparquet');
  return hyparquet.parquetMetadata(footer);
}

/**
 * A footer that decoded into something that is not Parquet metadata (damaged bytes that are
 * still valid thrift) is refused here, before any code walks its fields.
 */
export function checkedMetadata(meta: import('hyparquet').FileMetaData): import('hyparquet').FileMetaData {
  const groups: unknown = meta?.row_groups;
  const ok =
    Array.isArray(meta?.schema) &&
    meta.schema.length > 0 &&
    Array.isArray(groups) &&
    groups.every((g: { columns?: unknown; num_rows?: unknown }) => Array.isArray(g?.columns) && Number(g.num_rows) >= 0);
  if (!ok) throw new Error('its metadata has no schema or row groups');
  return meta;
}

/**
 * The one line for a Parquet file whose footer cannot be read: hyparquet's own words where it
 * has some (a thrift error), never a JavaScript TypeError from walking damaged metadata.
 */
export function unreadableParquet(name: string, err: unknown): TadpoleError {
  const e = err as Error;
  const detail = e instanceof TypeError || e instanceof RangeError ? 'its metadata does not decode' : e?.message;
  return new TadpoleError('TADPOLE_INPUT', `${name}: not a readable Parquet file: the footer is damaged or truncated (${detail}); rewrite the file, or give the source it came from`, { file: name, cause: err });
}

/** Where each row group of a Parquet file starts: its first row and its first byte. */
export interface RowGroupStart {
  row: number;
  byte: number;
}

/**
 * The row groups of a Parquet file, from its footer alone (read synchronously: the shard
 * planner is synchronous). Row groups are Parquet's natural shard unit: a shard cut
 * falls on the first row group that starts at or after the cut's byte position.
 */
export function parquetRowGroupStarts(path: string): RowGroupStart[] {
  const fd = openReadAt(path);
  try {
    const size = fd.size;
    const tail = Buffer.alloc(Math.min(size, 8));
    fd.read(tail, 0, tail.length, size - tail.length);
    const metaLen = tail.length === 8 ? tail.readUInt32LE(0) : 0;
    if (tail.length < 8 || metaLen + 8 > size) throw new Error('footer is damaged');
    const footer = Buffer.alloc(metaLen + 8);
    fd.read(footer, 0, footer.length, size - footer.length);
    const meta = checkedMetadata(parquetMetadata(footer));
    const starts: RowGroupStart[] = [];
    let row = 0;
    for (const group of meta.row_groups) {
      let byte = Number.MAX_SAFE_INTEGER;
      for (const col of group.columns) {
        const m = col.meta_data;
        if (m) byte = Math.min(byte, Number(m.dictionary_page_offset ?? m.data_page_offset));
      }
      starts.push({ row, byte });
      row += Number(group.num_rows);
    }
    return starts;
  } catch (err) {
    throw unreadableParquet(path, err);
  } finally {
    fd.close();
  }
}

/** The first row of the first row group starting at or after byte `pos`; undefined when none does (the cut moves to the next input). */
export function parquetCutRow(path: string, pos: number): number | undefined {
  if (pos <= 0) return 0;
  for (const g of parquetRowGroupStarts(path)) if (g.byte >= pos) return g.row;
  return undefined;
}
