/**
 * What a method does, in two or three lines a user can read: the last lines of `tadpole fit`
 * and the first of `tadpole model show`. The text lives with each method (`explain` in
 * select/*.ts); this picks it for a fit or a model file, old spellings included.
 */
import { DETECTOR_HELP } from '../detect/registry.js';
import { canonicalMethod, selectorFactory } from '../select/registry.js';
import type { ModelFile } from './file.js';

export function explainFit(method: string, options: Record<string, unknown>): string[] {
  const f = selectorFactory(method);
  const lines = f.explain.split('\n');
  if (f.method === 'tadpole') {
    const detector = String(options.detector ?? 'iforest');
    lines.push(`detector ${detector}${DETECTOR_HELP[detector] ? `: ${DETECTOR_HELP[detector]}` : ''}`);
  }
  return lines;
}

/**
 * The method a model file holds, under its current name: `auto` models, and `tadpole` models
 * whose detector is `auto` (or, waiting for their corpus, not named), are the default, contrast.
 */
export function modelMethod(model: ModelFile): { method: string; options: Record<string, unknown> } {
  const name = canonicalMethod(model.method);
  const detector = model.selector ? model.selector.params?.detector : model.fit.options.detector;
  if (name === 'tadpole' && (detector === 'auto' || (!model.selector && detector === undefined))) return { method: 'contrast', options: {} };
  return { method: name, options: name === 'tadpole' ? { detector: detector ?? 'iforest' } : {} };
}

export function explainModel(model: ModelFile): string[] {
  const { method, options } = modelMethod(model);
  return explainFit(method, options);
}
