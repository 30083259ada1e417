import { str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { inputsFrom, readerFlags, readerOptionsFrom } from './common.js';
import { readerSummary } from './reader-summary.js';
import { splitDocuments } from '../io/split-documents.js';

const spec: CommandSpec = {
  name: 'split',
  summary: 'split documents into sentences (the splitter tadpole uses)',
  usage: 'tadpole split [--format FMT] [--out-format lines|jsonl] [FILE... | -] [-o OUT]',
  positionalInputs: true,
  flags: [
    { name: 'out-format', type: 'string', choices: ['lines', 'jsonl'], arg: 'FMT', help: 'lines: one sentence per line (inner line breaks become spaces); jsonl: {"doc","i","text"} [default: jsonl for JSONL, CSV, TSV or Parquet input, else lines]' },
    { name: 'output', role: 'output-file', alias: 'o', type: 'string', arg: 'FILE', help: 'Output file, or s3://BUCKET/KEY [default: stdout]' },
    ...readerFlags,
  ],
};

export const command: Command = {
  spec,
  async run(args, io) {
    const reader = readerOptionsFrom(args);
    const outFormat = str(args, 'outFormat');
    const output = str(args, 'output');
    const split = await splitDocuments({
      inputs: inputsFrom(args),
      reader,
      ...(outFormat !== undefined ? { outFormat } : {}),
      ...(output ? { output } : {}),
      stdout: io.stdout,
      stdin: io.stdin,
    });
    const skipped = split.closedEarly ? undefined : readerSummary(split.reader, { textField: reader.textField, stats: false });
    if (skipped) io.stderr.write(`tadpole: ${skipped}\n`);
    return 0;
  },
};
