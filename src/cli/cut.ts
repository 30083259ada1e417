import { TadpoleError } from '../core/errors.js';
import { bool, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { budgetShortfall, keepByCutFlag, keepByFrom, keepFlag, keepFrom } from './keep-by.js';
import { writeFileAtomic } from '../io/atomic.js';
import { cutStage } from '../commands/cut.js';

const spec: CommandSpec = {
  name: 'cut',
  summary: 'merge every shard of a run into one exact global cut (after tadpole score --shard)',
  usage: 'tadpole cut --run-dir DIR [--keep 0.2|5GB|2e9] [--keep-by bytes|sentences|tokens]',
  flags: [
    { name: 'run-dir', type: 'string', arg: 'DIR', help: 'The run directory the shards were scored into (required)' },
    keepFlag,
    keepByCutFlag,
    { name: 'stats', role: 'output-file', type: 'string', arg: 'FILE', help: 'Also write the cut (threshold, per-shard offsets, merged counters) here as JSON' },
    { name: 'quiet', alias: 'q', type: 'boolean', help: 'No summary on stderr' },
  ],
  notes: `Refuses while a shard has no completion marker. Writes DIR/cut.json; then run tadpole emit for each shard. A cut that differs from the run's earlier one removes the parts emitted under it (DIR/parts), so every shard is emitted again.`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const runDir = str(args, 'runDir');
    if (!runDir) throw new TadpoleError('TADPOLE_USAGE', '--run-dir DIR is required');
    const keepBy = keepByFrom(args, runDir);
    const keep = keepFrom(args, keepBy);
    const { replaced, ...cut } = await cutStage(runDir, keep, keepBy, io.env.TADPOLE_TEST_CRASH_AT);
    const statsPath = str(args, 'stats');
    if (statsPath) writeFileAtomic(statsPath, JSON.stringify(cut, null, 2) + '\n');
    const short = budgetShortfall(keep, keepBy, { [keepBy]: { total: cut.totalWeight } });
    if (short) io.stderr.write(`tadpole: warning: ${short}\n`);
    if (!bool(args, 'quiet')) {
      io.stderr.write(`tadpole: cut over ${cut.of} shard(s): keep ${cut.keptSegments}/${cut.totalSegments} segments (${cut.keptWeight}/${cut.totalWeight} ${cut.keepBy}), threshold ${cut.threshold}\n`);
    }
    // Even with -q: the parts of the earlier cut are gone, and every shard must be emitted again.
    if (replaced) {
      const elsewhere = replaced.elsewhere.length ? `; outputs emitted elsewhere under it are stale: ${replaced.elsewhere.join(' ')}` : '';
      io.stderr.write(`tadpole: this cut replaces the earlier one (keep ${replaced.keep} by ${replaced.keepBy}): removed ${replaced.removed.length} part(s) of it from ${runDir}/parts${elsewhere}; run tadpole emit for every shard again\n`);
    }
    return 0;
  },
};
