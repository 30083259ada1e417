import { TadpoleError } from '../core/errors.js';
import { interruptExit, trapSignals } from '../core/signals.js';
import { bool, numWithDefault, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { endProgress, progressFor } from './common.js';
import { checkOutputCompression } from '../io/compressed-output.js';
import { shardAutoHelp, shardFrom, shardsFlag } from './shard-flag.js';
import { emitStage } from '../commands/emit.js';

const spec: CommandSpec = {
  name: 'emit',
  summary: "write one shard's kept text (after tadpole cut)",
  usage: 'tadpole emit --run-dir DIR --shard I/N|auto [-o FILE | -o -]',
  flags: [
    { name: 'run-dir', type: 'string', arg: 'DIR', help: 'The run directory (required)' },
    { name: 'shard', type: 'string', arg: 'I/N', help: `Which shard, as scored (required): ${shardAutoHelp}` },
    shardsFlag,
    { name: 'output', role: 'output-file', alias: 'o', type: 'string', arg: 'FILE', help: 'Output file, or - for stdout [default: DIR/parts/part-IIIII-of-NNNNN]' },
    { name: 'resume', type: 'boolean', help: 'Continue a partial emit from its checkpoint' },
    { name: 'checkpoint-seconds', min: 0, type: 'number', arg: 'S', default: 2, help: 'Seconds between checkpoints' },
    { name: 'quiet', alias: 'q', type: 'boolean', help: 'No progress or summary on stderr' },
  ],
  notes: `Inputs, format and segment size come from the run's ledger; inputs that changed since scoring
are refused. The parts in shard order concatenate to the output of tadpole filter, byte for byte:
  cat DIR/parts/part-* > kept`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const runDir = str(args, 'runDir');
    if (!runDir) throw new TadpoleError('TADPOLE_USAGE', '--run-dir DIR is required');
    const shardSpec = str(args, 'shard');
    if (!shardSpec) throw new TadpoleError('TADPOLE_USAGE', '--shard I/N (or --shard auto) is required');
    const id = shardFrom(shardSpec, args, io, 'emit');
    const output = str(args, 'output');
    if (output !== '-') checkOutputCompression(output);
    const quiet = bool(args, 'quiet');
    const progress = progressFor(io, quiet);
    const trap = trapSignals('emit', 'the partial output is kept: rerun with --resume');
    try {
      const s = await emitStage({
        runDir,
        id,
        resume: bool(args, 'resume'),
        ...(output && output !== '-' ? { output } : {}),
        ...(output === '-' ? { stdout: io.stdout } : {}),
        checkpointSeconds: numWithDefault(args, 'checkpointSeconds'),
        signal: trap.signal,
        ...(progress ? { progress } : {}),
        ...(io.env.TADPOLE_TEST_CRASH_AT ? { crashAt: io.env.TADPOLE_TEST_CRASH_AT } : {}),
      });
      if (progress) endProgress(io, quiet);
      if (!quiet) io.stderr.write(`tadpole: shard ${id.shard}/${id.of}: kept ${s.segments.kept}/${s.segments.total} segments, ${s.outputBytes} bytes -> ${output === '-' ? 'stdout' : s.target}\n`);
      return 0;
    } catch (err) {
      const code = interruptExit(err);
      if (code === undefined) throw err;
      io.stderr.write('tadpole emit: interrupted; checkpoint kept: rerun with --resume\n');
      return code;
    } finally {
      trap.dispose();
    }
  },
};
