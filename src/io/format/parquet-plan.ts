import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TadpoleError } from '../../core/errors.js';

/**
 * hyparquet loaded on first use, synchronously (the planner is synchronous; require() of an
 * ES module works on Node >= 20.19 and 22.12, the engines range): a run with no Parquet
 * shard cut never pays its load time (~50 ms).
 */
function parquetMetadata(footer: Buffer): import('hyparquet').FileMetaData {
  const hyparquet = createRequire(import.meta.url)('hyparquet') as typeof import('hyparquet');
  return hyparquet.parquetMetadata(footer);
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
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, 8));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const metaLen = tail.length === 8 ? tail.readUInt32LE(0) : 0;
    if (tail.length < 8 || metaLen + 8 > size) throw new Error('footer is damaged');
    const footer = Buffer.alloc(metaLen + 8);
    readSync(fd, footer, 0, footer.length, size - footer.length);
    const meta = parquetMetadata(footer);
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
    throw new TadpoleError('TADPOLE_INPUT', `${path}: not a readable Parquet file (${(err as Error).message})`, { file: path, cause: err });
  } finally {
    closeSync(fd);
  }
}

/** The first row of the first row group starting at or after byte `pos`; undefined when none does (the cut moves to the next input). */
export function parquetCutRow(path: string, pos: number): number | undefined {
  if (pos <= 0) return 0;
  for (const g of parquetRowGroupStarts(path)) if (g.byte >= pos) return g.row;
  return undefined;
}
