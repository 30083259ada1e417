/**
 * The default's held-out measure (select/auto.ts, chooseCandidate) on a thread of its own.
 * With one candidate, the self-training does not wait for it: given a second thread, the
 * completion fits the classifier and DSIR on the held-in sentences there, while this thread
 * runs the self-training's fits. Same inputs, same code: the same figures as on one thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { TadpoleError, type TadpoleErrorCode } from '../core/errors.js';
import type { AutoChoice, ChoiceJob } from '../select/choice.js';
import { startWorker } from './pool.js';

/**
 * Whether a run on `threads` threads should measure aside: only where a core is left beside
 * the two busy ones. On two cores it gained nothing in wall time (task-only `filter --workers 2`:
 * 0.99x, 0.89-1.06x; `fit`: 0.98x) for 6-19% more CPU, the second isolate's compiling
 * competing with both fits (docs/benchmarks/speed-and-memory.md, "A task-only model").
 */
export function measuresAside(threads: number): boolean {
  return threads > 1 && availableParallelism() > 2;
}

export type ChoiceReply = { choice: AutoChoice } | { error: { message: string; code?: string | undefined } };

/** chooseCandidate for `job` on a new worker thread, which ends when it answers. */
export function chooseOnThread(job: ChoiceJob): Promise<AutoChoice> {
  const worker = startWorker(choiceWorkerScript(), job);
  return new Promise<AutoChoice>((resolve, reject) => {
    worker.once('message', (m: ChoiceReply) => {
      if ('choice' in m) resolve(m.choice);
      else reject(m.error.code ? new TadpoleError(m.error.code as TadpoleErrorCode, m.error.message) : new Error(m.error.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new TadpoleError('TADPOLE_INTERNAL', `the held-out measure's thread stopped (exit ${code}) before it answered`)));
  }).finally(() => void worker.terminate());
}

/** The compiled worker beside this module; from the TypeScript sources (tests), the one in dist/. */
function choiceWorkerScript(): URL {
  const here = new URL('./choice-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL('../../dist/threads/choice-worker.js', import.meta.url);
}
