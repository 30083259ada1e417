import { TadpoleError } from '../core/errors.js';
import { num, type FlagSpec, type ParsedArgs } from './args.js';
import type { CliIO } from './command.js';
import { parseShard, type ShardId } from '../run/layout.js';
import { shardFromLauncher, SHARDS_ENV } from '../run/launcher.js';

export const shardAutoHelp = 'I/N (0-based), or auto: from the array variables of Slurm, a Kubernetes Indexed Job, AWS Batch or Cloud Run, said on stderr (also with -q)';

export const shardsFlag: FlagSpec = {
  name: 'shards',
  type: 'int',
  min: 1,
  arg: 'N',
  help: `With --shard auto: how many shards, where the launcher does not say (a Kubernetes Indexed Job's completions) [default: $${SHARDS_ENV}]`,
};

/** `--shard I/N`, or `--shard auto` read from the launcher's variables, said on stderr. */
export function shardFrom(spec: string, args: ParsedArgs, io: CliIO, command: string): ShardId {
  const shards = num(args, 'shards');
  if (spec.trim() !== 'auto') {
    if (shards !== undefined) throw new TadpoleError('TADPOLE_USAGE', '--shards N goes with --shard auto (--shard I/N says N itself)');
    return parseShard(spec);
  }
  const found = shardFromLauncher(io.env, shards);
  io.stderr.write(`tadpole ${command}: shard ${found.id.shard}/${found.id.of} from ${found.launcher} (${found.from})\n`);
  return found.id;
}
