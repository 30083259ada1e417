import { createHash } from 'node:crypto';
import { TadpoleError } from '../core/errors.js';
import { DEFAULT_KEEP_BY } from '../cut/exact.js';
import { DEFAULT_READER } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import { refuseReadOnce, resolveInputs, type InputKind } from '../io/input-kind.js';
import { ownOutputInputs } from '../io/own-output.js';
import { Sink } from '../io/sink.js';
import { needsCompletion } from '../model/complete.js';
import { readModel } from '../model/file.js';
import { warnKeep, warnNearRandom } from '../model/warnings.js';
import { checkFilterOptions } from '../passes/checks.js';
import { fileSha256 } from '../passes/fingerprint.js';
import type { FilterOptions, RunOptions } from '../passes/run-options.js';
import type { OutFormat } from '../passes/out-format.js';
import { DEFAULT_BATCH_SENTENCES } from '../passes/scored.js';
import { DEFAULT_CHECKPOINT_SECONDS } from '../run/shard.js';
import { DEFAULT_DOC_CONTEXT } from '../segment/context.js';
import { workersFor } from '../threads/pool.js';
import { RANGE_MIN_BYTES } from '../threads/ranges-place.js';

/** Sentences per segment unless told (the paper's rolling window). */
export const DEFAULT_SEGMENT = 15;

/**
 * A filter's options normalised once, at the library's boundary (the CLI and library callers
 * alike): the model read, every input's kind resolved, every default applied from one place,
 * the combinations refused that no mode can run, the warnings about model and inputs said,
 * and the sink made last, so a refused run leaves no file. The result is frozen and passed
 * down by reference.
 */
export function normalizeFilterOptions(given: FilterOptions): RunOptions {
  const model = typeof given.model === 'string' ? readModel(given.model) : given.model;
  const reader = given.reader ?? DEFAULT_READER;
  const { keep, threshold, weights, tokenizer, runDir } = given;
  const keepBy = given.keepBy ?? DEFAULT_KEEP_BY;
  const segment = given.segment ?? DEFAULT_SEGMENT;
  const docContext = given.docContext ?? DEFAULT_DOC_CONTEXT;
  if (runDir && (threshold !== undefined || weights || given.workDir !== undefined)) {
    throw new TadpoleError('TADPOLE_USAGE', '--run-dir works with the exact cut only: drop --threshold/--weights/--work-dir (the threshold mode is one streaming pass with nothing to resume)');
  }
  if (runDir && (given.sink || given.output !== undefined)) throw new TadpoleError('TADPOLE_USAGE', 'a run kept in a directory writes its own output (runDir.output): give no sink');
  if (weights && given.outFormat === 'text') throw new TadpoleError('TADPOLE_USAGE', '--weights writes every segment with its weight, as JSONL: drop --out-format text');
  checkFilterOptions({ keep, keepBy, tokenizer, threshold, weights, segment, docContext, inputs: given.inputs });
  // Every input's kind (format, compression, seekable, size) is decided here, once; every pass reads it.
  const inputs = resolveInputs(given.inputs, reader.format);
  // After the inputs: a missing input is said as such, not as a thread count that is too high.
  const workers = workersFor(given.workers, inputs);
  const completes = !given.scorer && needsCompletion(model);
  if (completes && threshold !== undefined) {
    throw new TadpoleError('TADPOLE_USAGE', "this model was fitted without --general: it is completed from the corpus, and a --threshold from another run only holds for that run's completed model; refit with --general FILE (large plain files are sampled by seeking) and reuse that model");
  }
  // The cut reads the input twice, and so does a completion from it: a pipe given by name is refused before it is opened.
  if (threshold === undefined || completes) refuseReadOnce(inputs, runDir ? 'filter --run-dir' : 'filter');
  const warn = given.warn ?? (() => {});
  for (const input of ownOutputInputs(inputs)) warn(`${input} looks like tadpole's own output (its records have a "tadpole" field): did you forget -o before it?`);
  warnNearRandom(model, warn);
  warnKeep(model, keep, threshold === undefined && !weights, warn);
  const output = runDir ? runDir.output : (given.output ?? given.sink?.target);
  const runOptions: RunOptions = {
    inputs,
    reader,
    model,
    embedder: given.embedder ?? {},
    keep,
    keepBy,
    segment,
    docContext,
    tokenizer,
    threshold,
    weights,
    outFormat: outFormatFor(given.outFormat, output, inputs),
    stdin: given.stdin,
    workDir: given.workDir,
    batchSentences: given.batchSentences ?? DEFAULT_BATCH_SENTENCES,
    workers,
    rangeMinBytes: given.rangeMinBytes ?? RANGE_MIN_BYTES,
    scorer: given.scorer,
    signal: given.signal,
    progress: given.progress,
    log: given.log,
    detail: given.detail ?? given.log,
    runDir: runDir && {
      dir: runDir.dir,
      resume: runDir.resume ?? false,
      modelSha256: runDir.modelSha256 ?? (typeof given.model === 'string' ? fileSha256(given.model) : createHash('sha256').update(JSON.stringify(model)).digest('hex')),
      output: runDir.output,
      stdout: runDir.stdout,
      checkpointSeconds: runDir.checkpointSeconds ?? DEFAULT_CHECKPOINT_SECONDS,
      args: runDir.args ?? [],
      crashAt: runDir.crashAt,
    },
    // Made last: every refusal above leaves no file behind.
    sink: runDir ? undefined : (given.sink ?? (given.output !== undefined ? Sink.toFile(given.output) : Sink.toStream(process.stdout))),
  };
  return Object.freeze(runOptions);
}

/**
 * --out-format: given, or what the output's name says (.jsonl/.ndjson, .txt), or the input's
 * own format; inputs that mix plain text with records (JSONL, CSV, Parquet) are written as
 * JSONL, the one format that holds both.
 */
export function outFormatFor(given: OutFormat | undefined, output: string | undefined, inputs: readonly InputKind[]): OutFormat {
  if (given) return given;
  const name = output?.replace(/\.(gz|zst|zstd)$/i, '') ?? '';
  if (/\.(jsonl|ndjson)$/i.test(name)) return 'jsonl';
  if (/\.(txt|text)$/i.test(name)) return 'text';
  // A format judged only as the bytes stream (a compressed file under an unhelpful name) is not known yet.
  const kinds = new Set(inputs.filter((k) => k.input !== STDIN && !k.formatFromStream).map((k) => (k.format === 'text' ? 'text' : 'record')));
  return kinds.size > 1 ? 'jsonl' : 'input';
}
