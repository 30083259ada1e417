import { str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { inputsFrom, readerFlags, readerOptionsFrom } from './common.js';
import { readerSummary } from './reader-summary.js';
import { ReadCounters, readDocuments, resolveFormat } from '../io/documents.js';
import { Sink } from '../io/sink.js';
import { splitSentences } from '../text/sentences.js';

const spec: CommandSpec = {
  name: 'split',
  summary: 'split documents into sentences (the splitter tadpole uses)',
  usage: 'tadpole split [--format FMT] [--out-format lines|jsonl] [FILE... | -] [-o OUT]',
  positionalInputs: true,
  flags: [
    { name: 'out-format', type: 'string', choices: ['lines', 'jsonl'], arg: 'FMT', help: 'lines: one sentence per line (inner line breaks become spaces); jsonl: {"doc","i","text"} [default: jsonl for JSONL, CSV, TSV or Parquet input, else lines]' },
    { name: 'output', role: 'output-file', alias: 'o', type: 'string', arg: 'FILE', help: 'Output file [default: stdout]' },
    ...readerFlags,
  ],
};

export const command: Command = {
  spec,
  async run(args, io) {
    const reader = readerOptionsFrom(args);
    const inputs = inputsFrom(args);
    const outFormat = str(args, 'outFormat') ?? (inputs.some((f) => resolveFormat(reader.format, f) !== 'text') ? 'jsonl' : 'lines');
    const output = str(args, 'output');
    const sink = output ? Sink.toFile(output) : Sink.toStream(io.stdout);
    const counters = new ReadCounters();
    try {
      for await (const docs of readDocuments(inputs, reader, { stdin: io.stdin, counters })) {
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
    const skipped = sink.closedEarly ? undefined : readerSummary(counters.toJSON(), { textField: reader.textField, stats: false });
    if (skipped) io.stderr.write(`tadpole: ${skipped}\n`);
    return 0;
  },
};
