import { formatOptionHelp, wrapText } from '../core/option-decl.js';
import { DETECTOR_HELP, DETECTOR_NAMES } from '../detect/registry.js';
import { METHOD_NAMES, methodOwners, resolveMethod, selectorFactory } from './registry.js';

/**
 * `fit --help`'s tail: the methods; with a method asked (or a detector, which implies
 * tadpole), what it does and its declared options with defaults (with tadpole, also those of
 * the detector, default iforest, and the list of detectors).
 */
export function methodHelp(asked: string | undefined, detector: string | undefined): string {
  if (asked === undefined && detector === undefined) {
    const width = Math.max(...METHOD_NAMES.map((m) => m.length)) + 2;
    const lines = ['', 'Methods (tadpole fit --method NAME --help for its options):', ...METHOD_NAMES.map((m) => `  ${m.padEnd(width)}${selectorFactory(m).summary}`)];
    return lines.join('\n') + '\n';
  }
  const { method, options } = resolveMethod(asked, detector === undefined ? {} : { detector });
  const factory = selectorFactory(method);
  const lines = ['', `Method ${method}:`, ...factory.explain.split('\n').flatMap((l) => wrapText(l, '  '))];
  for (const owner of methodOwners(method, options)) {
    lines.push('', `Options of ${owner.label} (--option KEY=VALUE; KEY=DEFAULT shown):`, ...formatOptionHelp(owner));
  }
  if (method === 'tadpole') {
    const width = Math.max(...DETECTOR_NAMES.map((n) => n.length)) + 2;
    const local: [string, string][] = [
      ['task-knn', '1 - mean cosine similarity to the k nearest task vectors'],
      ['knn-ratio', "similarity to the k nearest general vectors minus that to the task's (needs --general)"],
      ['ensemble', 'z-scores of the components added up (--option components=...; needs --general)'],
    ];
    const rows: [string, string][] = [...DETECTOR_NAMES.map((n): [string, string] => [n, DETECTOR_HELP[n] ?? '']), ...local];
    lines.push('', 'Detectors (--detector NAME; with --help, its options):');
    for (const [name, text] of rows) {
      const wrapped = wrapText(text, ' '.repeat(width + 2));
      lines.push(`  ${name.padEnd(width)}${(wrapped[0] ?? '').trimStart()}`, ...wrapped.slice(1));
    }
  }
  return lines.join('\n') + '\n';
}
