import { TadpoleError } from '../core/errors.js';
import { bool, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { describeRun } from '../commands/runs.js';

const spec: CommandSpec = {
  name: 'runs',
  summary: "show a run directory's ledger: settings, inputs, shards, checkpoints, events",
  usage: 'tadpole runs DIR [--json]',
  flags: [{ name: 'json', type: 'boolean', help: 'Print the ledger as one JSON object' }],
};

export const command: Command = {
  spec,
  async run(args, io) {
    const dir = args.positionals[0];
    if (!dir) throw new TadpoleError('TADPOLE_USAGE', 'give the run directory: tadpole runs DIR');
    const report = describeRun(dir);
    const { meta, shards, checkpoints } = report;
    const identity = meta.identity;
    if (bool(args, 'json')) {
      io.stdout.write(JSON.stringify(report, null, 2) + '\n');
      return 0;
    }
    const out: string[] = [];
    out.push(`run ${dir}: ${meta.kind ?? '?'} run, status ${meta.status ?? '?'}, stage ${meta.stage ?? '?'}, created ${meta.created ?? '?'}`);
    if (identity) out.push(`  model sha256 ${String(identity.modelSha256).slice(0, 16)}..., segment ${String(identity.segment)}, shards ${String(identity.of)}${identity.keep !== undefined ? `, keep ${String(identity.keep)} by ${String(identity.keepBy)}` : ''}`);
    if (meta.completion) out.push(`  model fitted without --general, completed from the inputs: sample fingerprint ${meta.completion} (completed-model.json)`);
    out.push('inputs:');
    for (const f of report.inputs) out.push(`  ${f.idx}: ${f.path}  ${f.size >= 0 ? `${f.size} bytes` : 'stdin'}${f.gzip ? ', gzip' : ''}  ${f.headTailSha256.slice(0, 12)}`);
    out.push('shards:');
    out.push('  shard   stage  status       docs   segments  MB read  checkpoints  resumes  seconds  updated');
    for (const s of shards) {
      out.push(
        `  ${`${s.shard}/${s.of}`.padEnd(7)} ${s.stage.padEnd(6)} ${s.status.padEnd(11)} ${String(s.docs).padStart(6)} ${String(s.segments).padStart(10)} ${(s.bytesConsumed / 1e6).toFixed(1).padStart(8)} ${String(s.checkpoints).padStart(12)} ${String(s.resumes).padStart(8)} ${s.seconds.toFixed(1).padStart(8)}  ${s.updated}`,
      );
    }
    if (checkpoints.length) {
      out.push('latest checkpoints:');
      for (const c of checkpoints) out.push(`  ${c.shard}/${c.of} ${c.stage} #${c.seq} at ${c.at}: input ${c.position?.input} byte ${c.position?.offset}, ${c.spillRecords} segments${c.outputBytes !== undefined ? `, output ${c.outputBytes} bytes` : ''}`);
    }
    if (report.cut) out.push(`cut: keep ${report.cut.keep} by ${report.cut.keepBy}: ${report.cut.keptSegments}/${report.cut.totalSegments} segments, threshold ${report.cut.threshold}`);
    out.push('events (latest 20):');
    for (const e of report.events.slice(-20)) out.push(`  ${e.at} ${e.shard === null ? '-' : e.shard} ${e.kind}: ${e.detail}`);
    io.stdout.write(out.join('\n') + '\n');
    return 0;
  },
};
