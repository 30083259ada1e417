import type { EmbedderSpec } from '../embed/factory.js';
import type { Doc } from '../io/documents.js';
import type { ModelFile } from '../model/file.js';
import { openScorer } from '../model/open.js';
import type { SentenceScorer } from '../select/selector.js';
import { checkWorkers, ScoringPool } from './pool.js';
import { DEFAULT_BATCH_SENTENCES, scoreDocBatches, type ScoredBatch } from '../passes/scored.js';

/** What scores a pass: the model's scorer in this thread, or a pool of worker threads. */
export type Scoring = SentenceScorer | ScoringPool;

/** Scoring threads of `scoring`, this one included: a pool's, or 1. */
export function threadsOf(scoring: Scoring): number {
  return scoring instanceof ScoringPool ? scoring.workers : 1;
}

/**
 * The scoring for `workers` threads: 1 scores in this thread (no worker is started);
 * N > 1 scores on this thread and N - 1 workers, each with its own scorer. Methods that select against
 * the whole corpus (a `prepare` pass) need one scorer and always score in this thread.
 * So does an ONNX embedder: its runtime has its own thread pool (and a GPU wants one
 * session), so N workers would mean N sessions competing for the same cores. `started`: a
 * pool started without a model (filter's, while the model is completed), used when it fits.
 */
export async function openScoring(model: ModelFile, embedder: Partial<EmbedderSpec>, workers: number, started?: ScoringPool): Promise<Scoring> {
  checkWorkers(workers);
  let scorer: SentenceScorer;
  try {
    scorer = await openScorer(model, embedder);
  } catch (err) {
    await started?.dispose();
    throw err;
  }
  const pooled = workers > 1 && model.embedder?.kind !== 'onnx' && !scorer.prepare;
  if (pooled && started?.workers === workers) {
    started.useModel(model, embedder, scorer);
    return started;
  }
  await started?.dispose();
  return pooled ? ScoringPool.open(model, embedder, workers, scorer) : scorer;
}

/** Document batches -> scored batches (sentence spans and scores), in input order, whatever does the scoring. */
export function scoreDocuments(docBatches: AsyncIterable<Doc[]>, scoring: Scoring, batchSentences = DEFAULT_BATCH_SENTENCES): AsyncGenerator<ScoredBatch> {
  if (scoring instanceof ScoringPool) return scoring.scored(docBatches, batchSentences);
  return scoreDocBatches(docBatches, scoring, batchSentences);
}
