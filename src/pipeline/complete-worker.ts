/**
 * Worker thread entry: completes a model (model/complete.ts) away from the main thread, so
 * that the main thread stays free to answer SIGINT/SIGTERM at once: a fit is seconds of
 * synchronous work, during which a handler on the main thread would not run. It is started
 * before the corpus is sampled and given its job (CompletionJob) as its one message.
 */
import { parentPort } from 'node:worker_threads';
import { TadpoleError } from '../core/errors.js';
import { completeModel } from '../model/complete.js';
import { chooseOnThread } from './choice-thread.js';
import type { CompletionJob, CompletionReply } from './complete-protocol.js';

const post = (m: CompletionReply) => parentPort!.postMessage(m);
parentPort!.once('message', (job: CompletionJob) => {
  completeModel(job.model, job.sample, { ...(job.embedder ? { embedder: job.embedder } : {}), ...(job.keep !== undefined ? { keep: job.keep } : {}), ...(job.measureAside ? { chooseAside: chooseOnThread } : {}), log: (line) => post({ log: line }) })
    .then((model) => post({ model }))
    .catch((err: unknown) => post({ error: { message: (err as Error).message ?? String(err), ...(err instanceof TadpoleError ? { code: err.code } : {}) } }));
});
