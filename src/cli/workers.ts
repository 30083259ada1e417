import { TadpoleError } from '../core/errors.js';
import { defaultWorkers } from '../pipeline/pool.js';
import { num, type FlagSpec, type ParsedArgs } from './args.js';

/** `--workers N`, shared by the commands that score. */
export const workersFlag: FlagSpec = {
  name: 'workers',
  type: 'int',
  arg: 'N',
  help: 'Scoring threads; 1 scores in the main thread [default: the cores available; 1 for input files under 4 MB]',
};

export function workersFrom(args: ParsedArgs, inputs: string[]): number {
  const n = num(args, 'workers') ?? defaultWorkers(inputs);
  if (!Number.isInteger(n) || n < 1) throw new TadpoleError('TADPOLE_USAGE', `--workers must be a whole number >= 1, not ${n}`);
  return n;
}
