import { selfTrains } from './complete.js';
import type { ModelFile } from './file.js';
import { autoChoiceOf } from '../select/auto.js';
import { SELF_TRAINING_DEFAULTS } from '../select/self-training.js';

/** The share a fit without --keep sized its moves for: contrast moves a quarter of the share per round (auto.ts). */
const DEFAULT_FIT_KEEP = SELF_TRAINING_DEFAULTS.expand * 4;

/**
 * A model whose fit found the task near random against the corpus (auto's held-out AUROC)
 * says so again every time it filters: nothing may select near random silently.
 */
export function warnNearRandom(model: ModelFile, warn: (line: string) => void): void {
  if (!model.selector) return; // completed at filter time: its fit prints its own figures and warning
  const choice = autoChoiceOf(model.selector);
  if (choice?.warning) warn(choice.warning);
}

/** The share the default's self-training was sized for at fit time (self-training.ts: a quarter of it per round). */
function fittedKeep(options: Record<string, unknown>): number | undefined {
  if (typeof options.keep === 'number') return options.keep;
  if (typeof options.expand === 'number') return undefined; // sized by hand, not by a share
  return DEFAULT_FIT_KEEP;
}

/**
 * --keep 0 keeps nothing; a model whose self-training was sized at fit time for a share far
 * from the one filtered (fit --general --keep 0.1, filter --keep 0.3) moved segments for
 * another cut. A model completed from the corpus is sized by this --keep: nothing to warn.
 */
export function warnKeep(model: ModelFile, keep: number, cuts: boolean, warn: (line: string) => void): void {
  if (cuts && keep === 0) warn('--keep 0 keeps nothing: the output will be empty');
  // Keeping everything (or nothing) does not depend on how the segments were ranked.
  if (!cuts || keep === 0 || keep >= 1 || !model.selector || !selfTrains(model.method, model.fit.options)) return;
  const fitted = fittedKeep(model.fit.options);
  if (fitted === undefined || (keep <= 2 * fitted && keep >= fitted / 2)) return;
  warn(`this model's self-training was sized for keeping ${pct(fitted)} (fit --keep ${fitted}${typeof model.fit.options.keep === 'number' ? '' : ', its default'}), and this filter keeps ${pct(keep)}: refit with --keep ${keep}, or fit without --general so that filter sizes it`);
}

function pct(x: number): string {
  return `${Number((100 * x).toPrecision(3))}%`;
}
