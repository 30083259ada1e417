import type { KeepBy } from '../cut/exact.js';
import type { EmbedderSpec } from '../embed/factory.js';
import type { SentenceSample } from '../io/sample.js';
import type { ModelFile } from '../model/file.js';
import type { FitOptions } from '../model/fit.js';

/** What the completion worker (complete-worker.ts) is given: plain data, cloned across. */
export interface CompletionJob {
  model: ModelFile;
  sample: SentenceSample;
  embedder?: Partial<EmbedderSpec> | undefined;
  keep?: number | undefined;
  keepBy?: KeepBy | undefined;
  /** The default's held-out measure runs on a thread of its own (choice-thread.ts, measuresAside). */
  measureAside?: boolean;
}

/** What `tadpole fit` gives the same worker: fitModel's options less its functions (the log comes back as messages). */
export interface FitJob {
  fit: Omit<FitOptions, 'log' | 'chooseAside' | 'onUnreadOptions'> & { measureAside?: boolean };
}

export type CompletionReply = { log: string } | { model: ModelFile } | { error: { message: string; code?: string | undefined } };
