import type { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';
import type { EmbedderFingerprint } from '../embed/embedder.js';
import { createEmbedder, type EmbedderSpec } from '../embed/factory.js';
import type { ReaderOptions } from '../io/documents.js';
import { readSentences } from '../io/sentences.js';
import { rankDetectors } from './rank.js';
import type { RankResult } from './result.js';

export interface RankTaskOptions {
  /** The task's text: split 90/10, the 10% scored beside an equal-sized general sample. */
  taskFiles: readonly string[];
  generalFiles: readonly string[];
  reader: ReaderOptions;
  embedder: EmbedderSpec;
  detectors: string[];
  detectorOptions?: Record<string, Record<string, unknown>>;
  seed: number;
  repeat: number;
  /** General sentences read at most (a seeded reservoir sample). */
  maxGeneral: number;
  /** Drop repeated task sentences before the split, so no test sentence is also a training one. */
  dedupe: boolean;
  stdin?: Readable;
}

/** What `tadpole rank` does (the paper's Table 1): reads both texts, embeds them, ranks the detectors; with the embedder that did it. */
export async function rankOnTask(o: RankTaskOptions): Promise<RankResult & { embedder: EmbedderFingerprint }> {
  const ro = o.stdin ? { stdin: o.stdin } : {};
  let task = await readSentences(o.taskFiles, o.reader, ro);
  if (o.dedupe) task = [...new Set(task)];
  const general = await readSentences(o.generalFiles, { ...o.reader, limit: o.maxGeneral, seed: o.seed }, ro);
  if (task.length < 3) throw new TadpoleError('TADPOLE_INPUT', `rank needs at least 3 task sentences, got ${task.length} from ${o.taskFiles.join(', ')}`);
  if (general.length === 0) throw new TadpoleError('TADPOLE_INPUT', `no general sentences in ${o.generalFiles.join(', ')}`);
  const embedder = await createEmbedder(o.embedder);
  try {
    const taskX = await embedder.embed(task);
    const generalX = await embedder.embed(general);
    const result = rankDetectors({ taskX, nTask: task.length, generalX, nGeneral: general.length, dims: embedder.dims, detectors: o.detectors, seed: o.seed, repeat: o.repeat, ...(o.detectorOptions ? { detectorOptions: o.detectorOptions } : {}) });
    return { ...result, embedder: embedder.fingerprint };
  } finally {
    await embedder.dispose();
  }
}
