/** The library API: everything the CLI does is reachable from here. */
export { TadpoleError, EXIT, type TadpoleErrorCode } from './core/errors.js';
export { Rng } from './core/rng.js';

export { readDocuments, resolveFormat, ReadCounters, DEFAULT_READER, type Doc, type ReaderOptions, type ReadOptions } from './io/documents.js';
export { readSentences } from './io/sentences.js';
export { sampleSentences, type SentenceSample, type SampleOptions } from './io/sample.js';
export { Sink } from './io/sink.js';
export { splitSentences, MAX_WRAPPED_LENGTH, type SplitOptions } from './text/sentences.js';

export type { Embedder, EmbedderFingerprint } from './embed/embedder.js';
export { createEmbedder, type EmbedderSpec } from './embed/factory.js';
export { HashEmbedder } from './embed/hash.js';

export type { Detector, DetectorJSON } from './detect/detector.js';
export { createDetector, detectorFromJSON, DETECTOR_NAMES } from './detect/registry.js';
export { auroc, averagePrecision } from './detect/metrics.js';

export type { SelectorFactory, SelectorJSON, SentenceScorer } from './select/selector.js';
export { selectorFactory, METHOD_NAMES } from './select/registry.js';

export { readModel, writeModel, validateModel, type ModelFile } from './model/file.js';
export { fitModel, type FitOptions } from './model/fit.js';
export { openScorer } from './model/open.js';
export { describeModel, summarizeModel, type ModelSummary } from './model/describe.js';
export { checkDeferredOptions, completeModel, completesFromCorpus, deferFit, needsCompletion } from './model/complete.js';
export { completeFromCorpus, type CompletionInfo } from './pipeline/complete.js';

export { segmentBounds, type SegmentRecord } from './segment/segments.js';
export { exactCut, isKept, selectKeptInMemory, type Cut, type KeepBy } from './cut/exact.js';
export { ScoreSketch } from './cut/sketch.js';

export { runFilter } from './run/filter.js';
export type { FilterOptions, FilterStats, RunDirSettings } from './run/options.js';
export { runFilterInDir } from './run/filter-dir.js';
export { scoreStage, cutStage, emitStage, type ScoreStageOptions, type EmitStageOptions } from './run/shard-run.js';
export { segmentScores } from './pipeline/segments.js';
export { writeScoreRecords, type ScoreRecordsOptions } from './pipeline/score-records.js';

export { groupText, type GroupOptions, type TextGroup } from './inspect/groups.js';
export { sphericalKMeans, type KMeansResult } from './inspect/kmeans.js';

export { rankDetectors, formatRankTable } from './rank/rank.js';
export { runEval } from './eval/run.js';
export { defaultEngine } from './eval/engine-default.js';
export { loadSpec } from './eval/spec.js';
