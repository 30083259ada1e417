import { TadpoleError } from '../core/errors.js';
import type { Embedder } from '../embed/embedder.js';
import { createEmbedder, type EmbedderSpec } from '../embed/factory.js';
import type { ChooseAside } from '../select/choice.js';
import { canonicalMethod, checkMethodOptions, resolveMethod, selectorFactory } from '../select/registry.js';
import { MODEL_FORMAT, MODEL_VERSION, type ModelFile } from './file.js';
import { describeUnread, trackOptionReads } from './unread-options.js';

export interface FitOptions {
  /** A method name or alias; tadpole with detector auto (the default's older spelling) fits contrast. */
  method: string;
  task: string[];
  general: string[];
  /** The general sample's segments (FitContext.generalGroups). */
  generalGroups?: Uint32Array | undefined;
  embedder?: EmbedderSpec | undefined;
  seed: number;
  options: Record<string, unknown>;
  taskFiles?: string[] | undefined;
  generalFiles?: string[] | undefined;
  /** Sentences not to keep (FitContext.avoid): the default's fit only. */
  avoid?: string[] | undefined;
  avoidFiles?: string[] | undefined;
  log?: ((line: string) => void) | undefined;
  /** The default's held-out measure, run on another thread (FitContext.chooseAside). */
  chooseAside?: ChooseAside | undefined;
  /** Options the fit never read (unread-options.ts); without it, they are a warning on log. */
  onUnreadOptions?: ((keys: string[]) => void) | undefined;
}

/** Does this fit self-train by segments (contrast, the default, also under its older spellings)? */
export function selfTrains(method: string, options: Record<string, unknown>): boolean {
  const name = canonicalMethod(method);
  return name === 'contrast' || (name === 'tadpole' && options.detector === 'auto');
}

/** Text not to keep weighs on the general side of the default's fit (select/avoid.ts); no other method takes it. */
export function checkAvoid(method: string, options: Record<string, unknown>, given: boolean): void {
  if (!given || selfTrains(method, options)) return;
  throw new TadpoleError('TADPOLE_USAGE', `--avoid works with the default fit (method contrast); ${method}${options.detector ? ` --detector ${String(options.detector)}` : ''} does not take text to avoid`);
}

export async function fitModel(asked: FitOptions): Promise<ModelFile> {
  const resolved = resolveMethod(asked.method, asked.options);
  const opts: FitOptions = { ...asked, ...resolved };
  const factory = selectorFactory(opts.method);
  // An option no part of the method declares is an error before any work (a typo says so).
  checkMethodOptions(opts.method, opts.options);
  if (opts.task.length === 0) throw new TadpoleError('TADPOLE_INPUT', 'the task data holds no sentences: check --task files and --format/--text-field');
  if (factory.needsGeneral && opts.general.length === 0) {
    throw new TadpoleError('TADPOLE_USAGE', `method "${opts.method}" needs a general-domain sample: give --general FILE`);
  }
  checkAvoid(opts.method, opts.options, !!opts.avoid?.length);
  let embedder: Embedder | undefined;
  try {
    // Methods that can use an embedder (tadpole) use one when the caller names it.
    if (factory.needsEmbedder || opts.embedder) embedder = await createEmbedder(opts.embedder ?? { kind: 'hash' });
    const options = trackOptionReads(opts.options);
    const selector = await factory.fit({
      task: opts.task,
      general: opts.general,
      ...(opts.generalGroups ? { generalGroups: opts.generalGroups } : {}),
      ...(embedder ? { embedder } : {}),
      ...(opts.avoid?.length ? { avoid: opts.avoid } : {}),
      seed: opts.seed,
      options: options.tracked,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.chooseAside ? { chooseAside: opts.chooseAside } : {}),
    });
    const unread = options.unread();
    if (unread.length) {
      if (opts.onUnreadOptions) opts.onUnreadOptions(unread);
      else opts.log?.(describeUnread(opts.method, unread, opts.options));
    }
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
        ...(opts.avoid?.length ? { avoidSentences: opts.avoid.length, avoidFiles: opts.avoidFiles ?? [] } : {}),
      },
    };
    if (embedder && opts.embedder?.kind === 'onnx' && opts.embedder.modelDir) model.embedderHint = { modelDir: opts.embedder.modelDir };
    return model;
  } finally {
    await embedder?.dispose();
  }
}
