import { TadpoleError } from '../core/errors.js';
import { warnKeep, warnNearRandom } from './model-warnings.js';
import { ownOutputInputs } from '../io/own-output.js';
import { interruptExit, trapSignals } from '../core/signals.js';
import { bool, num, numWithDefault, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { workersFlag, workersFrom } from './workers.js';
import { budgetShortfall, keepByCutFlag, keepByFrom, keepFlag, keepFrom, tokenizerFlag } from './keep-by.js';
import { docContextFlag, docContextFrom } from './doc-context.js';
import { embedderFlags, embedderOverridesFrom, endProgress, ERASE_LINE, inputsFrom, progressFor, readerFlags, readerOptionsFrom } from './common.js';
import { readerSummary } from './reader-summary.js';
import type { KeepBy } from '../cut/exact.js';
import { describeTaskShare } from '../cut/share-estimate.js';
import { writeFileAtomic } from '../io/atomic.js';
import { checkOutputCompression } from '../io/compressed-output.js';
import { type InputKind, resolveInputs } from '../io/input-kind.js';
import { STDIN } from '../io/input.js';
import { Sink } from '../io/sink.js';
import { describeHeldOut } from '../model/describe.js';
import { readModel } from '../model/file.js';
import { checkFilterOptions } from '../passes/checks.js';
import type { OutFormat } from '../passes/out-format.js';
import { runFilter } from '../commands/filter.js';
import { fileSha256 } from '../passes/fingerprint.js';
import type { FilterOptions } from '../passes/options.js';

const spec: CommandSpec = {
  name: 'filter',
  summary: 'keep the share of a corpus that looks most like the task (two passes, exact share)',
  usage: 'tadpole filter --model model.json [--keep 0.2] [options] [FILE... | -] [-o OUT]',
  positionalInputs: true,
  flags: [
    { name: 'model', alias: 'm', role: 'input', type: 'string', arg: 'FILE', group: 'Selection', help: 'Model file from tadpole fit (required)' },
    { ...keepFlag, group: 'Selection' },
    { ...keepByCutFlag, group: 'Selection' },
    { ...tokenizerFlag, group: 'Selection' },
    { name: 'threshold', type: 'number', arg: 'T', group: 'Selection', help: 'Keep segments scoring <= T in ONE streaming pass (no cut; reuse a threshold from --stats)' },
    { name: 'segment', min: 1, type: 'int', arg: 'N', default: 15, group: 'Selection', help: 'Sentences per segment (segments never cross documents)' },
    { ...docContextFlag, group: 'Selection' },
    { name: 'weights', type: 'boolean', group: 'Selection', help: 'Write every segment as JSONL with its weight 1/(1+e^(-C(alpha - z))) instead of cutting' },
    { name: 'C', min: 0, type: 'number', arg: 'C', default: 1, group: 'Selection', help: '--weights: sensitivity C' },
    { name: 'alpha', type: 'number', arg: 'A', default: 0, group: 'Selection', help: '--weights: offset alpha (in standard deviations)' },
    ...readerFlags.map((f) => ({ ...f, group: 'Input' })),
    { name: 'output', alias: 'o', role: 'output-file', type: 'string', arg: 'FILE', group: 'Output', help: 'Output file, written to a temp file and renamed on success; *.gz / *.zst compressed; or s3://BUCKET/KEY, uploaded [default: stdout]' },
    { name: 'out-format', type: 'string', choices: ['text', 'jsonl'], arg: 'FMT', group: 'Output', help: 'text: kept runs separated by blank lines; jsonl: a record per kept run (a plain-text run names its file and line) [default: what the -o name says (.jsonl, .txt), else as the input; JSONL when the inputs mix text and records]' },
    { name: 'stats', role: 'output-file', type: 'string', arg: 'FILE', group: 'Output', help: 'Write a JSON summary: counts, threshold, seconds per stage' },
    { name: 'quiet', alias: 'q', type: 'boolean', group: 'Output', help: 'No progress or summary on stderr (warnings still)' },
    { name: 'verbose', alias: 'v', type: 'boolean', group: 'Output', help: 'Also every step of a model completed from the corpus (sample, choice, self-training rounds)' },
    { ...workersFlag, group: 'Speed' },
    { name: 'input-ranges', type: 'string', choices: ['auto', 'on', 'off'], default: 'auto', arg: 'WHEN', group: 'Speed', help: 'With --workers > 1, cut the input into ranges that the threads read and filter apart, at document boundaries (a compressed file is one range); auto: for 64 MB or more that gives every thread two ranges or more; off: one reader hands batches to the threads (always so for stdin)' },
    { name: 'batch-sentences', min: 1, type: 'int', arg: 'N', group: 'Speed', help: 'Sentences per scoring batch [default: 4096]' },
    { name: 'work-dir', role: 'output-dir', type: 'string', arg: 'DIR', group: 'Speed', help: 'Folder for the spill file and stdin spool [default: a temp folder]' },
    { name: 'run-dir', role: 'output-dir', type: 'string', arg: 'DIR', group: 'Runs', help: 'Keep the run in DIR (spill, sketch, stdin spool, checkpoints, SQLite ledger) so --resume can continue it after a crash' },
    { name: 'resume', type: 'boolean', group: 'Runs', help: 'With --run-dir: continue the run from its last checkpoint (same command and inputs)' },
    { name: 'checkpoint-seconds', min: 0, type: 'number', arg: 'S', default: 2, group: 'Runs', help: 'With --run-dir: seconds between checkpoints (work lost on a crash is at most this plus one batch)' },
    ...embedderFlags.map((f) => ({ ...f, group: 'ONNX embedder' })),
  ],
  notes: `Inputs: files, folders (the corpus files under them, sorted by path), quoted globs, or - /
nothing for stdin (spooled to disk for pass 2). Text, JSONL, CSV/TSV and Parquet; gzip, zstd,
xz and UTF-16 decoded, found by magic bytes. Output is verbatim input text: kept runs of
segments, as text or JSONL (--out-format). With --run-dir and no -o, the output goes to stdout
once the run is complete (so a resumed run writes it whole). SIGINT/SIGTERM/SIGHUP: stop
after the current batch (exit 130/143/129); with --run-dir the checkpoint is kept for --resume.

Examples:
  tadpole filter --model model.json --keep 0.2 corpus.txt -o kept.txt --stats stats.json
  zcat corpus.jsonl.gz | tadpole filter -m model.json --format jsonl > kept.jsonl
  tadpole filter -m model.json --threshold 0.013 --format jsonl < part.jsonl > kept.jsonl
  tadpole filter -m model.json corpus.jsonl -o kept.jsonl --run-dir run/   # killed? add --resume`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const modelPath = str(args, 'model');
    if (!modelPath) throw new TadpoleError('TADPOLE_USAGE', '--model FILE is required (create one with tadpole fit)');
    const model = readModel(modelPath);
    const reader = readerOptionsFrom(args);
    // Before any sink exists: a folder or glob with nothing in it leaves no output file.
    const inputs = inputsFrom(args);
    const output = str(args, 'output');
    checkOutputCompression(output);
    const quiet = bool(args, 'quiet');
    const verbose = bool(args, 'verbose');
    const progress = progressFor(io, quiet);
    const threshold = num(args, 'threshold');
    const statsPath = str(args, 'stats');
    const workDir = str(args, 'workDir');
    const batch = num(args, 'batchSentences');
    const overrides = embedderOverridesFrom(args, io);
    const runDir = str(args, 'runDir');
    const segment = numWithDefault(args, 'segment');
    const docContext = docContextFrom(args);
    const keepBy = keepByFrom(args, runDir);
    const keep = keepFrom(args, keepBy);
    const tokenizer = str(args, 'tokenizer');
    const weights = bool(args, 'weights');
    if (!runDir && bool(args, 'resume')) throw new TadpoleError('TADPOLE_USAGE', '--resume needs --run-dir DIR (the run to continue)');
    if (runDir && (threshold !== undefined || weights || workDir)) {
      throw new TadpoleError('TADPOLE_USAGE', '--run-dir works with the exact cut only: drop --threshold/--weights/--work-dir (the threshold mode is one streaming pass with nothing to resume)');
    }
    if (weights && str(args, 'outFormat') === 'text') throw new TadpoleError('TADPOLE_USAGE', '--weights writes every segment with its weight, as JSONL: drop --out-format text');
    checkFilterOptions({ keep, segment, ...(docContext !== undefined ? { docContext } : {}), inputs });
    // Each input's kind is decided here, once, and carried into the run (io/input-kind.ts).
    const kinds = resolveInputs(inputs, reader.format);
    // After the inputs: a missing input is said as such, not as a thread count that is too high.
    const workers = workersFrom(args, kinds);
    const outFormat = outFormatFor(str(args, 'outFormat') as 'text' | 'jsonl' | undefined, output, kinds);
    // Warnings go to stderr under -q too: they are about the model and the data, not progress.
    const warn = (line: string) => io.stderr.write(`tadpole: warning: ${line}\n`);
    for (const input of ownOutputInputs(kinds)) warn(`${input} looks like tadpole's own output (its records have a "tadpole" field): did you forget -o before it?`);
    warnNearRandom(model, io);
    warnKeep(model, keep, threshold === undefined && !weights, warn);
    // A line said while a progress line is drawn replaces it; the next draw comes below.
    const lead = progress ? ERASE_LINE : '';
    const log = quiet ? undefined : (line: string) => io.stderr.write(`${lead}tadpole: ${line}\n`);
    // The fit's own steps (every self-training round) only with -v; its warnings always.
    const detail = (line: string) => {
      if (line.startsWith('warning:')) io.stderr.write(`${lead}tadpole: ${line}\n`);
      else if (verbose && log) log(line);
    };
    const trap = trapSignals('filter', runDir ? `checkpoint kept: rerun with --resume --run-dir ${runDir}` : 'no output written');
    let stats;
    try {
      // One options object for every mode; the sink (and its temp file) exists only once every
      // check above has passed, and any failure or interruption from here on removes it.
      const options: FilterOptions = {
        inputs: kinds,
        reader,
        model,
        embedder: overrides,
        keep,
        segment,
        docContext,
        keepBy,
        ...(tokenizer ? { tokenizer } : {}),
        ...(threshold !== undefined ? { threshold } : {}),
        ...(weights ? { weights: { C: numWithDefault(args, 'C'), alpha: numWithDefault(args, 'alpha') } } : {}),
        outFormat,
        stdin: io.stdin,
        ...(workDir ? { workDir } : {}),
        ...(batch ? { batchSentences: batch } : {}),
        workers,
        ...rangeMinBytesFrom(str(args, 'inputRanges')),
        ...(progress ? { progress } : {}),
        ...(log ? { log } : {}),
        detail,
        signal: trap.signal,
        ...(runDir
          ? {
              runDir: {
                dir: runDir,
                resume: bool(args, 'resume'),
                modelSha256: fileSha256(modelPath),
                ...(output ? { output } : {}),
                stdout: io.stdout,
                checkpointSeconds: numWithDefault(args, 'checkpointSeconds'),
                args: ['filter', JSON.stringify(args.flags), ...args.positionals],
                ...(io.env.TADPOLE_TEST_CRASH_AT ? { crashAt: io.env.TADPOLE_TEST_CRASH_AT } : {}),
              },
            }
          : { sink: output ? Sink.toFile(output) : Sink.toStream(io.stdout) }),
      };
      stats = await runFilter(options);
    } catch (err) {
      const code = interruptExit(err);
      if (code === undefined) throw err;
      if (progress) endProgress(io, quiet);
      io.stderr.write(`tadpole filter: interrupted (${(err as Error).message.replace('interrupted by ', '')})${runDir ? `; checkpoint kept: rerun with --resume --run-dir ${runDir}` : '; no output written'}\n`);
      return code;
    } finally {
      trap.dispose();
    }
    if (progress) endProgress(io, quiet);
    if (statsPath) writeFileAtomic(statsPath, JSON.stringify(stats, null, 2) + '\n');
    const skipped = readerSummary(stats.reader, { textField: reader.textField, stats: !!statsPath });
    if (skipped) io.stderr.write(`tadpole: ${skipped}\n`);
    // The completed model is not written back to the model file: its measure is said here (and in --stats).
    if (!quiet && stats.completion && stats.heldOut) io.stderr.write(`tadpole: ${describeHeldOut(stats.heldOut)}\n`);
    if (!quiet && (stats.taskShare || stats.taskShareNone)) io.stderr.write(`tadpole: ${describeTaskShare({ ...(stats.taskShare ? { share: stats.taskShare } : {}), ...(stats.taskShareNone ? { none: stats.taskShareNone } : {}) }, stats.completion ? 'the corpus' : "the model's general sample")}\n`);
    const short = budgetShortfall(keep, keepBy, stats);
    if (short) warn(short);
    if (!quiet && !stats.closedEarly) {
      io.stderr.write(`tadpole: kept ${stats.segments.kept}/${stats.segments.total} segments, ${keptShares(stats)} in ${stats.seconds.total.toFixed(1)}s\n`);
    }
    return 0;
  },
};

