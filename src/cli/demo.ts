import { createWriteStream, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { num, numWithDefault, strWithDefault, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { endProgress, progressFor, shellWord } from './common.js';
import { DEFAULT_READER } from '../io/documents.js';
import { sampleSentences } from '../io/sample.js';
import { readSentences } from '../io/sentences.js';
import { Sink } from '../io/sink.js';
import { writeModel } from '../model/file.js';
import { fitModel } from '../model/fit.js';
import { runFilter } from '../run/filter.js';

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

/** The built-in corpus's sources, in the order the table prints them; bio is the task's domain. */
const SOURCES: Array<[string, string]> = [
  ['bio', 'PubMedQA abstracts'],
  ['cs', 'CS paper abstracts'],
  ['wiki', 'Wikipedia articles'],
  ['speech', 'US presidential speeches'],
  ['fiction', 'Gutenberg books'],
];

function builtin(name: string): string {
  const path = join(packageRoot(), 'corpora', 'builtin', name);
  if (!existsSync(path)) throw new TadpoleError('TADPOLE_INPUT', `the built-in corpus is missing (${path}): reinstall tadpole`, { file: path });
  return path;
}

/** The built-in mix's documents, the first `perSource` of each source in the file's (shuffled) order. */
export function builtinMix(perSource = Infinity): Array<{ text: string; source: string }> {
  const count: Record<string, number> = {};
  return gunzipSync(readFileSync(builtin('mix.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { text: string; source: string })
    .filter((d) => (count[d.source] = (count[d.source] ?? 0) + 1) <= perSource);
}

export const command: Command = {
  spec,
  async run(args, io) {
    const dir = resolve(io.cwd, strWithDefault(args, 'dir'));
    const perSource = num(args, 'docs') ?? Infinity;
    const keep = numWithDefault(args, 'keep');
    const seed = numWithDefault(args, 'seed');
    mkdirSync(dir, { recursive: true });
    const say = (line: string) => io.stderr.write(`demo: ${line}\n`);

    // 1. The mixed corpus: the built-in one (already shuffled), or its first N documents per source.
    const mix = builtinMix(perSource);
    if (seed !== 0) new Rng(seed).shuffle(mix);
    const corpus = join(dir, 'corpus.jsonl');
    const out = createWriteStream(corpus);
    for (const d of mix) out.write(JSON.stringify(d) + '\n');
    await new Promise<void>((r) => out.end(r));
    say(`corpus: ${mix.length} documents (${SOURCES.map((s) => s[0]).join(', ')}) -> ${corpus}`);

    // 2. Fit on the task (held-out PubMedQA abstracts) with a sample of the corpus as general text.
    const taskFile = builtin('task-bio.txt.gz');
    const task = await readSentences([taskFile], DEFAULT_READER);
    const sample = await sampleSentences([corpus], DEFAULT_READER, { size: 5000, seed });
    const model = await fitModel({ method: 'contrast', task, general: sample.sentences, generalGroups: sample.groups, seed, options: {}, taskFiles: [taskFile], generalFiles: [corpus] });
    const modelPath = join(dir, 'model.json');
    writeModel(modelPath, model);
    say(`fitted ${model.method} on ${task.length} task sentences -> ${modelPath}`);

    // 3. Filter: keep the most task-like share of the bytes, exactly, so that a perfect filter's
    // precision is 100% when the share kept is bio's share.
    const keptPath = join(dir, 'kept.jsonl');
    const progress = progressFor(io, false);
    const stats = await runFilter({
      inputs: [corpus],
      reader: DEFAULT_READER,
      model,
      keep,
      segment: 15,
      keepBy: 'bytes',
      sink: Sink.toFile(keptPath),
      ...(progress ? { progress } : {}),
    });
    if (progress) endProgress(io, false);
    writeFileSync(join(dir, 'stats.json'), JSON.stringify(stats, null, 2) + '\n');

    // 4. Where did the kept bytes come from?
    const kept: Record<string, number> = {};
    const total: Record<string, number> = {};
    for (const d of mix) total[d.source] = (total[d.source] ?? 0) + Buffer.byteLength(d.text);
    for (const line of readFileSync(keptPath, 'utf8').split('\n')) {
      if (!line) continue;
      const rec = JSON.parse(line) as { text: string; source: string };
      kept[rec.source] = (kept[rec.source] ?? 0) + Buffer.byteLength(rec.text);
    }
    const keptAll = Object.values(kept).reduce((a, b) => a + b, 0);
    const allAll = Object.values(total).reduce((a, b) => a + b, 0);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    io.stdout.write(`Task: ${task.length} sentences of PubMedQA abstracts (biomedical). Kept ${pct(stats.bytes.kept / stats.bytes.total)} of the corpus's text (${stats.sentences.kept} of ${stats.sentences.total} sentences) in ${stats.seconds.total.toFixed(1)} s.\n\n`);
    io.stdout.write(`${'source'.padEnd(34)}${'of corpus'.padStart(10)}${'of kept'.padStart(10)}${'of source kept'.padStart(16)}\n`);
    for (const [label, what] of SOURCES) {
      const k = kept[label] ?? 0;
      const t = total[label] ?? 0;
      io.stdout.write(`${`${label} (${what})`.padEnd(34)}${pct(t / allAll).padStart(10)}${pct(k / Math.max(1, keptAll)).padStart(10)}${pct(k / Math.max(1, t)).padStart(16)}\n`);
    }
    io.stdout.write('(shares of the bytes of text)\n');
    const bioShare = (total.bio ?? 0) / allAll;
    io.stdout.write(
      `\nIn-domain precision: ${pct((kept.bio ?? 0) / Math.max(1, keptAll))} of the kept text is biomedical; a random filter keeps ${pct(bioShare)} (bio's share of the corpus)` +
        (keep <= bioShare + 0.005 ? `, a perfect one 100%.\n` : `, a perfect one ${pct(Math.min(1, bioShare / keep))} (bio is ${pct(bioShare)} of the corpus, ${pct(keep)} is kept).\n`),
    );
    const tadpole = invocation(io.env);
    io.stdout.write(`\nKept text: ${keptPath}\nStats: ${join(dir, 'stats.json')}\nWhat it is made of, least task-like first:\n  ${tadpole} inspect ${shellWord(keptPath)} --task ${shellWord(taskFile)}\n`);
    if (tadpole !== 'tadpole') io.stdout.write(`(To type just \`tadpole\`, put it on your PATH: \`npm link\` in ${shellWord(packageRoot())}.)\n`);
    return 0;
  },
};

function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}

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
