import type { FlagSpec, ParsedArgs } from './args.js';
import { DEFAULT_KEEP_BY, type KeepBy } from '../cut/exact.js';
import { recordedKeepBy } from '../run/run-dir.js';

export const keepByFlag: FlagSpec = {
  name: 'keep-by',
  type: 'string',
  choices: ['bytes', 'sentences'],
  default: DEFAULT_KEEP_BY,
  arg: 'UNIT',
  help: 'What --keep is a share of: the text (UTF-8 bytes) or its sentences; a run directory keeps the unit it recorded unless this names one',
};

/**
 * --keep-by: as named; else the unit the run in `runDir` recorded, so that a run resumed or
 * cut again never switches unit under its user; else the default.
 */
export function keepByFrom(args: ParsedArgs, runDir?: string): KeepBy {
  const named = args.given ? args.given.has('keepBy') : args.flags.keepBy !== undefined;
  if (named) return args.flags.keepBy as KeepBy;
  return (runDir ? recordedKeepBy(runDir) : undefined) ?? DEFAULT_KEEP_BY;
}
