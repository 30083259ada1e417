import type { ModelFile } from '../model/file.js';
import { autoChoiceOf } from '../select/auto.js';
import type { CliIO } from './command.js';

/**
 * A model whose fit found the task near random against the corpus (auto's held-out AUROC)
 * says so again every time it filters: nothing may select near random silently.
 */
export function warnNearRandom(model: ModelFile, io: Pick<CliIO, 'stderr'>): void {
  if (!model.selector) return; // completed at filter time: its fit prints its own figures and warning
  const choice = autoChoiceOf(model.selector);
  if (choice?.warning) io.stderr.write(`tadpole: warning: ${choice.warning}\n`);
}
