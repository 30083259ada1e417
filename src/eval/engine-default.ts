import { readSentences } from '../io/sentences.js';
import type { ReaderOptions } from '../io/documents.js';
import { fitModel } from '../model/fit.js';
import { openScorer } from '../model/open.js';
import { segmentScores } from '../pipeline/segments.js';
import { selectKeptInMemory } from '../cut/exact.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { EvalEngine } from './engine.js';

/** The mix and task files are JSONL written by the eval itself: strict reading. */
const MIX_READER: ReaderOptions = { format: 'jsonl', textField: 'text', docPerLine: false, strict: true };

/** The library's own fit / segment / cut: what `tadpole filter` does. */
export const defaultEngine: EvalEngine = {
  readSentences: (inputs, opts) => readSentences(inputs, { ...MIX_READER, ...opts }),
  async openScorer(method, fit) {
    const embedder: EmbedderSpec | undefined = method.embedder ? { ...method.embedder } : undefined;
    const model = await fitModel({
      method: method.name,
      task: fit.task,
      general: fit.general,
      ...(embedder ? { embedder } : {}),
      seed: fit.seed,
      options: method.options ?? {},
    });
    return openScorer(model);
  },
  segmentScores: (inputs, scorer, segment) => segmentScores({ inputs, reader: MIX_READER, scorer, segment }),
  selectKept: (scores, weights, keep) => selectKeptInMemory(scores, weights, keep),
};
