import { usageError } from '../core/errors.js';
import { bool, list, num, numWithDefault, str, strWithDefault, type FlagSpec, type ParsedArgs } from './args.js';
import type { CliIO } from './command.js';
import type { EmbedderSpec } from '../embed/factory.js';
import { DEFAULT_MAX_DOC_BYTES, type ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import { expandInputs } from '../io/inputs/expand.js';

export const readerFlags: FlagSpec[] = [
  { name: 'format', type: 'string', choices: ['auto', 'text', 'jsonl', 'csv', 'tsv'], default: 'auto', arg: 'FMT', help: 'Input format: text (documents separated by blank lines), jsonl, csv or tsv (a header row, then one document per record), or auto (jsonl for *.jsonl/*.ndjson, csv for *.csv, tsv for *.tsv, each also .gz/.zst/.xz; Parquet by its bytes; under any other name and on stdin jsonl when the first non-blank bytes are {", else text)' },
  { name: 'text-field', type: 'string', default: 'text', arg: 'NAME', help: 'JSONL field (CSV/TSV/Parquet column) holding the text; other fields are carried to JSONL output' },
  { name: 'doc-per-line', type: 'boolean', help: 'Plain text: one document per line' },
  { name: 'strict', type: 'boolean', help: 'Fail on the first bad JSONL line or CSV/TSV record instead of skipping and counting it' },
  { name: 'max-doc-bytes', type: 'int', arg: 'N', default: DEFAULT_MAX_DOC_BYTES, help: 'Skip (and count) documents larger than N bytes, keeping memory bounded' },
];

export const embedderFlags: FlagSpec[] = [
  { name: 'embedder', type: 'string', choices: ['hash', 'onnx'], arg: 'KIND', help: 'Sentence embedder (fit default: hash, or onnx when --model-dir/TADPOLE_MODEL is set)' },
  { name: 'dims', type: 'int', arg: 'N', help: 'hash embedder: output dimension [default: 256]' },
  { name: 'model-dir', type: 'string', arg: 'DIR', help: 'onnx: a Hugging Face style model folder (or set TADPOLE_MODEL)' },
  { name: 'onnx-file', type: 'string', arg: 'FILE', help: 'onnx: which .onnx file to load' },
  { name: 'device', type: 'string', arg: 'DEV', help: 'onnx: auto | cpu | cuda | cuda:N [default: auto]' },
  { name: 'batch-size', type: 'int', arg: 'N', help: 'onnx: sentences per inference batch' },
  { name: 'max-tokens', type: 'int', arg: 'N', help: 'onnx: truncate sentences to N tokens [default: the model limit, at most 512]' },
  { name: 'pooling', type: 'string', choices: ['mean', 'cls'], arg: 'P', help: 'onnx: pooling [default: from the model config]' },
  { name: 'threads', type: 'int', arg: 'N', help: 'onnx: CPU threads' },
];

export function readerOptionsFrom(args: ParsedArgs): ReaderOptions {
  return {
    format: strWithDefault(args, 'format') as ReaderOptions['format'],
    textField: strWithDefault(args, 'textField'),
    docPerLine: bool(args, 'docPerLine'),
    strict: bool(args, 'strict'),
    maxDocBytes: numWithDefault(args, 'maxDocBytes'),
  };
}

/** Flags given for the embedder (undefined fields left out). */
export function embedderOverridesFrom(args: ParsedArgs, io?: CliIO): Partial<EmbedderSpec> {
  const spec: Partial<EmbedderSpec> = {};
  const kind = str(args, 'embedder');
  if (kind) spec.kind = kind as EmbedderSpec['kind'];
  const map: Array<[keyof EmbedderSpec, string, 'n' | 's']> = [
    ['dims', 'dims', 'n'],
    ['modelDir', 'modelDir', 's'],
    ['onnxFile', 'onnxFile', 's'],
    ['device', 'device', 's'],
    ['batchSize', 'batchSize', 'n'],
    ['maxTokens', 'maxTokens', 'n'],
    ['pooling', 'pooling', 's'],
    ['threads', 'threads', 'n'],
  ];
  for (const [key, flag, t] of map) {
    const v = t === 'n' ? num(args, flag) : str(args, flag);
    if (v !== undefined) (spec as Record<string, unknown>)[key] = v;
  }
  if (io) spec.log = (line: string) => io.stderr.write(line.startsWith('tadpole:') ? `${line}\n` : `tadpole: ${line}\n`);
  return spec;
}

/** The embedder `fit` uses: onnx when a model is named, hash otherwise. */
export function embedderSpecFrom(args: ParsedArgs, io?: CliIO): EmbedderSpec {
  const o = embedderOverridesFrom(args, io);
  const kind = o.kind ?? (o.modelDir || (io?.env ?? process.env).TADPOLE_MODEL ? 'onnx' : 'hash');
  return { ...o, kind };
}

/** The embedder fit names (onnx when a model is named, hash otherwise), or undefined when no flag or TADPOLE_MODEL names one: the method's own default. */
export function namedEmbedderFrom(args: ParsedArgs, io: CliIO): EmbedderSpec | undefined {
  const o = embedderOverridesFrom(args, io);
  const named = o.kind !== undefined || o.modelDir !== undefined || !!io.env.TADPOLE_MODEL || o.dims !== undefined;
  return named ? { ...o, kind: o.kind ?? (o.modelDir || io.env.TADPOLE_MODEL ? 'onnx' : 'hash') } : undefined;
}

/** Input files: folders and quoted globs expanded to the files they hold (src/io/inputs/expand.ts); none = stdin. */
export function inputsFrom(args: ParsedArgs): string[] {
  return args.positionals.length > 0 ? expandInputs(args.positionals) : [STDIN];
}

export function requireFiles(args: ParsedArgs, key: string, flag: string): string[] {
  const files = list(args, key);
  if (files.length === 0) throw usageError(`--${flag} FILE... is required`);
  return expandInputs(files);
}

/** A flag's files, folders and quoted globs expanded (none given: none). */
export function filesFrom(args: ParsedArgs, key: string): string[] {
  return expandInputs(list(args, key));
}

/** A path as one shell word, for a command line printed for the user: quoted when it holds anything but plain path characters. */
export function shellWord(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A progress line printer, only when stderr is a terminal. */
/** Returns to the start of the terminal's line and clears it: a progress line is redrawn, or replaced by a line said meanwhile. */
export const ERASE_LINE = '\r\x1b[K';

export function progressFor(io: CliIO, quiet: boolean): ((line: string) => void) | undefined {
  if (quiet || !io.stderrIsTTY) return undefined;
  return (line: string) => io.stderr.write(`${ERASE_LINE}${line}`);
}

export function endProgress(io: CliIO, quiet: boolean): void {
  if (!quiet && io.stderrIsTTY) io.stderr.write('\n');
}
