/**
 * Worker thread entry: completes a model (model/complete.ts), or fits one for `tadpole fit`
 * (model/fit.ts), away from the main thread, so that the main thread stays free to answer
 * SIGINT/SIGTERM/SIGHUP at once: a fit is seconds of synchronous work, during which a handler
 * on the main thread would not run. It is started before the text is sampled and given its
 * job (CompletionJob or FitJob) as its one message.
 */
import { parentPort } from 'node:worker_threads';
import { TadpoleError } from '../core/errors.js';
import { completeModel } from '../model/complete.js';
import { fitModel } from '../model/fit.js';
import { chooseOnThread } from './choice-thread.js';
import type { CompletionJob, CompletionReply, FitJob } from './complete-protocol.js';

const post = (m: CompletionReply) => parentPort!.postMessage(m);
parentPort!.once('message', (job: CompletionJob | FitJob) => {
  const log = (line: string) => post({ log: line });
  const done = 'fit' in job
    ? fitModel({ ...job.fit, chooseAside: job.fit.measureAside ? chooseOnThread : undefined, log })
    : completeModel(job.model, job.sample, { embedder: job.embedder, keep: job.keep, keepBy: job.keepBy, chooseAside: job.measureAside ? chooseOnThread : undefined, log });
  done
    .then((model) => post({ model }))
    .catch((err: unknown) => post({ error: { message: (err as Error).message ?? String(err), code: err instanceof TadpoleError ? err.code : undefined } }));
});
