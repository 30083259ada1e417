/** Worker thread entry: the default's held-out measure for choice-thread.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import { TadpoleError } from '../core/errors.js';
import { chooseFor } from '../select/auto.js';
import type { ChoiceJob } from '../select/choice.js';
// The registry links itself into auto's fits of components by name (registry-link.ts).
import '../select/registry.js';
import type { ChoiceReply } from './choice-thread.js';

const post = (m: ChoiceReply) => parentPort!.postMessage(m);
chooseFor(workerData as ChoiceJob)
  .then((choice) => post({ choice }))
  .catch((err: unknown) => post({ error: { message: (err as Error).message ?? String(err), code: err instanceof TadpoleError ? err.code : undefined } }));