/** What was kept, as a share of the unit --keep counted first, then of the others (tokens when counted). */
function keptShares(stats: { keepBy: KeepBy; sentences: { kept: number; total: number }; bytes: { kept: number; total: number }; tokens?: { kept: number; total: number } }): string {
  const pct = (c: { kept: number; total: number }) => (100 * (c.total ? c.kept / c.total : 0)).toFixed(2);
  const { sentences: s, bytes: b, tokens: t } = stats;
  const tokens = t && stats.keepBy !== 'tokens' ? `, ${t.kept}/${t.total} tokens (${pct(t)}%)` : '';
  if (stats.keepBy === 'tokens' && t) return `${pct(t)}% of the tokens (${t.kept}/${t.total}), ${b.kept}/${b.total} bytes (${pct(b)}%), ${s.kept}/${s.total} sentences (${pct(s)}%)`;
  return stats.keepBy === 'bytes'
    ? `${pct(b)}% of the bytes (${b.kept}/${b.total}), ${s.kept}/${s.total} sentences (${pct(s)}%)${tokens}`
    : `${pct(s)}% of the sentences (${s.kept}/${s.total}), ${b.kept}/${b.total} bytes (${pct(b)}%)${tokens}`;
}

/**
 * --out-format: given, or what the -o name says (.jsonl/.ndjson, .txt), or the input's own
 * format; inputs that mix plain text with records (JSONL, CSV, Parquet) are written as JSONL,
 * the one format that holds both.
 */
export function outFormatFor(given: 'text' | 'jsonl' | undefined, output: string | undefined, inputs: readonly InputKind[]): OutFormat {
  if (given) return given;
  const name = output?.replace(/\.(gz|zst|zstd)$/i, '') ?? '';
  if (/\.(jsonl|ndjson)$/i.test(name)) return 'jsonl';
  if (/\.(txt|text)$/i.test(name)) return 'text';
  // A format judged only as the bytes stream (a compressed file under an unhelpful name) is not known yet.
  const kinds = new Set(inputs.filter((k) => k.input !== STDIN && !k.formatFromStream).map((k) => (k.format === 'text' ? 'text' : 'record')));
  return kinds.size > 1 ? 'jsonl' : 'input';
}

/** --input-ranges: auto keeps runFilter's default threshold. */
function rangeMinBytesFrom(when: string | undefined): { rangeMinBytes?: number } {
  if (when === 'on') return { rangeMinBytes: 0 };
  if (when === 'off') return { rangeMinBytes: Infinity };
  return {};
}
