import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { TadpoleError } from '../core/errors.js';
import { packageRoot } from '../core/package-root.js';
import { Rng } from '../core/rng.js';
import { DEFAULT_READER } from '../io/documents.js';
import { sampleSentences } from '../io/sample.js';
import { readSentences } from '../io/sentences.js';
import { Sink } from '../io/sink.js';
import { writeModel } from '../model/file.js';
import { fitModel } from '../model/fit.js';
import type { FilterStats } from '../passes/stats.js';
import { runFilter } from './filter.js';

/** The built-in corpus's sources, in the order the demo's table prints them; bio is the task's domain. */
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

export interface DemoOptions {
  /** Where the corpus, model, kept text and stats are written (made if missing). */
  dir: string;
  /** At most this many documents per source (default: all). */
  perSource?: number;
  /** Share of the text (bytes) to keep. */
  keep: number;
  seed: number;
  /** A line per step (the corpus written, the model fitted). */
  log: (line: string) => void;
  /** The filter's progress line, and the end of the last one. */
  progress?: { line: (line: string) => void; end: () => void };
}

export interface DemoResult {
  corpus: string;
  taskFile: string;
  /** Task sentences the model was fitted on. */
  task: number;
  model: string;
  kept: string;
  statsFile: string;
  stats: FilterStats;
  /** Each source's bytes of text in the corpus and in the kept text, in the table's order. */
  sources: Array<{ label: string; what: string; total: number; kept: number }>;
}

/**
 * `tadpole demo`: writes the built-in mix as a corpus, fits the default on the built-in task
 * (held-out PubMedQA abstracts) with a sample of the corpus as general text, keeps the most
 * task-like share of the bytes, and counts where the kept bytes came from.
 */
export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  const { dir, keep, seed, log } = o;
  mkdirSync(dir, { recursive: true });

  // 1. The mixed corpus: the built-in one (already shuffled), or its first N documents per source.
  const mix = builtinMix(o.perSource ?? Infinity);
  if (seed !== 0) new Rng(seed).shuffle(mix);
  const corpus = join(dir, 'corpus.jsonl');
  const out = createWriteStream(corpus);
  for (const d of mix) out.write(JSON.stringify(d) + '\n');
  await new Promise<void>((r) => out.end(r));
  log(`corpus: ${mix.length} documents (${SOURCES.map((s) => s[0]).join(', ')}) -> ${corpus}`);

  // 2. Fit on the task with a sample of the corpus as general text.
  const taskFile = builtin('task-bio.txt.gz');
  const task = await readSentences([taskFile], DEFAULT_READER);
  const sample = await sampleSentences([corpus], DEFAULT_READER, { size: 5000, seed });
  const model = await fitModel({ method: 'contrast', task, general: sample.sentences, generalGroups: sample.groups, seed, options: {}, taskFiles: [taskFile], generalFiles: [corpus] });
  const modelPath = join(dir, 'model.json');
  writeModel(modelPath, model);
  log(`fitted ${model.method} on ${task.length} task sentences -> ${modelPath}`);

  // 3. Filter: keep the most task-like share of the bytes, exactly, so that a perfect filter's
  // precision is 100% when the share kept is bio's share.
  const keptPath = join(dir, 'kept.jsonl');
  const stats = await runFilter({
    inputs: [corpus],
    reader: DEFAULT_READER,
    model,
    keep,
    segment: 15,
    keepBy: 'bytes',
    sink: Sink.toFile(keptPath),
    progress: o.progress?.line,
  });
  o.progress?.end();
  const statsFile = join(dir, 'stats.json');
  writeFileSync(statsFile, JSON.stringify(stats, null, 2) + '\n');

  // 4. Where did the kept bytes come from?
  const kept: Record<string, number> = {};
  const total: Record<string, number> = {};
  for (const d of mix) total[d.source] = (total[d.source] ?? 0) + Buffer.byteLength(d.text);
  for (const line of readFileSync(keptPath, 'utf8').split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line) as { text: string; source: string };
    kept[rec.source] = (kept[rec.source] ?? 0) + Buffer.byteLength(rec.text);
  }
  return {
    corpus,
    taskFile,
    task: task.length,
    model: modelPath,
    kept: keptPath,
    statsFile,
    stats,
    sources: SOURCES.map(([label, what]) => ({ label, what, total: total[label] ?? 0, kept: kept[label] ?? 0 })),
  };
}
