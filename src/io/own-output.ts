import { statSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';
import { readHead } from './format/magic.js';
import type { InputKind } from './input-kind.js';

/**
 * The JSONL inputs whose first record carries the "tadpole" field every kept JSONL record
 * gets (passes/run-writer.ts): tadpole's own output, most often an earlier run's whose -o was
 * forgotten, which a run would read, sample and cut with the corpus.
 */
export function ownOutputInputs(kinds: readonly InputKind[]): string[] {
  return kinds.filter((k) => k.format === 'jsonl' && firstRecordIsOurs(k)).map((k) => k.input);
}

function firstRecordIsOurs(k: InputKind): boolean {
  if (k.bytes !== 'text' && k.bytes !== 'gzip') return false;
  try {
    // Regular files only: a named pipe or stdin is read once, by the run.
    if (!statSync(k.input).isFile()) return false;
    const head = readHead(k.input);
    // A partial gzip stream decodes as far as it goes with a sync flush.
    const text = (k.bytes === 'gzip' ? gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }) : head).toString('utf8');
    const end = text.indexOf('\n');
    if (end < 0) return false;
    const record = JSON.parse(text.slice(0, end)) as unknown;
    return typeof record === 'object' && record !== null && !Array.isArray(record) && Object.prototype.hasOwnProperty.call(record, 'tadpole');
  } catch {
    // Not JSON, unreadable, damaged: the reader says so in its own words.
    return false;
  }
}
