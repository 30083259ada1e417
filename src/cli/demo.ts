import { createWriteStream, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { TadpoleError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { sharedDir } from '../core/shared.js';
import { DEFAULT_READER } from '../io/documents.js';
import { sampleSentences } from '../io/sample.js';
import { Sink } from '../io/sink.js';
import { writeModel } from '../model/file.js';
import { fitModel } from '../model/fit.js';
import { runFilter } from '../pipeline/filter.js';
import { num, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { endProgress, progressFor } from './common.js';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'fit on a real task (ChemProt, biomedical) and filter a real mixed corpus; print where the kept text came from',
  usage: 'tadpole demo [--dir tadpole-demo] [--docs 400] [--keep 0.2]',
  flags: [
    { name: 'dir', role: 'output-dir', type: 'string', arg: 'DIR', default: 'tadpole-demo', help: 'Where the corpus, model, kept text and stats are written' },
    { name: 'docs', min: 1, type: 'int', arg: 'N', default: 400, help: 'Documents per source in the mixed corpus' },
    { name: 'keep', min: 0.01, max: 1, type: 'number', arg: 'SHARE', default: 0.2, help: 'Share of sentences to keep' },
    { name: 'seed', type: 'int', arg: 'N', default: 0, help: 'Seed' },
  ],
  notes: 'Needs the shared corpora folder: ../shared beside the checkout, or $TADPOLE_SHARED.',
};

/** Real documents per source: bio and cs abstracts, news, finance newswire, fiction. */
const SOURCES: Array<[string, string, (r: Record<string, unknown>) => string]> = [
  ['bio', 'bio-ohsumed/docs.jsonl.gz', (r) => String(r.text)],
  ['news', 'news-bbc/docs.jsonl.gz', (r) => String(r.text)],
  ['finance', 'news-reuters21578-apte/docs.jsonl.gz', (r) => String(r.text)],
  ['cs', 'cs-scitldr-abstracts/train.jsonl.gz', (r) => (r.source as string[]).join(' ')],
  ['fiction', 'fiction-gutenberg/docs.jsonl.gz', (r) => String(r.text)],
];

function records(dir: string, rel: string): Array<Record<string, unknown>> {
  return gunzipSync(readFileSync(join(dir, 'corpora', rel)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export const command: Command = {
  spec,
  async run(args, io) {
    const shared = sharedDir();
    if (!shared) throw new TadpoleError('TADPOLE_INPUT', 'the shared corpora were not found: put the shared folder beside the checkout (../shared) or set TADPOLE_SHARED');
    const dir = resolve(io.cwd, str(args, 'dir') ?? 'tadpole-demo');
    const perSource = num(args, 'docs') ?? 400;
    const keep = num(args, 'keep') ?? 0.2;
    const seed = num(args, 'seed') ?? 0;
    mkdirSync(dir, { recursive: true });
    const say = (line: string) => io.stderr.write(`demo: ${line}\n`);

    // 1. A mixed corpus of whole real documents, shuffled with a seed.
    const rng = new Rng(seed);
    const mix: Array<{ text: string; source: string }> = [];
    for (const [label, rel, get] of SOURCES) {
      let docs = records(shared, rel).map(get);
      // Books are long: use their paragraphs as documents.
      if (label === 'fiction') docs = docs.flatMap((t) => t.split(/\n\s*\n/)).filter((p) => p.trim().length > 300);
      for (const i of rng.sample(docs.length, perSource)) mix.push({ text: docs[i]!.replace(/\n\s*\n/g, '\n').trim(), source: label });
    }
    rng.shuffle(mix);
    const corpus = join(dir, 'corpus.jsonl');
    const out = createWriteStream(corpus);
    for (const d of mix) out.write(JSON.stringify(d) + '\n');
    await new Promise<void>((r) => out.end(r));
    say(`corpus: ${mix.length} documents from ${SOURCES.map((s) => s[0]).join(', ')} -> ${corpus}`);

    // 2. Fit on the task (ChemProt sentences, entity markers removed) with a general sample.
    const task = [...new Set(records(shared, 'task-chemprot/train.jsonl.gz').map((r) => String(r.text).replace(/<< | >>|\[\[ | \]\]/g, '')))];
    const sample = await sampleSentences([corpus], DEFAULT_READER, { size: 5000, seed });
    const model = await fitModel({ method: 'tadpole', task, general: sample.sentences, generalGroups: sample.groups, seed, options: {}, taskFiles: ['task-chemprot/train.jsonl.gz'], generalFiles: [corpus] });
    const modelPath = join(dir, 'model.json');
    writeModel(modelPath, model);
    say(`fitted ${model.method} (${JSON.stringify(model.selector?.params)}) on ${task.length} task sentences -> ${modelPath}`);

    // 3. Filter: keep the most task-like share, exactly.
    const keptPath = join(dir, 'kept.jsonl');
    const progress = progressFor(io, false);
    const stats = await runFilter({
      inputs: [corpus],
      reader: DEFAULT_READER,
      model,
      keep,
      segment: 15,
      keepBy: 'sentences',
      sink: Sink.toFile(keptPath),
      ...(progress ? { progress } : {}),
    });
    if (progress) endProgress(io, false);
    writeFileSync(join(dir, 'stats.json'), JSON.stringify(stats, null, 2) + '\n');

    // 4. Where did the kept sentences come from?
    const kept: Record<string, number> = {};
    const total: Record<string, number> = {};
    const { splitSentences } = await import('../text/sentences.js');
    for (const d of mix) total[d.source] = (total[d.source] ?? 0) + splitSentences(d.text).length / 2;
    for (const line of readFileSync(keptPath, 'utf8').split('\n')) {
      if (!line) continue;
      const rec = JSON.parse(line) as { text: string; source: string };
      kept[rec.source] = (kept[rec.source] ?? 0) + splitSentences(rec.text).length / 2;
    }
    const keptAll = Object.values(kept).reduce((a, b) => a + b, 0);
    const allAll = Object.values(total).reduce((a, b) => a + b, 0);
    io.stdout.write(`Task: ChemProt (biomedical). Kept ${stats.sentences.kept} of ${stats.sentences.total} sentences (${((100 * stats.sentences.kept) / stats.sentences.total).toFixed(1)}%) in ${stats.seconds.total.toFixed(1)} s.\n\n`);
    io.stdout.write(`${'source'.padEnd(10)}${'in corpus'.padStart(12)}${'of kept'.padStart(12)}${'of source kept'.padStart(17)}\n`);
    for (const [label] of SOURCES) {
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      const k = kept[label] ?? 0;
      const t = total[label] ?? 0;
      io.stdout.write(`${label.padEnd(10)}${pct(t / allAll).padStart(12)}${pct(k / Math.max(1, keptAll)).padStart(12)}${pct(k / Math.max(1, t)).padStart(17)}\n`);
    }
    io.stdout.write(`\n(The task is biomedical: with ${(100 * keep).toFixed(0)}% kept and bio ${(100 * (total.bio ?? 0) / allAll).toFixed(1)}% of the corpus, a perfect filter keeps all of bio and fills the rest with the next most similar text.)\n`);
    const tadpole = invocation(io.env);
    io.stdout.write(`\nKept text: ${keptPath}\nStats: ${join(dir, 'stats.json')}\nWhat it is made of:\n  ${tadpole} inspect ${quoted(keptPath)}\n`);
    if (tadpole !== 'tadpole') io.stdout.write(`(To type just \`tadpole\`, put it on your PATH: \`npm link\` in ${quoted(packageRoot())}.)\n`);
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
  return `node ${quoted(bin)}`;
}

function quoted(path: string): string {
  return /^[\w./@+-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
