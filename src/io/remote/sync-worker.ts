import { setEnvironmentData, workerData, parentPort, type MessagePort } from 'node:worker_threads';
import { TadpoleError } from '../../core/errors.js';
import { readRemoteBytes, statRemote } from './read.js';
import { listRemoteFolder } from './list.js';
import { CREDENTIALS_KEY, safe } from './url.js';
import type { SyncReply, SyncRequest } from './sync.js';

const flag = (workerData as { flag: Int32Array }).flag;

async function answer(request: SyncRequest): Promise<unknown> {
  if (request.op === 'stat') return statRemote(request.name);
  if (request.op === 'list') return listRemoteFolder(request.name);
  return readRemoteBytes(request.name, request.start, request.end, request.expect);
}

parentPort?.on('message', (m: { request: SyncRequest; port: MessagePort; credentials?: Record<string, string> }) => {
  if (m.credentials) setEnvironmentData(CREDENTIALS_KEY, m.credentials);
  void answer(m.request)
    .then(
      (value): SyncReply => ({ value }),
      (err: unknown): SyncReply => ({
        error: err instanceof TadpoleError ? { code: err.code, message: err.message, ...(err.file ? { file: err.file } : {}) } : { message: safe(`${m.request.name}: ${(err as Error).message}`) },
      }),
    )
    .then((reply) => {
      m.port.postMessage(reply);
      m.port.close();
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
});
