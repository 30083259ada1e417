import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';
import type { RemoteObject } from './read.js';
import { remoteSync } from './sync.js';

const OBJECTS_KEY = 'tadpole.remote.objects';

type Shared = Record<string, { size: number; etag: string; head: Uint8Array }>;

const known = new Map<string, RemoteObject>();

/**
 * A remote object as this process first saw it (size, ETag, first bytes): stat'ed once, then
 * read from here by every stage and every worker thread (environment data reaches the threads
 * started after it is set), so that all reads of a run hold the object to the same ETag and an
 * object replaced midway is refused, not half read.
 */
export function remoteObject(name: string): RemoteObject {
  const have = known.get(name);
  if (have) return have;
  const shared = (getEnvironmentData(OBJECTS_KEY) as Shared | undefined)?.[name];
  const o: RemoteObject = shared ? { size: shared.size, etag: shared.etag, head: Buffer.from(shared.head) } : remoteSync<RemoteObject>({ op: 'stat', name });
  const head = Buffer.from(o.head.buffer, o.head.byteOffset, o.head.byteLength);
  const entry = { size: o.size, etag: o.etag, head };
  known.set(name, entry);
  if (!shared) setEnvironmentData(OBJECTS_KEY, { ...((getEnvironmentData(OBJECTS_KEY) as Shared | undefined) ?? {}), [name]: { size: o.size, etag: o.etag, head: new Uint8Array(head) } });
  return entry;
}

/** The corpus objects under a remote folder name, sorted as a local folder's files are. */
export function remoteFolder(name: string): string[] {
  return remoteSync<string[]>({ op: 'list', name });
}

/** Bytes [start, end) of a remote object, read now (a seek, a window, a planner's scan). */
export function readRemoteSync(name: string, start: number, end: number): Buffer {
  const expect = remoteObject(name);
  if (end <= start) return Buffer.alloc(0);
  const got = remoteSync<Uint8Array>({ op: 'read', name, start, end, expect });
  return Buffer.from(got.buffer, got.byteOffset, got.byteLength);
}
