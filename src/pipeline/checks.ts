import { TadpoleError } from '../core/errors.js';
import { STDIN } from '../io/input.js';
import { inputPath, type InputRef } from '../io/input-kind.js';

/** --keep is a share of the corpus. */
export function checkKeep(keep: number): void {
  if (!(keep >= 0 && keep <= 1)) throw new TadpoleError('TADPOLE_USAGE', `--keep must be between 0 and 1, got ${keep}`);
}

/** What every filter run (in-process, run directory) checks before it reads anything. */
export function checkFilterOptions(opts: { keep: number; segment: number; docContext?: number; inputs: readonly InputRef[] }): void {
  checkKeep(opts.keep);
  if (!(Number.isInteger(opts.segment) && opts.segment >= 1)) throw new TadpoleError('TADPOLE_USAGE', `--segment must be a positive integer, got ${opts.segment}`);
  if (opts.docContext !== undefined && !(Number.isFinite(opts.docContext) && opts.docContext >= 0)) throw new TadpoleError('TADPOLE_USAGE', `--doc-context must be a number >= 0 (0 turns it off), got ${opts.docContext}`);
  if (opts.inputs.filter((i) => inputPath(i) === STDIN).length > 1) throw new TadpoleError('TADPOLE_USAGE', 'stdin (-) can be given only once');
}
