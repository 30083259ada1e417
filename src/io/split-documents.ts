import type { Readable, Writable } from 'node:stream';
import { splitSentences } from '../text/sentences.js';
import { ReadCounters, readDocuments, resolveFormat, type ReaderOptions } from './documents.js';
import { Sink } from './sink.js';

export interface SplitDocumentsOptions {
  /** Input files, expanded; `-` is stdin. */
  inputs: string[];
  reader: ReaderOptions;
  /** lines: one sentence a line (inner line breaks become spaces); jsonl: {"doc","i","text"}. Default: jsonl when an input is JSONL, CSV, TSV or Parquet, else lines. */
  outFormat?: string;
  /** The file to write (atomically); without it, `stdout`. */
  output?: string;
  stdout: Writable;
  /** What `-` reads (default: process.stdin). */
  stdin?: Readable;
}

export interface SplitDocumentsResult {
  /** The reader of the output went away (a closed pipe): the inputs were not all read. */
  closedEarly: boolean;
  /** The reader's counters (what it skipped and why), as `--stats` records them. */
  reader: Record<string, number>;
}

/**
 * `tadpole split`: every document of the inputs cut into sentences by the splitter the
 * filter uses, written a sentence a line or as JSONL records; nothing half-written is left
 * in `output` when it fails.
 */
export async function splitDocuments(o: SplitDocumentsOptions): Promise<SplitDocumentsResult> {
  const { inputs, reader } = o;
  const outFormat = o.outFormat ?? (inputs.some((f) => resolveFormat(reader.format, f) !== 'text') ? 'jsonl' : 'lines');
  const sink = o.output ? Sink.toFile(o.output) : Sink.toStream(o.stdout);
  const counters = new ReadCounters();
  try {
    for await (const docs of readDocuments(inputs, reader, { ...(o.stdin ? { stdin: o.stdin } : {}), counters })) {
      for (const doc of docs) {
        const spans = splitSentences(doc.text);
        for (let j = 0; j < spans.length; j += 2) {
          const text = doc.text.slice(spans[j], spans[j + 1]);
          await sink.write(outFormat === 'jsonl' ? JSON.stringify({ doc: doc.ordinal, i: j / 2, text }) + '\n' : text.replace(/\r\n|[\r\n]/g, ' ') + '\n');
        }
      }
      if (sink.closedEarly) break;
    }
    await sink.close();
  } catch (err) {
    await sink.abort();
    throw err;
  }
  return { closedEarly: sink.closedEarly, reader: counters.toJSON() };
}
