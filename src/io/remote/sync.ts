import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getEnvironmentData, MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { TadpoleError, type TadpoleErrorCode } from '../../core/errors.js';
import type { RemoteObject } from './read.js';
import { CREDENTIALS_KEY } from './url.js';

/** What the helper thread is asked (src/io/remote/sync-worker.ts). */
export type SyncRequest = { op: 'stat'; name: string } | { op: 'list'; name: string } | { op: 'read'; name: string; start: number; end: number; expect: RemoteObject };

export interface SyncReply {
  value?: unknown;
  error?: { code?: string; message: string; file?: string };
}

let helper: { worker: Worker; flag: Int32Array } | undefined;

/** No request waits longer than this (retries included) before the read is given up. */
const LIMIT_MS = 15 * 60 * 1000;

/**
 * A remote request made synchronously: the folder walk, the input's kind, the seek sampler,
 * the shard planner and the fingerprint read files with synchronous calls, and a remote object
 * takes their place through this. One helper thread does the request (with the SDK or fetch,
 * retries included) while the caller waits on a shared flag; the answer comes back on a
 * message port read without the event loop.
 */
export function remoteSync<T>(request: SyncRequest): T {
  helper ??= startHelper();
  const { port1, port2 } = new MessageChannel();
  Atomics.store(helper.flag, 0, 0);
  helper.worker.postMessage({ request, port: port2, credentials: getEnvironmentData(CREDENTIALS_KEY) }, [port2]);
  const started = Date.now();
  let reply: SyncReply | undefined;
  while (!reply) {
    Atomics.wait(helper.flag, 0, 0, 1000);
    reply = receiveMessageOnPort(port1)?.message as SyncReply | undefined;
    if (!reply && Date.now() - started > LIMIT_MS) {
      port1.close();
      throw new TadpoleError('TADPOLE_INPUT', `${request.name}: no answer from the server in ${LIMIT_MS / 60000} minutes`, { file: request.name });
    }
  }
  port1.close();
  if (reply.error) throw new TadpoleError((reply.error.code as TadpoleErrorCode | undefined) ?? 'TADPOLE_INPUT', reply.error.message, reply.error.file ? { file: reply.error.file } : {});
  return reply.value as T;
}

function startHelper(): { worker: Worker; flag: Int32Array } {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(helperScript(), { workerData: { flag }, execArgv: [] });
  // It serves calls only while one waits: it never keeps the process alive.
  worker.unref();
  return { worker, flag };
}

/** The compiled helper beside this module; from the TypeScript sources (tests), the one in dist/. */
function helperScript(): URL {
  const here = new URL('./sync-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL('../../../dist/io/remote/sync-worker.js', import.meta.url);
}
