import { TadpoleError } from '../core/errors.js';
import type { Embedder } from '../embed/embedder.js';
import { createEmbedder, fingerprintMismatch, specFromFingerprint, type EmbedderSpec } from '../embed/factory.js';
import { selectorFactory } from '../select/registry.js';
import type { SentenceScorer } from '../select/selector.js';
import type { ModelFile } from './file.js';

/**
 * The scorer a model file describes, with its embedder recreated and checked: a model
 * fitted with another embedder (kind, dims, weights, pooling) is refused.
 */
export async function openScorer(model: ModelFile, override: Partial<EmbedderSpec> = {}): Promise<SentenceScorer> {
  const factory = selectorFactory(model.method);
  if (!model.selector) {
    throw new TadpoleError('TADPOLE_MODEL', `this ${model.method} model was fitted without --general and is completed from the corpus by tadpole filter; to use it elsewhere, refit with --general FILE (a sample of the corpus; large plain files are sampled by seeking)`);
  }
  const selector = model.selector;
  let embedder: Embedder | undefined;
  if (factory.needsEmbedder && !model.embedder) throw new TadpoleError('TADPOLE_MODEL', `model file (method ${model.method}) records no embedder`);
  if (model.embedder) {
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
  const scorer = await factory.load(selector, { ...(embedder ? { embedder } : {}), seed: model.fit.seed, options: model.fit.options });
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
