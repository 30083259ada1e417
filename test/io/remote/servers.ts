import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client, CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';

/**
 * An HTTP server with Range, ETag and If-Match, on 127.0.0.1, whose faults a test sets:
 * 503s before an answer, a connection cut partway through a body, an object replaced after
 * a number of GETs. It counts the GETs and the bytes it sent for each path.
 */
export class RangeServer {
  readonly objects = new Map<string, Buffer>();
  readonly gets = new Map<string, number>();
  readonly authorizations: string[] = [];
  bytesSent = 0;
  /** Every GET answered with a body, in order: its path and the byte range it asked for. */
  readonly log: Array<{ path: string; start: number; end: number }> = [];
  /** path -> 503 answers still to give before the real ones. */
  readonly unavailable = new Map<string, number>();
  /** path -> body bytes after which the next GET's connection is cut (once). */
  readonly cutAfter = new Map<string, number>();
  /** path -> [GETs, new bytes]: the object is replaced once that many GETs were answered. */
  readonly replaceAfter = new Map<string, [number, Buffer]>();
  /** Answers only requests with this Authorization header when set. */
  requireAuthorization: string | undefined;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (req.headers.authorization) this.authorizations.push(req.headers.authorization);
    if (this.requireAuthorization !== undefined && req.headers.authorization !== this.requireAuthorization) return void res.writeHead(401).end();
    const body = this.objects.get(path);
    if (!body) return void res.writeHead(404).end();
    const left503 = this.unavailable.get(path) ?? 0;
    if (left503 > 0) {
      this.unavailable.set(path, left503 - 1);
      return void res.writeHead(503, { 'retry-after': '0' }).end();
    }
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (req.headers['if-match'] && req.headers['if-match'] !== etag) return void res.writeHead(412).end();
    if (req.method === 'HEAD') return void res.writeHead(200, { 'content-length': body.length, etag }).end();
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = body.length;
    if (m) {
      start = Number(m[1]);
      end = m[2] ? Math.min(body.length, Number(m[2]) + 1) : body.length;
      if (start >= body.length) return void res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
    }
    const n = (this.gets.get(path) ?? 0) + 1;
    this.gets.set(path, n);
    const replace = this.replaceAfter.get(path);
    if (replace && n >= replace[0]) {
      this.objects.set(path, replace[1]);
      this.replaceAfter.delete(path);
    }
    const part = body.subarray(start, end);
    this.log.push({ path, start, end });
    res.writeHead(m ? 206 : 200, { 'content-length': part.length, etag, 'accept-ranges': 'bytes', ...(m ? { 'content-range': `bytes ${start}-${end - 1}/${body.length}` } : {}) });
    const cut = this.cutAfter.get(path);
    if (cut !== undefined && cut < part.length) {
      this.cutAfter.delete(path);
      this.bytesSent += cut;
      res.write(part.subarray(0, cut), () => res.destroy());
      return;
    }
    this.bytesSent += part.length;
    res.end(part);
  }
}

/** s3rver on 127.0.0.1 in a folder of its own, silent; the official SDK as the client that fills it. */
export async function startS3(dir: string): Promise<{ endpoint: string; put: (bucket: string, key: string, body: Buffer) => Promise<void>; stop: () => Promise<void> }> {
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: S3_KEYS, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  const buckets = new Set<string>();
  return {
    endpoint,
    async put(bucket, key, body) {
      if (!buckets.has(bucket)) {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        buckets.add(bucket);
      }
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async stop() {
      client.destroy();
      await server.close();
    },
  };
}

/** s3rver's fixed keys. */
export const S3_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The variables a tadpole process reads the local S3 server through. */
export function s3Env(endpoint: string): NodeJS.ProcessEnv {
  return { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey, AWS_REGION: 'us-east-1', AWS_PROFILE: '', AWS_CONFIG_FILE: '/nonexistent', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent' };
}
