import { writeFileSync } from 'node:fs';
import { TadpoleError } from '../core/errors.js';
import type { KeepBy } from '../cut/exact.js';
import { checkOutputCompression } from '../io/compressed-output.js';
import { Sink } from '../io/sink.js';
import { readModel } from '../model/file.js';
import { warnNearRandom } from './model-warnings.js';
import { runFilter } from '../pipeline/filter.js';
import { runFilterInDir } from '../pipeline/filter-dir.js';
import { fileSha256 } from '../shard/fingerprint.js';
import { interruptExit, trapSignals } from '../shard/signals.js';
import { bool, num, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { workersFlag, workersFrom } from './workers.js';
import { docContextFlag, docContextFrom } from './doc-context.js';
import { embedderFlags, embedderOverridesFrom, endProgress, inputsFrom, progressFor, readerFlags, readerOptionsFrom } from './common.js';
import { readerSummary } from './reader-summary.js';

const spec: CommandSpec = {
  name: 'filter',
  summary: 'keep the share of a corpus that looks most like the task (two passes, exact share)',
  usage: 'tadpole filter --model model.json [--keep 0.2] [options] [FILE... | -] [-o OUT]',
  flags: [
    { name: 'model', alias: 'm', type: 'string', arg: 'FILE', help: 'Model file from tadpole fit (required)' },
    { name: 'keep', type: 'number', arg: 'SHARE', default: 0.2, help: 'Share to keep, 0..1 (exact to within one segment)' },
    { name: 'segment', type: 'int', arg: 'N', default: 15, help: 'Sentences per segment (segments never cross documents)' },
    docContextFlag,
    { name: 'keep-by', type: 'string', choices: ['sentences', 'bytes'], default: 'sentences', arg: 'UNIT', help: 'What --keep counts' },
    { name: 'input-ranges', type: 'string', choices: ['auto', 'on', 'off'], default: 'auto', arg: 'WHEN', help: 'With --workers > 1, cut the input into ranges that the threads read and filter apart, at document boundaries (a compressed file is one range); auto: for 64 MB or more that gives every thread two ranges or more; off: one reader hands batches to the threads (always so for stdin)' },
    { name: 'threshold', type: 'number', arg: 'T', help: 'Keep segments scoring <= T in ONE streaming pass (no cut; reuse a threshold from --stats)' },
    { name: 'weights', type: 'boolean', help: 'Write every segment as JSONL with its weight 1/(1+e^(-C(alpha - z))) instead of cutting' },
    { name: 'C', type: 'number', arg: 'C', default: 1, help: '--weights: sensitivity C' },
    { name: 'alpha', type: 'number', arg: 'A', default: 0, help: '--weights: offset alpha (in standard deviations)' },
    { name: 'output', alias: 'o', type: 'string', arg: 'FILE', help: 'Output file (written to a temp file, renamed on success; *.gz / *.zst compressed) [default: stdout]' },
    { name: 'stats', type: 'string', arg: 'FILE', help: 'Write a JSON summary: counts, threshold, seconds per stage' },
    { name: 'work-dir', type: 'string', arg: 'DIR', help: 'Folder for the spill file and stdin spool [default: a temp folder]' },
    { name: 'batch-sentences', type: 'int', arg: 'N', help: 'Sentences per scoring batch [default: 4096]' },
    { name: 'run-dir', type: 'string', arg: 'DIR', help: 'Keep the run in DIR (spill, sketch, stdin spool, checkpoints, SQLite ledger) so --resume can continue it after a crash' },
    { name: 'resume', type: 'boolean', help: 'With --run-dir: continue the run from its last checkpoint (same command and inputs)' },
    { name: 'checkpoint-seconds', type: 'number', arg: 'S', default: 2, help: 'With --run-dir: seconds between checkpoints (work lost on a crash is at most this plus one batch)' },
    { name: 'quiet', alias: 'q', type: 'boolean', help: 'No progress on stderr' },
    workersFlag,
    ...readerFlags,
    ...embedderFlags,
  ],
  notes: `Inputs: files, folders (the corpus files under them, sorted by path), quoted globs, or - / nothing for stdin
(spooled to disk for pass 2). Text, JSONL and Parquet; gzip, zstd, xz and UTF-16 decoded, found by magic bytes.
Output is verbatim input text: kept runs of segments, separated as documents are in the input format.
Examples:
  tadpole filter --model model.json --keep 0.2 corpus.txt -o kept.txt --stats stats.json
  zcat corpus.jsonl.gz | tadpole filter -m model.json --format jsonl > kept.jsonl
  tadpole filter -m model.json --threshold 0.013 --format jsonl < part.jsonl > kept.jsonl
  tadpole filter -m model.json corpus.jsonl -o kept.jsonl --run-dir run/     # kill it, then add --resume
With --run-dir and no -o, the output goes to stdout once the run is complete (so a resumed run writes it whole).
SIGINT/SIGTERM: stop after the current batch (exit 130/143); with --run-dir the checkpoint is kept for --resume.`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const modelPath = str(args, 'model');
    if (!modelPath) throw new TadpoleError('TADPOLE_USAGE', '--model FILE is required (create one with tadpole fit)');
    const model = readModel(modelPath);
    warnNearRandom(model, io);
    const reader = readerOptionsFrom(args);
    // Before any sink exists: a folder or glob with nothing in it leaves no output file.
    const inputs = inputsFrom(args);
    const output = str(args, 'output');
    checkOutputCompression(output);
    const quiet = bool(args, 'quiet');
    const progress = progressFor(io, quiet);
    const threshold = num(args, 'threshold');
    const statsPath = str(args, 'stats');
    const workDir = str(args, 'workDir');
    const batch = num(args, 'batchSentences');
    const overrides = embedderOverridesFrom(args, io);
    const runDir = str(args, 'runDir');
    const workers = workersFrom(args, inputs);
    const keep = num(args, 'keep') ?? 0.2;
    const segment = num(args, 'segment') ?? 15;
    const docContext = docContextFrom(args);
    const keepBy = (str(args, 'keepBy') ?? 'sentences') as KeepBy;
    if (!runDir && bool(args, 'resume')) throw new TadpoleError('TADPOLE_USAGE', '--resume needs --run-dir DIR (the run to continue)');
    if (runDir && (threshold !== undefined || bool(args, 'weights') || workDir)) {
      throw new TadpoleError('TADPOLE_USAGE', '--run-dir works with the exact cut only: drop --threshold/--weights/--work-dir (the threshold mode is one streaming pass with nothing to resume)');
    }
    const log = quiet ? undefined : (line: string) => io.stderr.write(`tadpole: ${line}\n`);
    const trap = trapSignals();
    let stats;
    try {
      if (runDir) {
        stats = await runFilterInDir({
          runDir,
          resume: bool(args, 'resume'),
          inputs,
          reader,
          model,
          modelSha256: fileSha256(modelPath),
          embedder: overrides,
          keep,
          segment,
          docContext,
          keepBy,
          ...(output ? { output } : {}),
          stdout: io.stdout,
          stdin: io.stdin,
          ...(batch ? { batchSentences: batch } : {}),
          workers,
          checkpointSeconds: num(args, 'checkpointSeconds') ?? 2,
          signal: trap.signal,
          ...(progress ? { progress } : {}),
          ...(log ? { log } : {}),
          args: ['filter', JSON.stringify(args.flags), ...args.positionals],
          ...(io.env.TADPOLE_TEST_CRASH_AT ? { crashAt: io.env.TADPOLE_TEST_CRASH_AT } : {}),
        });
      } else {
        const sink = output ? Sink.toFile(output) : Sink.toStream(io.stdout);
        stats = await runFilter({
          inputs,
          reader,
          model,
          embedder: overrides,
          keep,
          segment,
          docContext,
          keepBy,
          ...(threshold !== undefined ? { threshold } : {}),
          ...(bool(args, 'weights') ? { weights: { C: num(args, 'C') ?? 1, alpha: num(args, 'alpha') ?? 0 } } : {}),
          sink,
          stdin: io.stdin,
          ...(workDir ? { workDir } : {}),
          ...(batch ? { batchSentences: batch } : {}),
          workers,
          ...rangeMinBytesFrom(str(args, 'inputRanges')),
          ...(progress ? { progress } : {}),
          ...(log ? { log } : {}),
          signal: trap.signal,
        });
      }
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
    if (statsPath) writeFileSync(statsPath, JSON.stringify(stats, null, 2) + '\n');
    const skipped = readerSummary(stats.reader, { textField: reader.textField, stats: true });
    if (skipped) io.stderr.write(`tadpole: ${skipped}\n`);
    if (!quiet && !stats.closedEarly) {
      const share = stats.sentences.total ? stats.sentences.kept / stats.sentences.total : 0;
      io.stderr.write(`tadpole: kept ${stats.segments.kept}/${stats.segments.total} segments, ${stats.sentences.kept}/${stats.sentences.total} sentences (${(100 * share).toFixed(2)}%) in ${stats.seconds.total.toFixed(1)}s\n`);
    }
    return 0;
  },
};

/** --input-ranges: auto keeps runFilter's default threshold. */
function rangeMinBytesFrom(when: string | undefined): { rangeMinBytes?: number } {
  if (when === 'on') return { rangeMinBytes: 0 };
  if (when === 'off') return { rangeMinBytes: Infinity };
  return {};
}
