import { TadpoleError } from '../core/errors.js';
import { numWithDefault, type FlagSpec, type ParsedArgs } from './args.js';
import { DEFAULT_DOC_CONTEXT } from '../segment/context.js';

/** `--doc-context K`, shared by the commands that score segments (filter, score). */
export const docContextFlag: FlagSpec = {
  name: 'doc-context',
  type: 'number',
  arg: 'K',
  default: DEFAULT_DOC_CONTEXT,
  help: "Score each segment in its document's context: sentences weigh by length, and the document's mean counts as K more sentences; 0 = the paper's plain mean of the segment's sentences",
};

/** --doc-context, or the default; refuses a negative or non-finite K. */
export function docContextFrom(args: ParsedArgs): number {
  const k = numWithDefault(args, 'docContext');
  if (!(Number.isFinite(k) && k >= 0)) throw new TadpoleError('TADPOLE_USAGE', `--doc-context must be a number >= 0 (0 turns it off), not ${k}`);
  return k;
}
