import { readSentences } from '../io/sentences.js';
import { readDocuments } from '../io/documents.js';
import { splitSentences } from '../text/sentences.js';
import { sampleSentences } from '../io/sample.js';
import type { ReaderOptions } from '../io/documents.js';
import { optionsWithKeep } from '../model/complete.js';
import { fitModel } from '../model/fit.js';
import { segmentScores } from '../threads/segment-scores.js';
import { segmentBounds } from '../segment/segments.js';
import { openScoring, type Scoring } from '../threads/scoring.js';
import { taskShareOf, type TaskShareReading } from '../cut/share-estimate.js';
import type { ModelFile } from '../model/file.js';
import { selectKeptInMemory } from '../cut/exact.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { DocSize, EvalEngine } from './engine.js';

/** The mix and task files are JSONL written by the eval itself: strict reading. */
const MIX_READER: ReaderOptions = { format: 'jsonl', textField: 'text', docPerLine: false, strict: true };

/** The library's own fit / segment / cut: what `tadpole filter` does, scoring on `workers` threads. */
export function defaultEngineWith(workers: number): EvalEngine {
  return { ...defaultEngine, openScorer: async (method, fit) => remember(await fitFor(method, fit), workers) };
}

async function fitFor(method: Parameters<EvalEngine['openScorer']>[0], fit: Parameters<EvalEngine['openScorer']>[1]) {
  const embedder: EmbedderSpec | undefined = method.embedder ? { ...method.embedder } : undefined;
  // The share kept sizes the default's self-training, as when `tadpole filter` completes a model.
  const options = optionsWithKeep(method.name, method.options ?? {}, fit.keep, fit.keepBy);
  return fitModel({
    method: method.name,
    task: fit.task,
    general: fit.general,
    ...(fit.generalGroups ? { generalGroups: fit.generalGroups } : {}),
    ...(embedder ? { embedder } : {}),
    seed: fit.seed,
    options,
    ...(fit.avoid?.length ? { avoid: fit.avoid } : {}),
  });
}

/** A document's sentences and its segments' span bytes, as segmentsOf measures them. */
function docSize(text: string, segment: number): DocSize {
  const spans = splitSentences(text);
  const bounds = segmentBounds(spans.length / 2, segment);
  let bytes = 0;
  for (let s = 0; s < bounds.length; s += 2) {
    const first = bounds[s] as number;
    bytes += Buffer.byteLength(text.slice(spans[2 * first], spans[2 * (first + (bounds[s + 1] as number) - 1) + 1]));
  }
  return { sentences: spans.length / 2, bytes };
}

/** Each open scoring's model reading of the task's share (the default's), for taskShareOf. */
const readings = new WeakMap<Scoring, TaskShareReading>();

async function remember(model: ModelFile, workers: number): Promise<Scoring> {
  const scoring = await openScoring(model, {}, workers);
  const reading = taskShareOf(model);
  if (reading) readings.set(scoring, reading);
  return scoring;
}

/** The library's own fit / segment / cut, scoring in this thread. */
export const defaultEngine: EvalEngine = {
  readSentences: (inputs, opts) => readSentences(inputs, { ...MIX_READER, ...opts }),
  sampleGeneral: (inputs, opts) => sampleSentences(inputs, MIX_READER, opts),
  openScorer: async (method, fit) => remember(await fitFor(method, fit), 1),
  taskShareOf: (scoring) => readings.get(scoring),
  docSizes: async function* (inputs, segment) {
    for await (const docs of readDocuments(inputs, MIX_READER)) yield docs.map((d) => docSize(d.text, segment));
  },
  segmentScores: (inputs, scorer, segment) => segmentScores({ inputs, reader: MIX_READER, scorer, segment }),
  selectKept: (scores, weights, keep) => selectKeptInMemory(scores, weights, keep),
};
