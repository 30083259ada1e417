import { realpathSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { packageRoot } from '../core/package-root.js';
import { num, numWithDefault, strWithDefault, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { endProgress, progressFor, shellWord } from './common.js';
import { runDemo } from '../commands/demo.js';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'fit on a biomedical task and filter a mixed corpus of real text (both built in); print where the kept text came from',
  usage: 'tadpole demo [--dir tadpole-demo] [--docs N] [--keep 0.2]',
  flags: [
    { name: 'dir', role: 'output-dir', type: 'string', arg: 'DIR', default: 'tadpole-demo', help: 'Where the corpus, model, kept text and stats are written' },
    { name: 'docs', min: 1, type: 'int', arg: 'N', help: 'At most this many documents per source in the mixed corpus [default: all]' },
    { name: 'keep', min: 0.01, max: 1, type: 'number', arg: 'SHARE', default: 0.2, help: 'Share of the text (bytes) to keep' },
    { name: 'seed', type: 'int', arg: 'N', default: 0, help: 'Seed' },
  ],
  notes: `The task and the corpus ship with tadpole (corpora/builtin/, SOURCES.md there): the task is
250 PubMedQA abstracts; the corpus is 1,033 documents, a fifth of the characters each
from PubMedQA abstracts (none of the task's), OpenReview CS abstracts, Wikipedia articles, US
presidential speeches and Project Gutenberg books.`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const docs = num(args, 'docs');
    const keep = numWithDefault(args, 'keep');
    const progress = progressFor(io, false);
    const demo = await runDemo({
      dir: resolve(io.cwd, strWithDefault(args, 'dir')),
      ...(docs !== undefined ? { perSource: docs } : {}),
      keep,
      seed: numWithDefault(args, 'seed'),
      log: (line) => io.stderr.write(`demo: ${line}\n`),
      ...(progress ? { progress: { line: progress, end: () => endProgress(io, false) } } : {}),
    });
    const { stats } = demo;
    const keptAll = demo.sources.reduce((a, s) => a + s.kept, 0);
    const allAll = demo.sources.reduce((a, s) => a + s.total, 0);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    io.stdout.write(`Task: ${demo.task} sentences of PubMedQA abstracts (biomedical). Kept ${pct(stats.bytes.kept / stats.bytes.total)} of the corpus's text (${stats.sentences.kept} of ${stats.sentences.total} sentences) in ${stats.seconds.total.toFixed(1)} s.\n\n`);
    io.stdout.write(`${'source'.padEnd(34)}${'of corpus'.padStart(10)}${'of kept'.padStart(10)}${'of source kept'.padStart(16)}\n`);
    for (const { label, what, kept: k, total: t } of demo.sources) {
      io.stdout.write(`${`${label} (${what})`.padEnd(34)}${pct(t / allAll).padStart(10)}${pct(k / Math.max(1, keptAll)).padStart(10)}${pct(k / Math.max(1, t)).padStart(16)}\n`);
    }
    io.stdout.write('(shares of the bytes of text)\n');
    const bio = demo.sources.find((s) => s.label === 'bio');
    const bioShare = (bio?.total ?? 0) / allAll;
    io.stdout.write(
      `\nIn-domain precision: ${pct((bio?.kept ?? 0) / Math.max(1, keptAll))} of the kept text is biomedical; a random filter keeps ${pct(bioShare)} (bio's share of the corpus)` +
        (keep <= bioShare + 0.005 ? `, a perfect one 100%.\n` : `, a perfect one ${pct(Math.min(1, bioShare / keep))} (bio is ${pct(bioShare)} of the corpus, ${pct(keep)} is kept).\n`),
    );
    const tadpole = invocation(io.env);
    io.stdout.write(`\nKept text: ${demo.kept}\nStats: ${demo.statsFile}\nWhat it is made of, least task-like first:\n  ${tadpole} inspect ${shellWord(demo.kept)} --task ${shellWord(demo.taskFile)}\n`);
    if (tadpole !== 'tadpole') io.stdout.write(`(To type just \`tadpole\`, put it on your PATH: \`npm link\` in ${shellWord(packageRoot())}.)\n`);
    return 0;
  },
};

/**
 * How to run tadpole so that a printed command works as printed, from any folder: plain
 * `tadpole` when that name on the PATH is this package, else node and this package's bin.
 */
function invocation(env: NodeJS.ProcessEnv): string {
  const bin = join(packageRoot(), 'bin', 'tadpole.js');
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      if (realpathSync(join(dir, 'tadpole')) === realpathSync(bin)) return 'tadpole';
    } catch {
      // not in this folder
    }
  }
  return `node ${shellWord(bin)}`;
}
