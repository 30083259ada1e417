import { expandInputs } from '../io/inputs/expand.js';
import { TadpoleError } from '../core/errors.js';
import { readSentences } from '../io/sentences.js';
import { writeModel } from '../model/file.js';
import { checkDeferredOptions, completesFromCorpus, deferFit, selfTrains } from '../model/complete.js';
import { checkAvoid, fitModel } from '../model/fit.js';
import { avoidShareOf, avoidTarget } from '../select/avoid.js';
import { sampleSentencesOn } from '../pipeline/split-pool.js';
import { workersFlag, workersFrom } from './workers.js';
import { METHOD_NAMES } from '../select/registry.js';
import { bool, list, num, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { embedderFlags, embedderOverridesFrom, readerFlags, readerOptionsFrom, requireFiles } from './common.js';

/**
 * Under this many task sentences fit warns. The paper's smallest task set (ChemProt train,
 * ~4k sentences) is far above it; 50 is where a held-out 10% (rank) is down to five sentences.
 */
export const FEW_TASK_SENTENCES = 50;

const spec: CommandSpec = {
  name: 'fit',
  summary: 'fit a filter on task text and write the model file',
  usage: 'tadpole fit --task FILE... [--general FILE...] [options] -o model.json',
  flags: [
    { name: 'task', role: 'input', type: 'list', arg: 'FILE...', help: 'Task (in-domain) text: plain text or JSONL (see --format), gzip ok' },
    { name: 'general', role: 'input', type: 'list', arg: 'FILE...', help: 'General-domain text to sample from (plain files by seeking, gzip/stdin in one pass). Without it, methods that need general text (and the default) are completed at filter time from a sample of the corpus being filtered' },
    { name: 'avoid', role: 'input', type: 'list', arg: 'FILE...', help: 'The default: text NOT to keep, read like --task (e.g. forum posts on your topic when you want its news, or news when you want the forum): a few hundred sentences weigh as a fifth of the general sample in every fit (--option avoidShare=S; more than that many are read as a seeded sample), never moved to the task side by self-training' },
    { name: 'general-ratio', type: 'number', arg: 'R', help: 'tadpole + detector: general sample size as a share of the task sentences [default: 0.1 with --general]' },
    { name: 'general-sample', type: 'int', arg: 'N', default: 20000, help: 'Sample N general sentences (seeded; from --general, or from the corpus at filter time)' },
    { name: 'method', type: 'string', arg: 'NAME', default: 'tadpole', choices: METHOD_NAMES, help: 'Selection method' },
    { name: 'detector', type: 'string', arg: 'NAME', help: 'tadpole: detector (auto, ensemble, knn-ratio, task-knn, iforest, eif, knn, lof, pca, mahalanobis, ocsvm) [default: auto: a z-score ensemble of a task-vs-corpus classifier and DSIR on hashed n-grams (function words left out when the task reads as headlines or titles), self-trained by corpus segments (moved by consensus for titles), its held-out AUROC printed and stored, a warning when near random; against --general or, without it, a sample of the corpus at filter time]. The paper: --detector iforest' },
    { name: 'representation', type: 'string', arg: 'REP', help: 'tadpole: auto (embedder when one is named, else fitted LSA), lsa, or embedder' },
    { name: 'trees', type: 'int', arg: 'N', help: 'iforest/eif: number of trees [default: 100]' },
    { name: 'sample-size', type: 'int', arg: 'N', help: 'iforest/eif: samples per tree [default: 256]' },
    { name: 'k', type: 'int', arg: 'K', help: 'kNN-based detectors and knn-tapt: neighbours [default: 5]' },
    { name: 'keep', type: 'number', arg: 'SHARE', help: 'The default: the share you will keep with filter, which sizes its self-training (a quarter of it per round) [default: 0.2 with --general; without it, the --keep filter is given]' },
    { name: 'option', type: 'list', arg: 'KEY=VALUE...', help: 'Any other method/detector option, e.g. --option order=4 components=20; a bad value is an error at fit time (exit 2), without --general too (the fit is tried on a slice of the task), and an option the fit never reads is a warning' },
    { name: 'seed', type: 'int', arg: 'N', default: 0, help: 'Seed for every random choice' },
    { name: 'output', role: 'output-file', alias: 'o', type: 'string', arg: 'FILE', default: 'model.json', help: 'Model file to write' },
    { name: 'quiet', alias: 'q', type: 'boolean', help: 'Only warnings and errors on stderr' },
    { name: 'verbose', alias: 'v', type: 'boolean', help: "Also every step of the fit (its choice, each self-training round)" },
    { ...workersFlag, help: 'Threads that split --general text when the sample reads it whole (gzip, xz, zstd, stdin, files under 64 MB); fitting itself runs in one thread [default: the cores available; 1 for input files under 4 MB]' },
    ...readerFlags,
    ...embedderFlags,
  ],
  notes: `The default (no --method, no --detector) contrasts the task with general text: --general with a
sample of the corpus you will filter (or the corpus itself: 20,000 sentences are drawn, in whole
15-sentence segments), or nothing, and then a seeded sample of the corpus is drawn when you
filter. Tokens the task file adds and the corpus sample lacks (a label, a row number, a prefix
or separator: the first or last token of a quarter of the task sentences, or in half of them,
and 100 times rarer there in the sample) are stripped from the task first and named on stderr
(--option artefacts=keep keeps them): alone they would tell the task from the corpus and teach
the regression nothing else. It fits a logistic regression of task sentences against that sample (hashed word
1-2-grams and character 5-grams of each word, digits folded) and DSIR (models of the same hashed
features in task and sample, scored per n-gram), scores by the mean of their z-scores, measures
that on held-out task and corpus sentences (AUROC, printed), and warns when the task cannot be
told from the corpus. Then it self-trains: the sample's segments that score most task-like (a
quarter, a half, three quarters, then all of the share you will keep: 5%, 10%, 15%, 20% of the sample for
--keep 0.2) join the task side and the pair is fitted again, so it learns the corpus's own
wording for the task's domain. Without --general, filter sizes this by its --keep; with
--general, give --keep SHARE if you will keep other than 20% (--option rounds=0 turns
self-training off; --option moveBy=consensus moves only segments that both the regression and
DSIR rank high: better where the corpus holds the task's topic in another genre, worse where
the task's domain is scarce, and the default for a task of titles; --option style=on adds a third view that reads function words
and word shapes, the genre without the topic, so that with moveBy=consensus news about a sport
is told from forum posts about it, but only where the text you want is written like your task
(README, "A fresh suite"); style=guard lets that view only veto moves, at the
default's filter cost; progress is printed). A filter with it costs about 1.6x what --method random costs. --option candidates=a,b,a+b
lets auto choose among more methods (classifier, dsir, distance, moore-lewis; '+' = z-score
ensemble; a component takes options after colons, e.g. dsir:features=chars-folded).
Where the kept text is the task's topic in the wrong genre, or its genre on the wrong topic,
the task text cannot say which you want: --avoid FILE with a few hundred sentences of what
you do not want tells the default (they weigh on the corpus side of every fit). tadpole
inspect groups what a filter kept and writes each group out, ready for --avoid.

Examples:
  tadpole fit --task task.txt --general sample.txt -o model.json
  tadpole fit --task train.jsonl.gz --format jsonl --general news.txt -o model.json
  tadpole fit --task sports-news.txt --avoid sports-forum-posts.txt -o model.json   # the news, not the forums
  tadpole fit --task task.txt --embedder onnx --model-dir ./all-MiniLM-L6-v2 --detector iforest -o bert.json   # the paper's setting`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const reader = readerOptionsFrom(args);
    const taskFiles = requireFiles(args, 'task', 'task');
    const generalFiles = expandInputs(list(args, 'general'));
    const seed = num(args, 'seed') ?? 0;
    const method = str(args, 'method') ?? 'tadpole';
    const options: Record<string, unknown> = {};
    for (const [flag, key] of [['detector', 'detector'], ['representation', 'representation']] as const) {
      const v = str(args, flag);
      if (v !== undefined) options[key] = v;
    }
    for (const [flag, key] of [['generalRatio', 'generalRatio'], ['trees', 'trees'], ['sampleSize', 'sampleSize'], ['k', 'k']] as const) {
      const v = num(args, flag);
      if (v !== undefined) options[key] = v;
    }
    const keep = num(args, 'keep');
    if (keep !== undefined) {
      if (!(keep > 0 && keep < 1)) throw new TadpoleError('TADPOLE_USAGE', `--keep must be a share between 0 and 1, got ${keep}`);
      if (!selfTrains(method, options)) throw new TadpoleError('TADPOLE_USAGE', `--keep sizes the self-training of the default (auto) fit only; ${method}${options.detector ? ` --detector ${String(options.detector)}` : ''} does not self-train`);
      options.keep = keep;
    }
    for (const kv of list(args, 'option')) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new TadpoleError('TADPOLE_USAGE', `--option needs KEY=VALUE, got "${kv}"`);
      const raw = kv.slice(eq + 1);
      options[kv.slice(0, eq)] = raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    const avoidFiles = expandInputs(list(args, 'avoid'));
    // Refused before any text is read: only the default's fit weighs text to avoid.
    checkAvoid(method, options, avoidFiles.length > 0);
    if (avoidFiles.includes('-') && taskFiles.includes('-')) throw new TadpoleError('TADPOLE_USAGE', 'stdin (-) can feed --task or --avoid, not both');
    const overrides = embedderOverridesFrom(args, io);
    const named = overrides.kind !== undefined || overrides.modelDir !== undefined || !!io.env.TADPOLE_MODEL || overrides.dims !== undefined;
    const embedder = named ? { ...overrides, kind: overrides.kind ?? (overrides.modelDir || io.env.TADPOLE_MODEL ? 'onnx' : 'hash') } : undefined;
    // Warnings go to stderr under -q too: they are about the model, not progress.
    const quiet = bool(args, 'quiet');
    const say = (line: string): void => {
      if (!quiet || line.startsWith('warning:')) io.stderr.write(`tadpole: ${line}\n`);
    };
    // The fit's own steps only with -v; its warnings always.
    const detail = (line: string): void => {
      if (line.startsWith('warning:') || bool(args, 'verbose')) say(line);
    };
    const task = await readSentences(taskFiles, reader, { stdin: io.stdin });
    const merged = mergedLinesHint(task, reader);
    if (merged) say(`warning: ${merged}`);
    if (task.length > 0 && task.length < FEW_TASK_SENTENCES) {
      say(`warning: the task has only ${task.length} sentences (under ${FEW_TASK_SENTENCES}); a model fitted on so few says little about what task text looks like: give more task text if you have it`);
    }
    const sampleSize = num(args, 'generalSample') ?? 20000;
    // The fit weighs at most avoidShare x the sample of them (select/avoid.ts), so a large
    // --avoid file is read as a seeded sample of that many, never held whole.
    const avoidCap = avoidFiles.length ? avoidTarget(avoidShareOf(options), sampleSize) : 0;
    const avoid = avoidFiles.length ? await readSentences(avoidFiles, { ...reader, limit: avoidCap, seed }, { stdin: io.stdin }) : undefined;
    if (avoid && avoid.length === 0) throw new TadpoleError('TADPOLE_INPUT', `the --avoid files hold no sentences: check ${avoidFiles.join(', ')} and --format/--text-field`);
    if (avoid && avoid.length === avoidCap) say(`--avoid: a seeded ${avoidCap} of its sentences (as many as the fit can weigh: avoidShare x --general-sample)`);
    const withAvoid = avoid ? { avoid, avoidFiles } : {};
    const out = str(args, 'output') ?? 'model.json';
    if (generalFiles.length === 0 && completesFromCorpus(method, options)) {
      // No general sample: the corpus being filtered will be the background (model/complete.ts).
      // Its options are tried now, so a bad one fails the fit and not the nightly filter.
      const asked = { method, task, ...(embedder ? { embedder: embedder as NonNullable<Parameters<typeof deferFit>[0]['embedder']> } : {}), seed, options, ...withAvoid };
      await checkDeferredOptions({ ...asked, log: say });
      const model = deferFit({ ...asked, taskFiles, sampleSize });
      writeModel(out, model);
      say(`no --general: stored ${task.length} task sentences${avoid ? ` and ${avoid.length} to avoid` : ''} for ${method}; tadpole filter completes the model from a seeded sample of ${sampleSize} sentences of the corpus it filters (give --general FILE to fit now); wrote ${out}`);
      return 0;
    }
    let general: string[] = [];
    let generalGroups: Uint32Array | undefined;
    if (generalFiles.length > 0) {
      const sample = await sampleSentencesOn(workersFrom(args, generalFiles), generalFiles, reader, { size: sampleSize, seed }, { stdin: io.stdin });
      general = sample.sentences;
      generalGroups = sample.groups;
      say(`general sample: ${general.length} sentences (${sample.sampler === 'seek' ? `${sample.draws} seeks` : 'one pass'}, ${(sample.bytesRead / 1e6).toFixed(1)} MB read), fingerprint ${sample.fingerprint}`);
      if (sample.differs) say(sample.differs);
    }
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
    });
    writeModel(out, model);
    say(`fitted ${method} on ${task.length} task sentences${general.length ? ` + ${general.length} general` : ''}; wrote ${out}`);
    return 0;
  },
};

/**
 * Plain text is read as documents of sentences: lines with no final stop run together into
 * one sentence. Hard-wrapped prose does that too, but its sentences still end with a stop; a
 * task of one item per line without stops (titles, snippets) gives merged "sentences" that
 * do not. When most merged sentences are of that kind, say which flag reads the lines apart.
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
  if (lines < 20 || lines - sentences.length < 0.2 * lines || stopless < 0.5 * merged) return undefined;
  return `the task's ${lines} lines were read as ${sentences.length} sentence${sentences.length === 1 ? '' : 's'}: lines without a final stop run together; if each line is one sentence or item, add --doc-per-line`;
}
