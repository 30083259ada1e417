/** The library API: everything the CLI does is reachable from here. */
export { TadpoleError, EXIT, type TadpoleErrorCode } from './core/errors.js';
export { Rng } from './core/rng.js';

export { readDocuments, resolveFormat, ReadCounters, DEFAULT_READER, DEFAULT_MAX_DOC_BYTES, type Doc, type ReaderOptions, type ReadOptions } from './io/documents.js';
export { STDIN } from './io/input.js';
export { refuseReadOnce, resolveInputs, type InputKind } from './io/input-kind.js';
export { ownOutputInputs } from './io/own-output.js';
export { expandInputs, statOrUndefined } from './io/inputs/expand.js';
export { onStaleTemps, writeFileAtomic } from './io/atomic.js';
export { checkOutputCompression } from './io/compressed-output.js';
export { readSentences } from './io/sentences.js';
export { sampleSentences, type SentenceSample, type SampleOptions } from './io/sample.js';
export { Sink } from './io/sink.js';
export { splitDocuments, type SplitDocumentsOptions, type SplitDocumentsResult } from './io/split-documents.js';
export { splitSentences, MAX_WRAPPED_LENGTH, type SplitOptions } from './text/sentences.js';

export type { Embedder, EmbedderFingerprint } from './embed/embedder.js';
export { createEmbedder, type EmbedderSpec } from './embed/factory.js';
export { listCachedModels, listModelCache, modelsRoot } from './embed/onnx/cache.js';
export { hubEndpoint, pullModel } from './embed/onnx/hub.js';
export { HashEmbedder } from './embed/hash.js';

export type { Detector, DetectorJSON } from './detect/detector.js';
export { createDetector, detectorFromJSON, DETECTOR_NAMES, DETECTOR_HELP } from './detect/registry.js';
export { auroc, averagePrecision } from './detect/metrics.js';

export type { SelectorFactory, SelectorJSON, SentenceScorer } from './select/selector.js';
export { selectorFactory, METHOD_NAMES, checkMethodOptions, methodOwners, resolveMethod } from './select/registry.js';
export { methodHelp } from './select/method-help.js';
export { avoidShareOf, avoidTarget } from './select/avoid.js';
export { autoChoiceOf } from './select/auto.js';
export { SELF_TRAINING_DEFAULTS } from './select/self-training.js';

export { readModel, writeModel, validateModel, type ModelFile } from './model/file.js';
export { fitModel, checkAvoid, type FitOptions } from './model/fit.js';
export { explainFit } from './model/explain.js';
export { openScorer } from './model/open.js';
export { describeModel, describeHeldOut, showModel, summarizeModel, type ModelSummary } from './model/describe.js';
export { checkDeferredOptions, completeModel, completesFromCorpus, deferFit, needsCompletion, sampleSizeFor, selfTrains, SAMPLE_FULL_KEEP } from './model/complete.js';
export { completeFromCorpus, type CompletionInfo } from './threads/corpus-completion.js';

export { segmentBounds, type SegmentRecord } from './segment/segments.js';
export { DEFAULT_DOC_CONTEXT } from './segment/context.js';
export { exactCut, isKept, selectKeptInMemory, DEFAULT_KEEP_BY, type Cut, type KeepBy } from './cut/exact.js';
export { describeTaskShare } from './cut/share-estimate.js';
export { ScoreSketch } from './cut/sketch.js';

export { runFilter } from './commands/filter.js';
export { runDemo, type DemoOptions, type DemoResult } from './commands/demo.js';
export { describeRun, type RunDescription } from './commands/runs.js';
export type { FilterOptions, RunDirSettings } from './passes/run-options.js';
export type { FilterStats } from './passes/stats.js';
export { parseShard, type ShardId } from './run/layout.js';
export { shardFromLauncher, SHARDS_ENV, type LauncherShard } from './run/launcher.js';
export { fileSha256 } from './passes/fingerprint.js';
export { recordedKeepBy } from './run/run-dir.js';
export { readCut } from './run/run-cut.js';
export { Ledger } from './run/ledger.js';
export { cutStage } from './commands/cut.js';
export { emitStage, type EmitOptions } from './commands/emit.js';
export { segmentScores } from './threads/segment-scores.js';
export { writeScoreRecords, type ScoreRecordsOptions } from './commands/score-records.js';
export { scoreCorpus, type ScoreCorpusOptions, type ScoreCorpusResult, type ScoreShardSettings } from './commands/score.js';
export { checkFilterOptions } from './passes/checks.js';
export type { OutFormat } from './passes/out-format.js';
export { defaultWorkers, workersFor } from './threads/pool.js';
export { sampleSentencesOn } from './threads/split-pool.js';
export { chooseOnThread, measuresAside } from './threads/choice-thread.js';
export { fitStep, PhaseProgress, readingProgress } from './passes/progress.js';
export { fitModelFile, type FitModelFileOptions, type FitModelFileResult } from './commands/fit.js';

export { groupText, OFFER_MIN_SHARE, offersAvoid, type GroupOptions, type TextGroup } from './inspect/groups.js';
export { sphericalKMeans, type KMeansResult } from './inspect/kmeans.js';
export { rarer, taskWords, type TaskWords } from './inspect/task-words.js';
export { inspectText, type InspectOptions, type InspectResult, type InspectedGroup } from './commands/inspect.js';

export { rankDetectors, formatRankTable } from './rank/rank.js';
export { rankOnTask, type RankTaskOptions } from './rank/rank-task.js';
export { runEval, type EvalResult } from './eval/run.js';
export { defaultEngine, defaultEngineWith } from './eval/engine-default.js';
export { formatSuite, summarizeDraws, summarizeSuite, type SuiteSummary } from './eval/suite.js';
export { formatTable, toJSON } from './report/table.js';
export { renderReport } from './report/html.js';
export { evaluateSpecs, type EvaluateOptions, type EvaluateResult } from './report/evaluate.js';
export { loadSpec } from './eval/spec.js';
