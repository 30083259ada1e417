import { TadpoleError } from '../core/errors.js';
import { STDIN } from '../io/input.js';
import { inputPath, type InputRef } from '../io/input-kind.js';
import type { KeepBy } from '../cut/exact.js';
import { tokenCounter } from '../cut/tokens.js';

/** --keep is a share of the corpus (0..1) or an amount of the --keep-by unit (above 1: bytes, sentences, tokens). */
export function checkKeep(keep: number): void {
  if (!((keep >= 0 && keep <= 1) || (keep > 1 && Number.isSafeInteger(keep)))) throw new TadpoleError('TADPOLE_USAGE', `--keep must be between 0 and 1 (a share) or a whole amount of the --keep-by unit above 1 (5MB: 5000000 bytes), got ${keep}`);
}

/** What every filter run (in-process, run directory) checks before it reads anything. */
export function checkFilterOptions(opts: { keep: number; keepBy?: KeepBy | undefined; tokenizer?: string | undefined; threshold?: number | undefined; weights?: unknown; segment: number; docContext?: number | undefined; inputs: readonly InputRef[] }): void {
  checkKeep(opts.keep);
  const cuts = opts.threshold === undefined && !opts.weights;
  if (opts.tokenizer && !cuts) throw new TadpoleError('TADPOLE_USAGE', '--tokenizer counts tokens for the cut: drop it with --threshold or --weights');
  if (opts.keepBy === 'tokens' && cuts && !opts.tokenizer) throw new TadpoleError('TADPOLE_USAGE', '--keep-by tokens needs --tokenizer FILE (the tokenizer.json of the model the text is for)');
  // Loaded now (and kept for pass 1), so that a damaged file stops the run before it reads anything.
  if (opts.tokenizer) tokenCounter(opts.tokenizer);
  if (!(Number.isInteger(opts.segment) && opts.segment >= 1)) throw new TadpoleError('TADPOLE_USAGE', `--segment must be a positive integer, got ${opts.segment}`);
  if (opts.docContext !== undefined && !(Number.isFinite(opts.docContext) && opts.docContext >= 0)) throw new TadpoleError('TADPOLE_USAGE', `--doc-context must be a number >= 0 (0 turns it off), got ${opts.docContext}`);
  if (opts.inputs.filter((i) => inputPath(i) === STDIN).length > 1) throw new TadpoleError('TADPOLE_USAGE', 'stdin (-) can be given only once');
}
