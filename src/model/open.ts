import { storageFault, TadpoleError, writeFailure } from '../core/errors.js';
import type { Embedder } from '../embed/embedder.js';
import { createEmbedder, fingerprintMismatch, specFromFingerprint, type EmbedderSpec } from '../embed/factory.js';
import { damaged, declaredCount } from '../core/b64.js';
import { printable } from '../core/printable.js';
import { canonicalMethod, selectorFactory } from '../select/registry.js';
import type { SelectorFactory, SentenceScorer } from '../select/selector.js';
import type { ModelFile } from './file.js';

/**
 * The scorer a model file describes, with its embedder recreated and checked: a model
 * fitted with another embedder (kind, dims, weights, pooling) is refused.
 */
export async function openScorer(model: ModelFile, override: Partial<EmbedderSpec> = {}): Promise<SentenceScorer> {
  const factory = factoryOf(model);
  if (!model.selector) {
    throw new TadpoleError('TADPOLE_MODEL', `this ${model.method} model was fitted without --general and is completed from the corpus by tadpole filter; to use it elsewhere, refit with --general FILE (a sample of the corpus; large plain files are sampled by seeking)`);
  }
  const selector = model.selector;
  let embedder: Embedder | undefined;
  if (factory.needsEmbedder && !model.embedder) throw new TadpoleError('TADPOLE_MODEL', `model file (method ${model.method}) records no embedder`);
  if (model.embedder) {
    checkEmbedderDims(model.embedder.dims);
    if (override.kind && override.kind !== model.embedder.kind) {
      throw new TadpoleError('TADPOLE_MODEL_MISMATCH', `model was fitted with the ${model.embedder.kind} embedder, not ${override.kind}: refit, or drop --embedder`);
    }
    const hint = model.embedderHint?.modelDir;
    const { kind: _ignored, ...rest } = override;
    const spec = specFromFingerprint(model.embedder, { ...(hint && !override.modelDir && !process.env.TADPOLE_MODEL ? { modelDir: hint } : {}), ...rest });
    embedder = await createEmbedder(spec);
    const why = fingerprintMismatch(model.embedder, embedder.fingerprint);
    if (why) {
      await embedder.dispose();
      throw new TadpoleError('TADPOLE_MODEL_MISMATCH', `the embedder differs from the one the model was fitted with (${why}); refit the model or point --model-dir at the same model`);
    }
  }
  let scorer: SentenceScorer;
  try {
    scorer = await factory.load(selector, { ...(embedder ? { embedder } : {}), seed: model.fit?.seed ?? 0, options: model.fit?.options ?? {} });
  } catch (err) {
    await embedder?.dispose();
    throw asModelDamage(err);
  }
  if (!embedder) return scorer;
  const emb = embedder;
  return {
    method: scorer.method,
    score: (s) => scorer.score(s),
    dispose: async () => {
      await scorer.dispose();
      await emb.dispose();
    },
  };
}

/** The selector a model names, its file's method and its selector's agreeing (a mislabelled file is refused). */
function factoryOf(model: ModelFile): SelectorFactory {
  let factory: SelectorFactory;
  try {
    factory = selectorFactory(model.method);
  } catch (err) {
    throw new TadpoleError('TADPOLE_MODEL', printable(`model file names ${(err as Error).message}: refit the model or restore the file`));
  }
  const inner = (model.selector as { method?: unknown } | undefined)?.method;
  if (model.selector && (typeof inner !== 'string' || canonicalMethod(inner) !== factory.method)) {
    throw new TadpoleError('TADPOLE_MODEL', printable(`model file is damaged: it says method ${model.method} but holds ${typeof inner === 'string' ? `a ${inner}` : 'an unnamed'} selector; refit the model or restore the file`));
  }
  return factory;
}

/**
 * A load that failed on something the checks before it did not name (a field of the wrong
 * type deep in the state): still a damaged model, in one line, not an internal error.
 */
function asModelDamage(err: unknown): TadpoleError {
  if (err instanceof TadpoleError) return err;
  // A full or read-only scratch disk under the load (a kNN index is read back through a file) is no damage to the model.
  if (storageFault(err)) return writeFailure((err as NodeJS.ErrnoException).path ?? 'a scratch file', err);
  return new TadpoleError('TADPOLE_MODEL', printable(`model file is damaged: ${err instanceof Error ? err.message : String(err)}; refit the model or restore the file`), { cause: err });
}

/** Wider than any sentence embedder (64..4096): a model that declares more is damaged, and would allocate dims x batch floats. */
const MAX_EMBEDDER_DIMS = 65_536;

function checkEmbedderDims(dims: unknown): void {
  if (declaredCount(dims, 'embedder "dims"') > MAX_EMBEDDER_DIMS) {
    throw damaged('embedder "dims"', `${String(dims)}, over ${MAX_EMBEDDER_DIMS}`);
  }
}
