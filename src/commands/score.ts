import type { Readable, Writable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import { refuseReadOnce } from '../io/input-kind.js';
import { Sink } from '../io/sink.js';
import { needsCompletion } from '../model/complete.js';
import { readModel } from '../model/file.js';
import { writeScoreRecords } from './score-records.js';
import { fileSha256 } from '../passes/fingerprint.js';
import type { ShardId, ShardSummary } from '../run/layout.js';
import { scoreStage } from '../run/shard-run.js';

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
  workers: number;
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
  const model = readModel(o.model);
  const log = o.log ? { log: o.log } : {};
  const stdin = o.stdin ? { stdin: o.stdin } : {};
  if (o.runDir) {
    const r = o.runDir;
    refuseReadOnce(o.inputs, 'score --run-dir');
    const s = await scoreStage({
      runDir: r.dir,
      resume: r.resume,
      id: r.shard,
      inputs: o.inputs,
      reader: o.reader,
      model,
      modelSha256: fileSha256(o.model),
      embedder: o.embedder,
      segment: o.segment,
      docContext: o.docContext,
      ...stdin,
      ...(r.batchSentences ? { batchSentences: r.batchSentences } : {}),
      ...(r.tokenizer ? { tokenizer: r.tokenizer } : {}),
      workers: o.workers,
      checkpointSeconds: r.checkpointSeconds,
      ...(r.signal ? { signal: r.signal } : {}),
      ...(r.progress ? { progress: r.progress } : {}),
      ...log,
      args: r.args,
      ...(r.crashAt ? { crashAt: r.crashAt } : {}),
    });
    return { mode: 'shard', ...s };
  }
  if (needsCompletion(model) && o.inputs.includes(STDIN)) {
    throw new TadpoleError('TADPOLE_USAGE', 'this model was fitted without --general and is completed from the corpus, which score cannot read twice from stdin: give files, or refit with --general FILE');
  }
  if (needsCompletion(model)) refuseReadOnce(o.inputs, 'score (completing this model from the corpus)');
  const output = o.output;
  const stdout = o.stdout;
  const done = await writeScoreRecords({
    inputs: o.inputs,
    reader: o.reader,
    model,
    embedder: o.embedder,
    workers: o.workers,
    ...(o.segments ? { segments: { size: o.segment, docContext: o.docContext } } : {}),
    withText: o.withText ?? true,
    ...stdin,
    ...log,
    sink: () => {
      if (output) return Sink.toFile(output);
      if (!stdout) throw new TadpoleError('TADPOLE_USAGE', 'scoreCorpus: records need an output file or a stdout stream');
      return Sink.toStream(stdout);
    },
  });
  return { mode: 'records', ...done };
}
