import { resolve } from 'node:path';
import { usageError } from '../core/errors.js';
import { bool, list, num, numWithDefault, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { evalWorkersFlag, workersFrom } from './workers.js';
import { keepByFlag, keepByFrom } from './keep-by.js';
import { formatSuite } from '../eval/suite.js';
import { evaluateSpecs } from '../report/evaluate.js';
import { formatTable, toJSON } from '../report/table.js';

const spec: CommandSpec = {
  name: 'eval',
  summary: 'compare selection methods on a labelled mix of real text (the paper\'s Figure 5)',
  usage: 'tadpole eval --spec FILE... | SPEC.json... [--json] [--report FILE] [--methods a,b] [--seed S] [--draws N] [--work-dir DIR] [--max-sentences N] [--keep-by bytes|sentences]',
  positionalInputs: true,
  flags: [
    { name: 'spec', role: 'input', type: 'list', arg: 'FILE...', help: 'evaluation spec(s) (JSON; see corpora/README.md); several specs (e.g. corpora/suite/*.json) add the suite table: every method x every mix, mean and minimum' },
    { name: 'json', type: 'boolean', help: 'print the results as JSON instead of a table' },
    { name: 'report', role: 'output-file', type: 'string', arg: 'FILE', help: 'also write a self-contained HTML report' },
    { name: 'methods', type: 'list', arg: 'NAME...', help: 'run only these methods of the spec (names or titles, comma or space separated); a method name the spec does not list (e.g. the peers tfidf, fasttext) runs too, with its defaults' },
    { name: 'seed', type: 'int', arg: 'S', help: 'override the spec seed (mix order, samples, methods)' },
    { name: 'draws', min: 1, type: 'int', arg: 'N', help: 'run every spec N times, with seeds S, S+1, ... (S: --seed or each spec\'s own): each draws the mix, the task sample and the general sample anew; then a table of the worst share over the draws, per method and mix', default: 1 },
    { name: 'work-dir', role: 'output-dir', type: 'string', arg: 'DIR', help: 'keep the mix and task files here (default: a temp folder, removed)' },
    { name: 'max-sentences', min: 1, type: 'int', arg: 'N', help: 'score only the first N sentences of the mix (whole documents; proportions hold)' },
    { ...keepByFlag, help: 'what a spec\'s keep counts, as filter\'s --keep-by (a "share" spec keeps the in-domain share of that unit)' },
    evalWorkersFlag,
  ],
  notes: `Specs live in corpora/ (figure5-bio.json, figure5-cs.json, distractors-bio.json, smoke-bio.json)
and the selection suite in corpora/suite/ (one task/mix pair per domain).
Relative paths in a spec resolve against the shared folder ($TADPOLE_SHARED or ../shared).
A spec, and the files it names, may be s3://, http(s):// or hf:// objects (one object each, not a prefix).
A spec with "keep": "share" (corpora/suite-scarce/) keeps the in-domain share of the mix's
text (of its sentences with --keep-by sentences), and its table (and the suite's) adds every method's one fit cut at 0.5x, 1x and 2x
that share: precision and recall in characters (--json has these cuts for every spec).

Examples:
  tadpole eval --spec corpora/smoke-bio.json --report report.html
  tadpole eval corpora/suite/*.json --methods random,dsir,tadpole
  tadpole eval corpora/suite/*.json --methods 'tadpole (default)',random --draws 3
  tadpole eval corpora/suite-scarce/*.json --methods 'tadpole (default)',random,dsir
  tadpole eval corpora/suite-scarce/*.json --methods 'tadpole (default)',tfidf,fasttext`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const specFiles = [...list(args, 'spec'), ...args.positionals];
    if (specFiles.length === 0) throw usageError(`tadpole eval needs --spec FILE; see 'tadpole eval --help'`);
    const seed = num(args, 'seed');
    const draws = numWithDefault(args, 'draws');
    if (draws < 1) throw usageError(`--draws must be at least 1, got ${draws}`);
    const methods = list(args, 'methods').flatMap((m) => m.split(',')).filter(Boolean);
    const maxSentences = num(args, 'maxSentences');
    if (maxSentences !== undefined && maxSentences < 1) throw usageError(`--max-sentences must be at least 1, got ${maxSentences}`);
    const workDir = str(args, 'workDir');
    const keepBy = keepByFrom(args);
    const log = io.stderrIsTTY ? (line: string) => io.stderr.write(`tadpole eval: ${line}\n`) : undefined;
    const json = bool(args, 'json');
    const reportFile = str(args, 'report');
    if (reportFile && (specFiles.length > 1 || draws > 1)) throw usageError('--report writes one spec\'s report: give one spec, and no --draws, with --report');
    const many = specFiles.length > 1 || draws > 1;
    const done = await evaluateSpecs({
      specFiles,
      cwd: io.cwd,
      ...(seed !== undefined ? { seed } : {}),
      draws,
      methods,
      ...(workDir ? { workDir: resolve(io.cwd, workDir) } : {}),
      ...(maxSentences !== undefined ? { maxSentences } : {}),
      keepBy,
      workers: workersFrom(args, undefined),
      ...(reportFile ? { reportFile: resolve(io.cwd, reportFile) } : {}),
      ...(log ? { log } : {}),
      warn: (line: string) => io.stderr.write(`tadpole eval: ${line}\n`),
      onResult: (result, at) => {
        if (!json) io.stdout.write((draws > 1 && at.spec === 0 ? `draw ${at.draw + 1} of ${draws} (seed ${result.seed})\n\n` : '') + formatTable(result) + (many ? '\n' : ''));
      },
      onDraw: ({ results, suite }, d) => {
        if (!json && results.length > 1) io.stdout.write(formatSuite(suite, results, draws > 1 ? `draw ${d + 1}, suite of ${results.length} mixes` : `suite of ${results.length} mixes`) + (draws > 1 ? '\n' : ''));
      },
    });
    if (json) {
      const perDraw = done.draws.map(({ results, suite }) => {
        const one = results.map(toJSON);
        return one.length === 1 ? one[0] : { specs: one, suite };
      });
      io.stdout.write(JSON.stringify(done.overDraws ? { draws: perDraw, overDraws: done.overDraws } : perDraw[0]) + '\n');
    } else if (done.overDraws) {
      const first = done.draws[0]?.results ?? [];
      io.stdout.write(formatSuite(done.overDraws, first, `over ${draws} draws (seed + 0 to ${draws - 1})`, { note: 'worst in-domain share of kept characters over the draws; mean over every draw and mix', shares: false }));
    }
    return 0;
  },
};
