import { writeFile, rename } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TadpoleError, usageError } from '../core/errors.js';
import { bool, list, num, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { loadSpec } from '../eval/spec.js';
import { runEval } from '../eval/run.js';
import { defaultEngineWith } from '../eval/engine-default.js';
import { evalWorkersFlag, workersFrom } from './workers.js';
import { formatTable, toJSON } from '../report/table.js';
import { renderReport } from '../report/html.js';

const spec: CommandSpec = {
  name: 'eval',
  summary: 'compare selection methods on a labelled mix of real text (the paper\'s Figure 5)',
  usage: 'tadpole eval --spec FILE [--json] [--report FILE] [--methods a,b] [--seed S] [--work-dir DIR] [--max-sentences N]',
  flags: [
    { name: 'spec', type: 'string', arg: 'FILE', help: 'evaluation spec (JSON; see corpora/README.md)' },
    { name: 'json', type: 'boolean', help: 'print the results as JSON instead of a table' },
    { name: 'report', type: 'string', arg: 'FILE', help: 'also write a self-contained HTML report' },
    { name: 'methods', type: 'list', arg: 'NAME...', help: 'run only these methods of the spec (names or titles, comma or space separated)' },
    { name: 'seed', type: 'int', arg: 'S', help: 'override the spec seed (mix order, samples, methods)' },
    { name: 'work-dir', type: 'string', arg: 'DIR', help: 'keep the mix and task files here (default: a temp folder, removed)' },
    { name: 'max-sentences', type: 'int', arg: 'N', help: 'score only the first N sentences of the mix (whole documents; proportions hold)' },
    evalWorkersFlag,
  ],
  notes: `Specs live in corpora/ (figure5-bio.json, figure5-cs.json, distractors-bio.json, smoke-bio.json).
Relative paths in a spec resolve against the shared folder ($TADPOLE_SHARED or ../shared).

Example:
  tadpole eval --spec corpora/smoke-bio.json --report report.html`,
};

async function writeAtomic(path: string, data: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (cause) {
    throw new TadpoleError('TADPOLE_IO', `cannot write ${path}: ${(cause as Error).message}`, { file: path, cause });
  }
}

export const command: Command = {
  spec,
  async run(args, io) {
    const specFile = str(args, 'spec') ?? args.positionals[0];
    if (!specFile) throw usageError(`tadpole eval needs --spec FILE; see 'tadpole eval --help'`);
    const evalSpec = await loadSpec(resolve(io.cwd, specFile));
    const seed = num(args, 'seed');
    if (seed !== undefined) evalSpec.seed = seed;
    const methods = list(args, 'methods').flatMap((m) => m.split(',')).filter(Boolean);
    const maxSentences = num(args, 'maxSentences');
    if (maxSentences !== undefined && maxSentences < 1) throw usageError(`--max-sentences must be at least 1, got ${maxSentences}`);
    const workDir = str(args, 'workDir');
    const log = io.stderrIsTTY ? (line: string) => io.stderr.write(`tadpole eval: ${line}\n`) : undefined;
    const result = await runEval(evalSpec, {
      engine: defaultEngineWith(workersFrom(args, undefined)),
      ...(methods.length ? { methods } : {}),
      ...(workDir ? { workDir: resolve(io.cwd, workDir) } : {}),
      ...(maxSentences !== undefined ? { maxSentences } : {}),
      ...(log ? { log } : {}),
    });
    const reportFile = str(args, 'report');
    if (reportFile) await writeAtomic(resolve(io.cwd, reportFile), renderReport(result, { generated: new Date().toISOString().slice(0, 10) }));
    io.stdout.write(bool(args, 'json') ? JSON.stringify(toJSON(result)) + '\n' : formatTable(result));
    return 0;
  },
};
