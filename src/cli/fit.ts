import { TadpoleError } from '../core/errors.js';
import { availableParallelism } from 'node:os';
import { workersFlag, workersFrom } from './workers.js';
import { formatOptionHelp, wrapText } from '../core/option-decl.js';
import { bool, list, num, numWithDefault, str, strWithDefault, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { embedderFlags, embedderOverridesFrom, endProgress, ERASE_LINE, progressFor, readerFlags, readerOptionsFrom, requireFiles } from './common.js';
import { DETECTOR_HELP, DETECTOR_NAMES } from '../detect/registry.js';
import { STDIN } from '../io/input.js';
import { expandInputs } from '../io/inputs/expand.js';
import { readSentences } from '../io/sentences.js';
import { checkDeferredOptions, completesFromCorpus, deferFit, SAMPLE_FULL_KEEP, sampleSizeFor, selfTrains } from '../model/complete.js';
import { explainFit } from '../model/explain.js';
import { writeModel } from '../model/file.js';
import { checkAvoid, fitModel } from '../model/fit.js';
import { chooseOnThread, measuresAside } from '../pipeline/choice-thread.js';
import { fitStep, PhaseProgress, readingProgress } from '../pipeline/progress.js';
import { sampleSentencesOn } from '../pipeline/split-pool.js';
import { avoidShareOf, avoidTarget } from '../select/avoid.js';
import { checkMethodOptions, METHOD_NAMES, methodOwners, resolveMethod, selectorFactory } from '../select/registry.js';

/**
 * Under this many task sentences fit warns. The paper's smallest task set (ChemProt train,
 * ~4k sentences) is far above it; 50 is where a held-out 10% (rank) is down to five sentences.
 */
export const FEW_TASK_SENTENCES = 50;

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
    { name: 'keep', group: 'Selection', type: 'number', arg: 'SHARE', help: 'contrast: the share you will keep; sizes self-training [default: 0.2]' },
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

/**
 * `fit --help` lists the methods; `fit --method X --help` adds what X does and its declared
 * options with defaults (with tadpole, also those of --detector, default iforest).
 */
export function methodHelp(argv: string[]): string {
  const detector = rawFlag(argv, 'detector');
  const asked = rawFlag(argv, 'method');
  if (asked === undefined && detector === undefined) {
    const width = Math.max(...METHOD_NAMES.map((m) => m.length)) + 2;
    const lines = ['', 'Methods (tadpole fit --method NAME --help for its options):', ...METHOD_NAMES.map((m) => `  ${m.padEnd(width)}${selectorFactory(m).summary}`)];
    return lines.join('\n') + '\n';
  }
  const { method, options } = resolveMethod(asked, detector === undefined ? {} : { detector });
  const factory = selectorFactory(method);
  const lines = ['', `Method ${method}:`, ...factory.explain.split('\n').flatMap((l) => wrapText(l, '  '))];
  for (const owner of methodOwners(method, options)) {
    lines.push('', `Options of ${owner.label} (--option KEY=VALUE; KEY=DEFAULT shown):`, ...formatOptionHelp(owner));
  }
  if (method === 'tadpole') {
    const width = Math.max(...DETECTOR_NAMES.map((n) => n.length)) + 2;
    const local: [string, string][] = [
      ['task-knn', '1 - mean cosine similarity to the k nearest task vectors'],
      ['knn-ratio', "similarity to the k nearest general vectors minus that to the task's (needs --general)"],
      ['ensemble', 'z-scores of the components added up (--option components=...; needs --general)'],
    ];
    const rows: [string, string][] = [...DETECTOR_NAMES.map((n): [string, string] => [n, DETECTOR_HELP[n] ?? '']), ...local];
    lines.push('', 'Detectors (--detector NAME; with --help, its options):');
    for (const [name, text] of rows) {
      const wrapped = wrapText(text, ' '.repeat(width + 2));
      lines.push(`  ${name.padEnd(width)}${(wrapped[0] ?? '').trimStart()}`, ...wrapped.slice(1));
    }
  }
  return lines.join('\n') + '\n';
}

/** The fit's last lines: what the method does, in words (select/*.ts `explain`). */
function explainMethod(method: string, options: Record<string, unknown>, say: (line: string) => void): void {
  for (const line of explainFit(method, options)) say(line);
}

export const command: Command = {
  spec,
  help: methodHelp,
  async run(args, io) {
    const reader = readerOptionsFrom(args);
    const taskFiles = requireFiles(args, 'task', 'task');
    const generalFiles = expandInputs(list(args, 'general'));
    const seed = numWithDefault(args, 'seed');
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
    // No --method: contrast, or tadpole when a detector is named; `auto` is contrast's older name.
    const { method, options } = resolveMethod(str(args, 'method'), given);
    const keep = num(args, 'keep');
    if (keep !== undefined) {
      if (!(keep > 0 && keep < 1)) throw new TadpoleError('TADPOLE_USAGE', `--keep must be a share between 0 and 1, got ${keep}`);
      if (!selfTrains(method, options)) throw new TadpoleError('TADPOLE_USAGE', `--keep sizes the self-training of the default fit (contrast) only; ${method}${options.detector ? ` --detector ${String(options.detector)}` : ''} does not self-train`);
      options.keep = keep;
    }
    // An unknown option fails now, with a suggestion, before any text is read.
    checkMethodOptions(method, options);
    const avoidFiles = expandInputs(list(args, 'avoid'));
    // Refused before any text is read: only the default's fit weighs text to avoid.
    checkAvoid(method, options, avoidFiles.length > 0);
    if (avoidFiles.includes(STDIN) && taskFiles.includes(STDIN)) throw new TadpoleError('TADPOLE_USAGE', 'stdin (-) can feed --task or --avoid, not both');
    const overrides = embedderOverridesFrom(args, io);
    const named = overrides.kind !== undefined || overrides.modelDir !== undefined || !!io.env.TADPOLE_MODEL || overrides.dims !== undefined;
    const embedder = named ? { ...overrides, kind: overrides.kind ?? (overrides.modelDir || io.env.TADPOLE_MODEL ? 'onnx' : 'hash') } : undefined;
    // Warnings go to stderr under -q too: they are about the model, not progress.
    const quiet = bool(args, 'quiet');
    // On a terminal, one progress line for the general sample and the fit; a line said meanwhile replaces it.
    const progress = progressFor(io, quiet);
    const lead = progress ? ERASE_LINE : '';
    const say = (line: string): void => {
      if (!quiet || line.startsWith('warning:')) io.stderr.write(`${lead}tadpole: ${line}\n`);
    };
    // The fit's own steps only with -v; its warnings always.
    const phase: { fitting?: PhaseProgress } = {};
    const detail = (line: string): void => {
      phase.fitting?.atRound(line);
      if (line.startsWith('warning:') || bool(args, 'verbose')) say(line);
    };
    const task = await readSentences(taskFiles, reader, { stdin: io.stdin });
    const merged = mergedLinesHint(task, reader);
    if (merged) say(`warning: ${merged}`);
    if (task.length > 0 && task.length < FEW_TASK_SENTENCES) {
      say(`warning: the task has only ${task.length} sentence${task.length === 1 ? '' : 's'} (under ${FEW_TASK_SENTENCES}); a model fitted on so few says little about what task text looks like: give more task text if you have it`);
    }
    const sampleSize = numWithDefault(args, 'generalSample');
    // The fit weighs at most avoidShare x the sample of them (select/avoid.ts), so a large
    // --avoid file is read as a seeded sample of that many, never held whole.
    const avoidCap = avoidFiles.length ? avoidTarget(avoidShareOf(options), sampleSize) : 0;
    const avoid = avoidFiles.length ? await readSentences(avoidFiles, { ...reader, limit: avoidCap, seed }, { stdin: io.stdin }) : undefined;
    if (avoid && avoid.length === 0) throw new TadpoleError('TADPOLE_INPUT', `the --avoid files hold no sentences: check ${avoidFiles.join(', ')} and --format/--text-field`);
    if (avoid && avoid.length === avoidCap) say(`--avoid: a seeded ${avoidCap} of its sentences (as many as the fit can weigh: avoidShare x --general-sample)`);
    const withAvoid = avoid ? { avoid, avoidFiles } : {};
    const out = strWithDefault(args, 'output');
    if (generalFiles.length === 0 && completesFromCorpus(method, options)) {
      // No general sample: the corpus being filtered will be the background (model/complete.ts).
      // Its options are tried now, so a bad one fails the fit and not the nightly filter.
      const asked = { method, task, ...(embedder ? { embedder: embedder as NonNullable<Parameters<typeof deferFit>[0]['embedder']> } : {}), seed, options, ...withAvoid };
      await checkDeferredOptions({ ...asked, log: say });
      const model = deferFit({ ...asked, taskFiles, sampleSize });
      writeModel(out, model);
      say(`no --general: stored ${task.length} task sentences${avoid ? ` and ${avoid.length} to avoid` : ''} for ${method}; tadpole filter completes the model from a seeded sample of ${sampleSize} sentences of the corpus it filters (more when its --keep is under ${SAMPLE_FULL_KEEP * 100}%; give --general FILE to fit now); wrote ${out}`);
      explainMethod(method, options, say);
      return 0;
    }
    let general: string[] = [];
    let generalGroups: Uint32Array | undefined;
    if (generalFiles.length > 0) {
      // A --keep under 2.5% asks for a larger sample, as filter's completion does (model/complete.ts).
      const size = sampleSizeFor(sampleSize, typeof options.keep === 'number' ? options.keep : undefined);
      const reading = readingProgress('fit: sample --general', generalFiles, progress);
      const sample = await sampleSentencesOn(workersFrom(args, generalFiles), generalFiles, reader, { size, seed }, { stdin: io.stdin, counters: reading.counters }).finally(reading.stop);
      general = sample.sentences;
      generalGroups = sample.groups;
      say(`general sample: ${general.length} sentences (${sample.sampler === 'seek' ? `${sample.draws} seeks` : 'one pass'}, ${(sample.bytesRead / 1e6).toFixed(1)} MB read), fingerprint ${sample.fingerprint}`);
      if (sample.differs) say(sample.differs);
    }
    phase.fitting = new PhaseProgress('fit', progress, fitStep(general.length, task.length));
    const model = await fitModel({
      method,
      task,
      general,
      ...(generalGroups ? { generalGroups } : {}),
      ...(embedder ? { embedder: embedder as NonNullable<Parameters<typeof fitModel>[0]['embedder']> } : {}),
      seed,
      options,
      taskFiles,
      generalFiles,
      ...withAvoid,
      log: detail,
      // The held-out measure does not hold up the self-training when another core is free.
      ...(measuresAside(num(args, 'workers') === undefined ? availableParallelism() : workersFrom(args, undefined)) ? { chooseAside: chooseOnThread } : {}),
    }).finally(() => {
      phase.fitting?.stop();
      if (progress) endProgress(io, quiet);
    });
    writeModel(out, model);
    say(`fitted ${method} on ${task.length} task sentences${general.length ? ` + ${general.length} general` : ''}; wrote ${out}`);
    explainMethod(method, options, say);
    return 0;
  },
};

/**
 * Plain text is read as documents of sentences: lines with no final stop run together into
 * one sentence. Hard-wrapped prose does that too, but its sentences still end with a stop; a
 * task of one item per line without stops (titles, snippets) gives merged "sentences" that
 * do not. When most merged sentences are of that kind, say which flag reads the lines apart,
 * whatever the file's length: three titles merged into one sentence are as wrong as three hundred.
 */
export function mergedLinesHint(sentences: string[], reader: { format: string; docPerLine?: boolean }): string | undefined {
  if (reader.docPerLine || (reader.format !== 'auto' && reader.format !== 'text')) return undefined;
  let lines = 0;
  let merged = 0;
  let stopless = 0;
  for (const s of sentences) {
    const t = s.trim();
    const breaks = t.match(/\n/g)?.length ?? 0;
    lines += 1 + breaks;
    if (breaks === 0) continue;
    merged++;
    if (!/[.!?…:;"'”’)\]]$/.test(t)) stopless++;
  }
  if (merged === 0 || stopless < 0.5 * merged) return undefined;
  return `the task's ${lines} lines were read as ${sentences.length} sentence${sentences.length === 1 ? '' : 's'}: lines without a final stop run together; if each line is one sentence or item, add --doc-per-line`;
}
