/** Every selection method by name (`--method NAME`), and the options each one declares. */
import { TadpoleError } from '../core/errors.js';
import { detectorOptions } from '../detect/registry.js';
import { contrastSelector } from './auto.js';
import { classifierSelector } from './classifier.js';
import { linkRegistry } from './registry-link.js';
import { distanceSelector } from './distance.js';
import { dsirSelector } from './dsir.js';
import { fasttextSelector } from './fasttext.js';
import { knnTaptSelector } from './knn-tapt.js';
import { mooreLewisSelector } from './moore-lewis.js';
import { checkOptions, suggestNames, type OptionOwner } from '../core/option-decl.js';
import { randomSelector } from './random.js';
import type { SelectorFactory } from './selector.js';
import { tadpoleOwners, tadpoleSelector } from './tadpole.js';
import { textgramSelector } from './textgram.js';
import { tfidfSelector } from './tfidf.js';

const FACTORIES: readonly SelectorFactory[] = [contrastSelector, tadpoleSelector, randomSelector, distanceSelector, knnTaptSelector, mooreLewisSelector, dsirSelector, textgramSelector, classifierSelector, tfidfSelector, fasttextSelector];

/** The method a fit runs when none is named. */
export const DEFAULT_METHOD = 'contrast';

/** Older names still accepted, on the command line and in model files: `auto` was the default's. */
export const METHOD_ALIASES: Readonly<Record<string, string>> = { auto: 'contrast' };

export const METHOD_NAMES: readonly string[] = FACTORIES.map((f) => f.method);

/** A method's name as the registry holds it (an alias resolved). */
export function canonicalMethod(method: string): string {
  return Object.prototype.hasOwnProperty.call(METHOD_ALIASES, method) ? (METHOD_ALIASES[method] as string) : method;
}

export function selectorFactory(method: string): SelectorFactory {
  const name = canonicalMethod(method);
  const f = FACTORIES.find((x) => x.method === name);
  if (!f) {
    const near = suggestNames(method, METHOD_NAMES);
    throw new TadpoleError('TADPOLE_USAGE', `unknown method "${method}"${near.length ? `; did you mean ${near[0]}?` : ''} (methods: ${METHOD_NAMES.join(', ')})`);
  }
  return f;
}

/**
 * The method a fit runs, from what was asked: no method fits the default (contrast), unless a
 * detector is named (then the paper's method, tadpole); `auto`, and tadpole with detector
 * `auto` (the default's older spellings), fit contrast. The options come back without a
 * `detector` that only said "the default".
 */
export function resolveMethod(method: string | undefined, options: Record<string, unknown>): { method: string; options: Record<string, unknown> } {
  const detector = options.detector;
  const { detector: _dropped, ...rest } = options;
  if (method === undefined) return detector === undefined || detector === 'auto' ? { method: DEFAULT_METHOD, options: rest } : { method: 'tadpole', options };
  const name = canonicalMethod(method);
  if (name === 'tadpole' && detector === 'auto') return { method: DEFAULT_METHOD, options: rest };
  if (name === DEFAULT_METHOD && detector !== undefined) {
    if (detector === 'auto') return { method: name, options: rest };
    throw new TadpoleError('TADPOLE_USAGE', `--detector ${String(detector)} is an option of --method tadpole (the paper's method); ${method} has no detector`);
  }
  selectorFactory(name);
  return { method: name, options };
}

/** Whose options a fit of this method takes: the method's, and for tadpole its registry detector's. */
export function methodOwners(method: string, options: Record<string, unknown>): OptionOwner[] {
  const f = selectorFactory(method);
  if (f.method === 'tadpole') return tadpoleOwners(detectorOptions, options);
  return [{ label: `method ${f.method}`, options: f.options }];
}

/** Every option declared by the method (or its detector) and in range; otherwise a usage error that says which. */
export function checkMethodOptions(method: string, options: Record<string, unknown>): void {
  const f = selectorFactory(method);
  const owners = methodOwners(method, options);
  const help = `see tadpole fit --method ${f.method}${f.method === 'tadpole' && options.detector !== undefined ? ` --detector ${String(options.detector)}` : ''} --help`;
  for (const key of Object.keys(options)) {
    if (owners.some((o) => o.options.some((d) => d.name === key)) || suggestNames(key, owners.flatMap((o) => o.options.map((d) => d.name))).length) continue;
    // Not this method's, nor close to one of its names: say whose it is, if another method's.
    const others = FACTORIES.filter((x) => x !== f && x.options.some((d) => d.name === key)).map((x) => x.method);
    if (others.length) throw new TadpoleError('TADPOLE_USAGE', `unknown option '${key}' for method ${f.method}: it is an option of ${others.join(', ')} (${help})`);
  }
  checkOptions(owners, options, help);
}

linkRegistry({ selectorFactory, checkMethodOptions });
