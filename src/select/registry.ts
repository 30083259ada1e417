/** Every selection method by name (`--method NAME`). */
import { TadpoleError } from '../core/errors.js';
import { autoSelector } from './auto.js';
import { classifierSelector } from './classifier.js';
import { linkRegistry } from './registry-link.js';
import { distanceSelector } from './distance.js';
import { dsirSelector } from './dsir.js';
import { knnTaptSelector } from './knn-tapt.js';
import { mooreLewisSelector } from './moore-lewis.js';
import { randomSelector } from './random.js';
import type { SelectorFactory } from './selector.js';
import { tadpoleSelector } from './tadpole.js';
import { textgramSelector } from './textgram.js';

const FACTORIES: readonly SelectorFactory[] = [tadpoleSelector, randomSelector, distanceSelector, knnTaptSelector, mooreLewisSelector, dsirSelector, textgramSelector, classifierSelector, autoSelector];

export const METHOD_NAMES: readonly string[] = FACTORIES.map((f) => f.method);

export function selectorFactory(method: string): SelectorFactory {
  const f = FACTORIES.find((x) => x.method === method);
  if (!f) throw new TadpoleError('TADPOLE_USAGE', `unknown method "${method}"; should be one of: ${METHOD_NAMES.join(', ')}`);
  return f;
}

linkRegistry({ selectorFactory });
