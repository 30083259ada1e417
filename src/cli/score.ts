import { TadpoleError } from '../core/errors.js';
import { tokenizerFlag } from './keep-by.js';
import { workersFlag } from './workers.js';
import { docContextFlag, docContextFrom } from './doc-context.js';
import { bool, num, numWithDefault, str, strWithDefault, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { embedderFlags, embedderOverridesFrom, endProgress, inputsFrom, progressFor, readerFlags, readerOptionsFrom } from './common.js';
import { interruptExit, trapSignals } from '../core/signals.js';
import { readerSummary } from './reader-summary.js';
import { shardAutoHelp, shardFrom, shardsFlag } from './shard-flag.js';
import { scoreCorpus } from '../commands/score.js';

const spec: CommandSpec = {
  name: 'score',
  summary: 'print per-sentence (or per-segment) scores as JSONL; lower = more task-like',
  usage: 'tadpole score --model model.json [--segments] [FILE... | -] [-o OUT]',
  positionalInputs: true,
  flags: [
    { name: 'model', group: 'Scores', role: 'input', alias: 'm', type: 'string', arg: 'FILE', help: 'Model file from tadpole fit (required)' },
    { name: 'segments', group: 'Scores', type: 'boolean', help: 'One record per segment instead of per sentence' },
    { name: 'segment', group: 'Scores', min: 1, type: 'int', arg: 'N', default: 15, help: 'Sentences per segment' },
    { ...docContextFlag, group: 'Scores' },
    { name: 'no-text', group: 'Output', type: 'boolean', help: 'Leave the text out of the records' },
    { name: 'output', group: 'Output', role: 'output-file', alias: 'o', type: 'string', arg: 'FILE', help: 'Output file, or s3://BUCKET/KEY [default: stdout]' },
    { name: 'run-dir', group: 'Runs', role: 'output-dir', type: 'string', arg: 'DIR', help: 'Shard mode: score one shard into DIR (spill, sketch, stats, done marker) instead of printing scores' },
    { name: 'shard', group: 'Runs', type: 'string', arg: 'I/N', default: '0/1', help: `Shard mode: which shard of the input, cut at document boundaries (gzip files go whole): ${shardAutoHelp}` },
    { ...shardsFlag, group: 'Runs' },
    { name: 'resume', group: 'Runs', type: 'boolean', help: 'Shard mode: continue a partial attempt from its checkpoint (safe on a fresh shard too)' },
    { name: 'checkpoint-seconds', group: 'Runs', min: 0.01, type: 'number', arg: 'S', default: 2, help: 'Shard mode: seconds between checkpoints' },
    { ...tokenizerFlag, group: 'Runs', help: "Shard mode: a Hugging Face tokenizer.json (the language model's) whose tokens pass 1 counts in each segment, for tadpole cut --keep-by tokens; every shard of a run names the same file" },
    { name: 'batch-sentences', group: 'Speed', min: 1, type: 'int', arg: 'N', help: 'Sentences per scoring batch [default: 4096]' },
    { name: 'quiet', group: 'Output', alias: 'q', type: 'boolean', help: 'No progress or summary on stderr' },
    { ...workersFlag, group: 'Speed' },
    ...readerFlags.map((f) => ({ ...f, group: 'Input' })),
    ...embedderFlags.map((f) => ({ ...f, group: 'ONNX embedder' })),
  ],
  notes: `Records: {"doc","i","score","text"} per sentence; with --segments {"doc","segment","first","sentences","score","text"}.
Shard mode (many machines): every shard with the same inputs and model, then one cut, then emit per shard:
  tadpole score -m model.json --run-dir run/ --shard 3/8 corpus/*.jsonl.gz
  tadpole cut --run-dir run/ --keep 0.2
  tadpole emit --run-dir run/ --shard 3/8          # -> run/parts/part-00003-of-00008
  cat run/parts/part-* > kept.jsonl                 # == tadpole filter output, byte for byte
In a job array (Slurm, Kubernetes Indexed Job, AWS Batch, Cloud Run), --shard auto in score and emit
takes I/N from the launcher's variables.`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const modelPath = str(args, 'model');
    if (!modelPath) throw new TadpoleError('TADPOLE_USAGE', '--model FILE is required (create one with tadpole fit)');
    const reader = readerOptionsFrom(args);
    const runDir = str(args, 'runDir');
    const id = runDir ? shardFrom(strWithDefault(args, 'shard'), args, io, 'score') : undefined;
    const quiet = bool(args, 'quiet');
    const progress = runDir ? progressFor(io, quiet) : undefined;
    const batch = num(args, 'batchSentences');
    const inputs = inputsFrom(args);
    const output = str(args, 'output');
    const tokenizer = str(args, 'tokenizer');
    if (tokenizer && !runDir) throw new TadpoleError('TADPOLE_USAGE', '--tokenizer counts tokens for a cut: use it with --run-dir (tadpole cut --keep-by tokens)');
    const log = quiet ? undefined : (line: string) => io.stderr.write(`tadpole: ${line}\n`);
    // Shard mode keeps its checkpoint on Ctrl-C: the signal ends the stage, which says so.
    const trap = runDir ? trapSignals('score', 'the shard is kept: rerun with --resume') : undefined;
    try {
      const done = await scoreCorpus({
        model: modelPath,
        inputs,
        reader,
        embedder: embedderOverridesFrom(args, io),
        workers: num(args, 'workers'),
        segment: numWithDefault(args, 'segment'),
        docContext: docContextFrom(args),
        stdin: io.stdin,
        ...(log ? { log } : {}),
        segments: bool(args, 'segments'),
        withText: !bool(args, 'noText'),
        ...(output ? { output } : {}),
        stdout: io.stdout,
        ...(runDir && id
          ? {
              runDir: {
                dir: runDir,
                shard: id,
                resume: bool(args, 'resume'),
                checkpointSeconds: numWithDefault(args, 'checkpointSeconds'),
                ...(batch ? { batchSentences: batch } : {}),
                ...(tokenizer ? { tokenizer } : {}),
                ...(trap ? { signal: trap.signal } : {}),
                ...(progress ? { progress } : {}),
                args: ['score', JSON.stringify(args.flags), ...args.positionals],
                ...(io.env.TADPOLE_TEST_CRASH_AT ? { crashAt: io.env.TADPOLE_TEST_CRASH_AT } : {}),
              },
            }
          : {}),
      });
      if (done.mode === 'records') {
        const skipped = done.closedEarly ? undefined : readerSummary(done.reader, { textField: reader.textField, stats: false });
        if (skipped) io.stderr.write(`tadpole: ${skipped}\n`);
        return 0;
      }
      if (progress) endProgress(io, quiet);
      const skipped = readerSummary(done.reader, { textField: reader.textField, stats: false });
      if (skipped) io.stderr.write(`tadpole: ${skipped}\n`);
      if (!quiet) io.stderr.write(`tadpole: shard ${done.shard}/${done.of} scored: ${done.docs} docs, ${done.segments} segments, ${done.sentences} sentences in ${done.seconds.toFixed(1)}s\n`);
      return 0;
    } catch (err) {
      const code = trap ? interruptExit(err) : undefined;
      if (code === undefined) throw err;
      io.stderr.write(`tadpole score: interrupted; checkpoint kept: rerun with --resume\n`);
      return code;
    } finally {
      trap?.dispose();
    }
  },
};
