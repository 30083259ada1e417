import { TadpoleError } from '../core/errors.js';
import { interruptExit, trapSignals } from '../core/signals.js';
import { workersFlag } from './workers.js';
import { bool, list, num, numWithDefault, str, strWithDefault, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { embedderFlags, endProgress, ERASE_LINE, filesFrom, namedEmbedderFrom, progressFor, readerFlags, readerOptionsFrom, requireFiles } from './common.js';
import { fitModelFile } from '../commands/fit.js';
import { methodHelp } from '../select/method-help.js';

const spec: CommandSpec = {
  name: 'fit',
  summary: 'fit a filter on task text and write the model file',
  usage: 'tadpole fit --task FILE... [--general FILE...] [--method NAME] [options] -o model.json',
  flags: [
    { name: 'task', role: 'input', group: 'Input', type: 'list', arg: 'FILE...', help: 'Task (in-domain) text: plain text or JSONL (see --format), gzip ok' },
    { name: 'general', role: 'input', group: 'Input', type: 'list', arg: 'FILE...', help: 'General text to sample; without it, filter samples the corpus' },
    { name: 'avoid', role: 'input', group: 'Input', type: 'list', arg: 'FILE...', help: 'contrast: text NOT to keep (a few hundred sentences, read like --task)' },
    { name: 'general-sample', min: 1, group: 'Input', type: 'int', arg: 'N', default: 20000, help: 'Sample N general sentences (seeded)' },
    { name: 'method', group: 'Selection', type: 'string', arg: 'NAME', help: 'Selection method (listed below) [default: contrast]' },
    { name: 'detector', group: 'Selection', type: 'string', arg: 'NAME', help: 'tadpole: anomaly detector; implies --method tadpole [default: iforest]' },
    { name: 'keep', group: 'Selection', type: 'number', arg: 'SHARE', help: 'contrast: the share you will keep (of the bytes; --option keepBy=sentences for sentences); sizes self-training [default: 0.2]' },
    { name: 'option', group: 'Selection', type: 'list', arg: 'KEY=VALUE...', help: "A method's option (tadpole fit --method NAME --help lists them)" },
    { name: 'general-ratio', group: 'Selection', type: 'number', arg: 'R', help: 'tadpole: --option generalRatio=R' },
    { name: 'representation', group: 'Selection', type: 'string', arg: 'REP', help: 'tadpole: --option representation=REP (auto, lsa, embedder)' },
    { name: 'trees', group: 'Selection', type: 'int', arg: 'N', help: 'tadpole with iforest/eif: --option trees=N' },
    { name: 'sample-size', group: 'Selection', type: 'int', arg: 'N', help: 'tadpole with iforest/eif: --option sampleSize=N' },
    { name: 'k', group: 'Selection', type: 'int', arg: 'K', help: 'tadpole, knn-tapt, textgram: --option k=K' },
    { name: 'seed', group: 'Selection', type: 'int', arg: 'N', default: 0, help: 'Seed for every random choice' },
    { name: 'output', role: 'output-file', group: 'Output', alias: 'o', type: 'string', arg: 'FILE', default: 'model.json', help: 'Model file to write' },
    { name: 'quiet', group: 'Output', alias: 'q', type: 'boolean', help: 'Only warnings and errors on stderr' },
    { name: 'verbose', group: 'Output', alias: 'v', type: 'boolean', help: 'Also every step of the fit (its choice, each self-training round)' },
    { ...workersFlag, group: 'Speed', help: 'Threads: they split --general text read whole (gzip, stdin), and with 2 or more, where the machine has a third core, the default measures its scorer on held-out sentences on a thread of its own [default: the cores available; for the split, one per 40 MB of --general files, the cores for stdin]' },
    ...readerFlags.map((f) => ({ ...f, group: 'Input' })),
    ...embedderFlags.map((f) => ({ ...f, group: 'ONNX embedder' })),
  ],
  notes: `With no --method, fit runs contrast, the default: it learns what tells the task from a
sample of the corpus (--general, or at filter time the corpus itself) and self-trains on the
corpus passages that read most like the task. --method tadpole is the paper's method: sentence
vectors and an anomaly detector (--detector, default iforest). Each method's options:
tadpole fit --method NAME --help (with tadpole: --detector NAME too).

Examples:
  tadpole fit --task task.txt --general sample.txt -o model.json
  tadpole fit --task sports-news.txt --avoid sports-forum-posts.txt -o model.json
  tadpole fit --task task.txt --method tadpole --embedder onnx --model-dir DIR -o bert.json`,
};

/** The word after `--NAME` or in `--NAME=VALUE` among raw arguments (help is printed before parsing). */
function rawFlag(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

export const command: Command = {
  spec,
  // `fit --help` lists the methods; `fit --method X --help` adds what X does and its options.
  help: (argv) => methodHelp(rawFlag(argv, 'method'), rawFlag(argv, 'detector')),
  async run(args, io) {
    const reader = readerOptionsFrom(args);
    const taskFiles = requireFiles(args, 'task', 'task');
    const generalFiles = filesFrom(args, 'general');
    const given: Record<string, unknown> = {};
    for (const [flag, key] of [['detector', 'detector'], ['representation', 'representation']] as const) {
      const v = str(args, flag);
      if (v !== undefined) given[key] = v;
    }
    for (const [flag, key] of [['generalRatio', 'generalRatio'], ['trees', 'trees'], ['sampleSize', 'sampleSize'], ['k', 'k']] as const) {
      const v = num(args, flag);
      if (v !== undefined) given[key] = v;
    }
    for (const kv of list(args, 'option')) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new TadpoleError('TADPOLE_USAGE', `--option needs KEY=VALUE, got "${kv}"`);
      const raw = kv.slice(eq + 1);
      given[kv.slice(0, eq)] = raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    const embedder = namedEmbedderFrom(args, io);
    // Warnings go to stderr under -q too: they are about the model, not progress.
    const quiet = bool(args, 'quiet');
    // On a terminal, one progress line for the general sample and the fit; a line said meanwhile replaces it.
    const progress = progressFor(io, quiet);
    const lead = progress ? ERASE_LINE : '';
    const say = (line: string): void => {
      if (!quiet || line.startsWith('warning:')) io.stderr.write(`${lead}tadpole: ${line}\n`);
    };
    const keep = num(args, 'keep');
    const workers = num(args, 'workers');
    const trap = trapSignals('fit', 'no model written');
    let fit;
    try {
      fit = await fitModelFile({
        taskFiles,
        generalFiles,
        avoid: list(args, 'avoid'),
        reader,
        method: str(args, 'method'),
        given,
        ...(keep !== undefined ? { keep } : {}),
        sampleSize: numWithDefault(args, 'generalSample'),
        seed: numWithDefault(args, 'seed'),
        ...(embedder ? { embedder } : {}),
        ...(workers !== undefined ? { workers } : {}),
        output: strWithDefault(args, 'output'),
        verbose: bool(args, 'verbose'),
        log: say,
        ...(progress ? { progress: { line: progress, end: () => endProgress(io, quiet) } } : {}),
        stdin: io.stdin,
        signal: trap.signal,
      });
    } catch (err) {
      const code = interruptExit(err);
      if (code === undefined) throw err;
      // The progress line, if one is drawn, is replaced by this one.
      io.stderr.write(`${lead}tadpole fit: interrupted (${(err as Error).message.replace('interrupted by ', '')}); no model written\n`);
      return code;
    } finally {
      trap.dispose();
    }
    if (fit.deferred) {
      say(`no --general: stored ${fit.task} task sentences${fit.avoid !== undefined ? ` and ${fit.avoid} to avoid` : ''} for ${fit.method}; tadpole filter completes the model from a seeded sample of ${fit.deferred.sampleSize} sentences of the corpus it filters (more when its --keep is under ${fit.deferred.largerUnderKeep * 100}%; give --general FILE to fit now); wrote ${fit.output}`);
    } else {
      say(`fitted ${fit.method} on ${fit.task} task sentences${fit.general ? ` + ${fit.general} general` : ''}; wrote ${fit.output}`);
    }
    // The fit's last lines: what the method does, in words.
    for (const line of fit.explanation) say(line);
    return 0;
  },
};
