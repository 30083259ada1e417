import { TadpoleError } from '../core/errors.js';
import { interruptExit, trapSignals } from '../core/signals.js';
import { bool, num, numWithDefault, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { workersFlag } from './workers.js';
import { budgetShortfall, keepByCutFlag, keepByFrom, keepFlag, keepFrom, tokenizerFlag } from './keep-by.js';
import { docContextFlag, docContextFrom } from './doc-context.js';
import { embedderFlags, embedderOverridesFrom, endProgress, ERASE_LINE, inputsFrom, progressFor, readerFlags, readerOptionsFrom } from './common.js';
import { readerSummary } from './reader-summary.js';
import type { KeepBy } from '../cut/exact.js';
import { describeTaskShare } from '../cut/share-estimate.js';
import { writeFileAtomic } from '../io/atomic.js';
import { checkOutputCompression } from '../io/compressed-output.js';
import { Sink } from '../io/sink.js';
import { describeHeldOut } from '../model/describe.js';

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
    const reader = readerOptionsFrom(args);
    // Before any sink exists: a folder or glob with nothing in it leaves no output file.
    const inputs = inputsFrom(args);
    const output = str(args, 'output');
    checkOutputCompression(output);
    const quiet = bool(args, 'quiet');
    const verbose = bool(args, 'verbose');
    const progress = progressFor(io, quiet);
    const statsPath = str(args, 'stats');
    const runDir = str(args, 'runDir');
    const keepBy = keepByFrom(args, runDir);
    const keep = keepFrom(args, keepBy);
    if (!runDir && bool(args, 'resume')) throw new TadpoleError('TADPOLE_USAGE', '--resume needs --run-dir DIR (the run to continue)');
    // Warnings go to stderr under -q too: they are about the model and the data, not progress.
    const warn = (line: string) => io.stderr.write(`tadpole: warning: ${line}\n`);
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
      // Loaded once the flags are read: the library's modules load in a second wave, so a
      // process near its `ulimit -n` floor never holds the whole graph's files open at once.
      const { runFilter } = await import('../commands/filter.js');
      // The library normalises these once (commands/filter-options.ts): it resolves the inputs,
      // applies the defaults, refuses what no mode can run, and makes the output file last.
      stats = await runFilter({
        inputs,
        reader,
        model: modelPath,
        embedder: embedderOverridesFrom(args, io),
        keep,
        keepBy,
        segment: numWithDefault(args, 'segment'),
        docContext: docContextFrom(args),
        tokenizer: str(args, 'tokenizer'),
        threshold: num(args, 'threshold'),
        weights: bool(args, 'weights') ? { C: numWithDefault(args, 'C'), alpha: numWithDefault(args, 'alpha') } : undefined,
        outFormat: str(args, 'outFormat') as 'text' | 'jsonl' | undefined,
        stdin: io.stdin,
        workDir: str(args, 'workDir'),
        batchSentences: num(args, 'batchSentences'),
        workers: num(args, 'workers'),
        rangeMinBytes: rangeMinBytesFrom(str(args, 'inputRanges')),
        progress,
        log,
        detail,
        warn,
        signal: trap.signal,
        output: runDir ? undefined : output,
        sink: runDir || output ? undefined : Sink.toStream(io.stdout),
        runDir: runDir
          ? {
              dir: runDir,
              resume: bool(args, 'resume'),
              output,
              stdout: io.stdout,
              checkpointSeconds: numWithDefault(args, 'checkpointSeconds'),
              args: ['filter', JSON.stringify(args.flags), ...args.positionals],
              crashAt: io.env.TADPOLE_TEST_CRASH_AT,
            }
          : undefined,
      });
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
    if (!quiet && (stats.taskShare || stats.taskShareNone)) io.stderr.write(`tadpole: ${describeTaskShare({ share: stats.taskShare, none: stats.taskShareNone }, stats.completion ? 'the corpus' : "the model's general sample")}\n`);
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

/** --input-ranges: auto keeps runFilter's default threshold. */
function rangeMinBytesFrom(when: string | undefined): number | undefined {
  if (when === 'on') return 0;
  if (when === 'off') return Infinity;
  return undefined;
}
