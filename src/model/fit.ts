import { TadpoleError } from '../core/errors.js';
import type { Embedder } from '../embed/embedder.js';
import { createEmbedder, type EmbedderSpec } from '../embed/factory.js';
import { selectorFactory } from '../select/registry.js';
import { MODEL_FORMAT, MODEL_VERSION, type ModelFile } from './file.js';

export interface FitOptions {
  method: string;
  task: string[];
  general: string[];
  /** The general sample's segments (FitContext.generalGroups). */
  generalGroups?: Uint32Array;
  embedder?: EmbedderSpec;
  seed: number;
  options: Record<string, unknown>;
  taskFiles?: string[];
  generalFiles?: string[];
  log?: (line: string) => void;
}

export async function fitModel(opts: FitOptions): Promise<ModelFile> {
  const factory = selectorFactory(opts.method);
  if (opts.task.length === 0) throw new TadpoleError('TADPOLE_INPUT', 'the task data holds no sentences: check --task files and --format/--text-field');
  if (factory.needsGeneral && opts.general.length === 0) {
    throw new TadpoleError('TADPOLE_USAGE', `method "${opts.method}" needs a general-domain sample: give --general FILE`);
  }
  let embedder: Embedder | undefined;
  try {
    // Methods that can use an embedder (tadpole) use one when the caller names it.
    if (factory.needsEmbedder || opts.embedder) embedder = await createEmbedder(opts.embedder ?? { kind: 'hash' });
    const selector = await factory.fit({
      task: opts.task,
      general: opts.general,
      ...(opts.generalGroups ? { generalGroups: opts.generalGroups } : {}),
      ...(embedder ? { embedder } : {}),
      seed: opts.seed,
      options: opts.options,
      ...(opts.log ? { log: opts.log } : {}),
    });
    const model: ModelFile = {
      format: MODEL_FORMAT,
      version: MODEL_VERSION,
      method: opts.method,
      embedder: embedder ? embedder.fingerprint : null,
      selector,
      fit: { seed: opts.seed, options: opts.options },
      counts: {
        taskSentences: opts.task.length,
        generalSentences: opts.general.length,
        taskFiles: opts.taskFiles ?? [],
        generalFiles: opts.generalFiles ?? [],
      },
    };
    if (embedder && opts.embedder?.kind === 'onnx' && opts.embedder.modelDir) model.embedderHint = { modelDir: opts.embedder.modelDir };
    return model;
  } finally {
    await embedder?.dispose();
  }
}
