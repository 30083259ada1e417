import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRemoteBytes, statRemote } from '../../../src/io/remote/read.js';
import { TadpoleError } from '../../../src/core/errors.js';
import { RangeServer } from './servers.js';

const server = new RangeServer();
let base: string;
const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(''));

beforeAll(async () => {
  base = await server.start();
});
afterAll(() => server.stop());

describe('Range reads of a remote object', () => {
  it('stats an object in one GET: size, ETag and its first 64 KiB; an empty one by HEAD', async () => {
    server.objects.set('/a.txt', body);
    server.objects.set('/empty.txt', Buffer.alloc(0));
    const o = await statRemote(`${base}/a.txt`);
    expect(o.size).toBe(body.length);
    expect(o.etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(o.head.equals(body.subarray(0, 65536))).toBe(true);
    expect(server.gets.get('/a.txt')).toBe(1);
    const e = await statRemote(`${base}/empty.txt`);
    expect(e.size).toBe(0);
    expect(e.head.length).toBe(0);
  });

  it('reads a byte range through 503s and a cut connection, resuming at the byte reached', async () => {
    server.objects.set('/b.txt', body);
    const o = await statRemote(`${base}/b.txt`);
    server.unavailable.set('/b.txt', 2);
    server.cutAfter.set('/b.txt', 50_000);
    const before = server.bytesSent;
    const got = await readRemoteBytes(`${base}/b.txt`, 1000, 180_000, o);
    expect(got.equals(body.subarray(1000, 180_000))).toBe(true);
    // The resumed request asked only for what was missing.
    expect(server.bytesSent - before).toBe(179_000);
  });

  it('refuses an object whose ETag changed since it was first seen (exit 3)', async () => {
    server.objects.set('/c.txt', body);
    const o = await statRemote(`${base}/c.txt`);
    server.objects.set('/c.txt', Buffer.concat([body, Buffer.from('more')]));
    const err = await readRemoteBytes(`${base}/c.txt`, 0, 100, o).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TadpoleError);
    expect((err as TadpoleError).exitCode).toBe(3);
    expect((err as Error).message).toMatch(/the input changed while tadpole read it/);
  });

  it('gives up after its tries with one line naming the object, never its credentials', async () => {
    server.objects.set('/d.txt', body);
    server.unavailable.set('/d.txt', 100);
    const prev = process.env.TADPOLE_REMOTE_TRIES;
    process.env.TADPOLE_REMOTE_TRIES = '2';
    try {
      const err = await statRemote(`${base}/d.txt`).catch((e: unknown) => e);
      expect((err as Error).message).toBe(`${base}/d.txt: cannot read input (HTTP 503 Service Unavailable)`);
      const missing = await statRemote(`${base}/none.txt`).catch((e: unknown) => e);
      expect((missing as TadpoleError).exitCode).toBe(3);
    } finally {
      if (prev === undefined) delete process.env.TADPOLE_REMOTE_TRIES;
      else process.env.TADPOLE_REMOTE_TRIES = prev;
    }
  });
});
