import type { Readable, Writable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import { refuseReadOnce } from '../io/input-kind.js';
import { Sink } from '../io/sink.js';
import { needsCompletion } from '../model/complete.js';
import { readModel } from '../model/file.js';
import type { ModelFile } from '../model/file.js';
import { DEFAULT_KEEP_BY } from '../cut/exact.js';
import { tokenCounter } from '../cut/tokens.js';
import { resolveInputs, type InputKind } from '../io/input-kind.js';
import { workersFor } from '../threads/pool.js';
import { drivePasses } from '../passes/drive.js';
import { fileSha256 } from '../passes/fingerprint.js';
import { planShard } from '../passes/plan.js';
import { DEFAULT_BATCH_SENTENCES } from '../passes/scored.js';
import { readShardSummary, type ShardId, type ShardSummary } from '../run/layout.js';
import { completeInRunDir, docContextIdentity, identityFor, openRun, tokenizerIdentity } from '../run/run-dir.js';
import { ShardPlace, withShardLock } from '../run/shard-place.js';
import { openScoring } from '../threads/scoring.js';
import { writeScoreRecords } from './score-records.js';

/** Shard mode: pass 1 of one shard into a run directory (spill, sketch, stats, done marker) instead of records. */
export interface ScoreShardSettings {
  dir: string;
  shard: ShardId;
  resume: boolean;
  checkpointSeconds: number;
  batchSentences?: number;
  /** A Hugging Face tokenizer.json: each segment's tokens are counted, so the cut can keep by tokens. */
  tokenizer?: string;
  signal?: AbortSignal;
  progress?: (line: string) => void;
  /** The command line the run directory records. */
  args: string[];
  crashAt?: string;
}

export interface ScoreCorpusOptions {
  /** The model file (from fit): read and verified here; a run directory records its hash. */
  model: string;
  inputs: string[];
  reader: ReaderOptions;
  embedder: Partial<EmbedderSpec>;
  /** Scoring threads; default: by input size (threads/pool.ts). */
  workers?: number | undefined;
  /** Sentences per segment, and how much a segment's score leans on its document's. */
  segment: number;
  docContext: number;
  stdin?: Readable;
  log?: (line: string) => void;
  /** Records: one per segment instead of per sentence. */
  segments?: boolean;
  /** Records: each carries its text. */
  withText?: boolean;
  /** Records: to this file, else to `stdout`. */
  output?: string;
  stdout?: Writable;
  runDir?: ScoreShardSettings;
}

export type ScoreCorpusResult =
  | { mode: 'records'; reader: Record<string, number>; closedEarly: boolean }
  | ({ mode: 'shard' } & ShardSummary);

/**
 * What `tadpole score` does: every sentence's (or segment's) score as JSON records to a file or
 * stream, or with `runDir` one shard's pass 1 into a run directory. A model fitted without
 * --general is completed from the inputs, which must then be read twice (no pipe, no stdin).
 */
export async function scoreCorpus(o: ScoreCorpusOptions): Promise<ScoreCorpusResult> {
  // Every input's kind decided here, once; a missing input is said before any thread starts.
  const kinds = resolveInputs(o.inputs, o.reader.format);
  const workers = workersFor(o.workers, kinds);
  const model = readModel(o.model);
  if (o.runDir) return { mode: 'shard', ...(await scoreShardOf(o, o.runDir, model, kinds, workers)) };
  if (needsCompletion(model) && o.inputs.includes(STDIN)) {
    throw new TadpoleError('TADPOLE_USAGE', 'this model was fitted without --general and is completed from the corpus, which score cannot read twice from stdin: give files, or refit with --general FILE');
  }
  if (needsCompletion(model)) refuseReadOnce(o.inputs, 'score (completing this model from the corpus)');
  const output = o.output;
  const stdout = o.stdout;
  const done = await writeScoreRecords({
    inputs: kinds,
    reader: o.reader,
    model,
    embedder: o.embedder,
    workers,
    segments: o.segments ? { size: o.segment, docContext: o.docContext } : undefined,
    withText: o.withText ?? true,
    stdin: o.stdin,
    log: o.log,
    sink: () => {
      if (output) return Sink.toFile(output);
      if (!stdout) throw new TadpoleError('TADPOLE_USAGE', 'scoreCorpus: records need an output file or a stdout stream');
      return Sink.toStream(stdout);
    },
  });
  return { mode: 'records', ...done };
}

/**
 * `score --run-dir DIR --shard i/n`: pass 1 of one shard (all shards of a run must use the
 * same inputs, model and settings). Every shard samples the whole input set for a model's
 * completion, so all draw (and claim) the same one.
 */
async function scoreShardOf(o: ScoreCorpusOptions, r: ScoreShardSettings, model: ModelFile, kinds: readonly InputKind[], workers: number): Promise<ShardSummary> {
  const id = r.shard;
  refuseReadOnce(o.inputs, 'score --run-dir');
  if (id.of > 1 && o.inputs.includes(STDIN)) throw new TadpoleError('TADPOLE_USAGE', 'stdin cannot be split into shards: give files (or use --shard 0/1)');
  // Loaded now (and kept for pass 1): a damaged file stops the shard before it reads anything.
  if (r.tokenizer) tokenCounter(r.tokenizer);
  const modelSha256 = fileSha256(o.model);
  return withShardLock(r.dir, id, async () => {
    const identity = identityFor({ kind: 'shards', inputs: o.inputs, reader: o.reader, segment: o.segment, ...docContextIdentity(o.docContext), modelSha256, of: id.of, ...tokenizerIdentity(r.tokenizer) });
    const run = openRun(r.dir, identity, { resume: r.resume, args: r.args, requireResume: false });
    // The unit its cut counts unless told: kept with the run, so a later default never changes it.
    if (run.created) run.ledger.setMeta({ keepBy: DEFAULT_KEEP_BY });
    try {
      const plan = planShard(kinds, run.fingerprints, o.reader, id.shard, id.of);
      const open = async () => {
        const completion = await completeInRunDir(model, kinds, o.reader, r.dir, run.ledger, { workers, embedder: o.embedder, log: o.log, progress: r.progress });
        return { scorer: await openScoring(completion.model, o.embedder, workers), own: true };
      };
      const shard = { runDir: r.dir, id, ledger: run.ledger, reader: o.reader, resume: r.resume, checkpointSeconds: r.checkpointSeconds, signal: r.signal, progress: r.progress, crashAt: r.crashAt };
      const settings = { segment: o.segment, docContext: o.docContext, tokenizer: r.tokenizer, batchSentences: r.batchSentences ?? DEFAULT_BATCH_SENTENCES, stdin: o.stdin };
      await drivePasses(new ShardPlace(shard, { whole: false, score: { inputs: kinds, plan, settings, open }, emit: undefined }), { stages: ['score'], keep: { share: 0, by: DEFAULT_KEEP_BY }, writes: { kind: 'kept' }, recorded: undefined, threshold: undefined, progress: r.progress });
      const summary = readShardSummary(r.dir, id);
      if (!summary) throw new TadpoleError('TADPOLE_INTERNAL', `shard ${id.shard}/${id.of} was scored but left no summary`);
      return summary;
    } finally {
      run.ledger.close();
    }
  });
}
