import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/package-root.js';
import { EXIT, storageFault, TadpoleError, writeFailure } from '../core/errors.js';
import { printable } from '../core/printable.js';
import { HELP_WIDTH, helpText, parseArgs, wrap } from './args.js';
import { closest } from '../core/suggest.js';
import { preflight } from './preflight.js';
import { limitFault } from '../core/limits.js';
import { guardSignals } from '../core/signals.js';
import { onStaleTemps } from '../io/atomic.js';
import type { CliIO, Command } from './command.js';

/** Commands load lazily: `tadpole split` never loads onnxruntime or SQLite. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ command: Command }> }> = {
  fit: { summary: 'fit a filter on task text -> model file', load: () => import('./fit.js') },
  filter: { summary: 'keep the most task-like share of a corpus (two passes, exact share)', load: () => import('./filter.js') },
  score: { summary: 'per-sentence or per-segment scores as JSONL', load: () => import('./score.js') },
  split: { summary: 'split documents into sentences', load: () => import('./split.js') },
  inspect: { summary: 'group a text (e.g. what filter kept) by what it talks about; write groups to --avoid', load: () => import('./inspect.js') },
  rank: { summary: "rank anomaly detectors on your task (the paper's Table 1)", load: () => import('./rank.js') },
  eval: { summary: "compare selection methods on a labelled mix (the paper's Figure 5)", load: () => import('./eval.js') },
  model: { summary: 'show what a fitted model file holds; download (pull) and list ONNX models in the cache', load: () => import('./model.js') },
  cut: { summary: 'merge scored shards into one exact global cut (run directories)', load: () => import('./cut.js') },
  emit: { summary: "write one shard's kept text after the cut (run directories)", load: () => import('./emit.js') },
  runs: { summary: "show a run directory's ledger (progress, checkpoints, events)", load: () => import('./runs.js') },
  demo: { summary: 'fit and filter on the built-in real text (a biomedical task, a mix of five sources)', load: () => import('./demo.js') },
};

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return 'unknown';
  }
}

function topHelp(columns: number): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  const lines = [
    'tadpole: keep the slice of a huge general corpus that looks like your task data (TADPOLE).',
    '',
    'Usage: tadpole <command> [options]    (tadpole <command> --help for its options)',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).flatMap(([name, c]) => wrap(c.summary, columns - 2 - width).map((line, i) => `  ${(i === 0 ? name : '').padEnd(width)}${line}`)),
    '',
    ...wrap('Exit codes: 0 ok, 1 failure, 2 usage, 3 bad input, 4 model/embedder, 5 output (I/O), 6 a limit (open files, memory, threads), 130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP).', columns),
  ];
  return lines.join('\n') + '\n';
}

export function processIO(): CliIO {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, stderrIsTTY: !!process.stderr.isTTY, env: process.env, cwd: process.cwd() };
}

/** Help is wrapped to the terminal it is shown on, and to HELP_WIDTH columns anywhere else. */
function helpColumns(io: CliIO): number {
  const out = io.stdout as { isTTY?: boolean; columns?: number };
  return out.isTTY && out.columns ? Math.min(out.columns, 160) : HELP_WIDTH;
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  // `tadpole help CMD [SUB...]` is `tadpole CMD [SUB...] --help`, an unknown CMD included.
  if (name === 'help' && rest.length > 0) return main([...rest, '--help'], io);
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(topHelp(helpColumns(io)));
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`tadpole ${version()}\n`);
    return EXIT.ok;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    const guess = closest(name, Object.keys(COMMANDS));
    io.stderr.write(`tadpole: unknown command "${name}"; ${guess ? `did you mean "${guess}"? ` : ''}commands: ${Object.keys(COMMANDS).join(', ')} (see tadpole --help)\n`);
    return EXIT.usage;
  }
  // Before the command's modules load (seconds for the ONNX runtime): a signal from here on
  // exits with its code and one line, never Node's silent default.
  const unguard = guardSignals(name);
  try {
    const { command } = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(helpText(command.spec, helpColumns(io)) + (command.help?.(rest) ?? ''));
      return EXIT.ok;
    }
    const args = parseArgs(command.spec, rest);
    preflight(command.spec, args, io.cwd);
    if (args.flags.quiet !== true) onStaleTemps((removed) => io.stderr.write(`tadpole: removed ${removed.length} leftover${removed.length === 1 ? '' : 's'} of runs that died: ${removed.map(printable).join(', ')}\n`));
    return await command.run(args, io);
  } catch (err) {
    // Before a TadpoleError's own words: "cannot read input (EMFILE)" is a limit, not a bad input.
    const limit = limitFault(err);
    if (limit) {
      io.stderr.write(`tadpole ${name}: error: ${printable(limit)}\n`);
      return EXIT.limit;
    }
    if (err instanceof TadpoleError) {
      io.stderr.write(`tadpole ${name}: error: ${printable(err.message)}\n`);
      return err.exitCode;
    }
    const e = err as NodeJS.ErrnoException;
    if (e?.code === 'EPIPE') return EXIT.ok;
    // A write that no step named (a full or read-only disk under a scratch file) is still exit 5 and one line.
    if (storageFault(err)) {
      io.stderr.write(`tadpole ${name}: error: ${printable(writeFailure(e.path ?? 'a file', err).message)}\n`);
      return EXIT.io;
    }
    io.stderr.write(`tadpole ${name}: internal error: ${e?.stack ?? String(err)}\n`);
    return EXIT.failure;
  } finally {
    onStaleTemps(undefined);
    unguard();
  }
}
