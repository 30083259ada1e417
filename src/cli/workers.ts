import { num, type FlagSpec, type ParsedArgs } from './args.js';
import { workersFor } from '../threads/pool.js';

/** `--workers N`, shared by the commands that score. */
export const workersFlag: FlagSpec = {
  name: 'workers',
  type: 'int',
  arg: 'N',
  help: 'Scoring threads, the main thread included (N - 1 workers); 1 starts no worker; at most 4 per core, and as many as fit under `ulimit -v` [default: one per 40 MB of input files (a thread costs about a CPU-second to start), up to the cores available; the cores for stdin]',
};

/**
 * eval scores small mixes (smoke-bio: 0.4 MB) once per method, where starting workers for
 * each method cost more than they saved (measured: 10.5 s with 2 workers vs 7.0 s with 1).
 */
export const evalWorkersFlag: FlagSpec = { ...workersFlag, help: 'Scoring threads per method [default: 1: eval mixes are small]' };

/** --workers, or the default for these inputs (undefined inputs: one thread). */
export function workersFrom(args: ParsedArgs, inputs: Parameters<typeof workersFor>[1]): number {
  return workersFor(num(args, 'workers'), inputs);
}
