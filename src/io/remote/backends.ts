import type { RemoteLocation } from './url.js';

/** One answer to a ranged GET: the body from `from` on, with what the server says the object is. */
export interface RangeAnswer {
  body: AsyncIterable<Uint8Array>;
  /** The byte of the object the body starts at (0 when a server ignored the Range). */
  from: number;
  etag: string;
  /** The object's size, from Content-Range (or Content-Length when the whole object came). */
  size: number;
  abort(): void;
}

/** A server's refusal, with its status: the retry loop decides from it what to do. */
export class RemoteStatus extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** 429 and 5xx (S3's SlowDown is a 503) are worth another try; 4xx otherwise are answers. */
export function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export interface ObjectListing {
  key: string;
  size: number;
}

/** GET bytes [start, end) of the object, `If-Match: etag` when known. */
export async function getRange(loc: RemoteLocation, start: number, end: number, etag: string | undefined): Promise<RangeAnswer> {
  return loc.kind === 's3' ? s3Get(loc, start, end, etag) : httpGet(loc, start, end, etag);
}

/** Size and ETag without the body: for an empty object, which no Range can be asked of. */
export async function headObject(loc: RemoteLocation): Promise<{ size: number; etag: string }> {
  if (loc.kind === 's3') {
    const { sdk, client } = await s3();
    const res = await s3Send(() => client.send(new sdk.HeadObjectCommand({ Bucket: loc.bucket, Key: loc.key })));
    return { size: res.ContentLength ?? 0, etag: res.ETag ?? '' };
  }
  const res = await fetch(loc.url, { method: 'HEAD', headers: loc.auth ? { authorization: loc.auth } : {} });
  if (!res.ok) throw new RemoteStatus(res.status, `HTTP ${res.status} ${res.statusText}`);
  return { size: Number(res.headers.get('content-length') ?? 0), etag: res.headers.get('etag') ?? '' };
}

/** Every object under an S3 prefix, in the order S3 lists them (by key, as UTF-8 bytes). */
export async function listPrefix(bucket: string, prefix: string): Promise<ObjectListing[]> {
  const { sdk, client } = await s3();
  const out: ObjectListing[] = [];
  let token: string | undefined;
  do {
    const res = await s3Send(() => client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) })));
    for (const o of res.Contents ?? []) if (o.Key !== undefined) out.push({ key: o.Key, size: o.Size ?? 0 });
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return out;
}

async function httpGet(loc: Extract<RemoteLocation, { kind: 'http' }>, start: number, end: number, etag: string | undefined): Promise<RangeAnswer> {
  const ac = new AbortController();
  const headers: Record<string, string> = { range: `bytes=${start}-${end - 1}`, 'accept-encoding': 'identity' };
  if (etag) headers['if-match'] = etag;
  if (loc.auth) headers.authorization = loc.auth;
  const res = await fetch(loc.url, { headers, signal: ac.signal });
  if (res.status !== 206 && res.status !== 200) {
    ac.abort();
    throw new RemoteStatus(res.status, `HTTP ${res.status} ${res.statusText}`);
  }
  const range = /bytes (\d+)-\d+\/(\d+)/.exec(res.headers.get('content-range') ?? '');
  const from = res.status === 206 && range ? Number(range[1]) : 0;
  const size = range ? Number(range[2]) : Number(res.headers.get('content-length') ?? -1);
  const body = res.body ?? (async function* () {})();
  return { body: body as AsyncIterable<Uint8Array>, from, size, etag: res.headers.get('etag') ?? '', abort: () => ac.abort() };
}

async function s3Get(loc: Extract<RemoteLocation, { kind: 's3' }>, start: number, end: number, etag: string | undefined): Promise<RangeAnswer> {
  const { sdk, client } = await s3();
  const ac = new AbortController();
  const res = await s3Send(() => client.send(new sdk.GetObjectCommand({ Bucket: loc.bucket, Key: loc.key, Range: `bytes=${start}-${end - 1}`, ...(etag ? { IfMatch: etag } : {}) }), { abortSignal: ac.signal }));
  const range = /bytes (\d+)-\d+\/(\d+)/.exec(res.ContentRange ?? '');
  const body = res.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
  return {
    body: body ?? (async function* () {})(),
    from: range ? Number(range[1]) : 0,
    size: range ? Number(range[2]) : (res.ContentLength ?? -1),
    etag: res.ETag ?? '',
    abort: () => {
      body?.destroy?.();
      ac.abort();
    },
  };
}

type Sdk = typeof import('@aws-sdk/client-s3');
let shared: Promise<{ sdk: Sdk; client: InstanceType<Sdk['S3Client']> }> | undefined;

/**
 * One S3 client per thread, built on first use from the standard AWS variables and files
 * (keys, AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL(_S3)); the SDK is loaded only then, so
 * commands on local files never load it. Path-style addressing with an endpoint, so a
 * local server (MinIO, s3rver) works; retries are ours (src/io/remote/read.ts), not the SDK's.
 */
export function s3(): Promise<{ sdk: Sdk; client: InstanceType<Sdk['S3Client']> }> {
  shared ??= (async () => {
    // The SDK warns on every Node before 22, which would be a second line on stderr.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const sdk = await import('@aws-sdk/client-s3');
    const env = process.env;
    const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL;
    const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || (endpoint ? 'us-east-1' : undefined);
    const client = new sdk.S3Client({
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      ...(region ? { region } : {}),
      maxAttempts: 1,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { sdk, client };
  })();
  return shared;
}

/** An SDK call whose HTTP refusals become RemoteStatus (network faults pass through, to be retried). */
async function s3Send<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode ?? (e.name === 'SlowDown' ? 503 : undefined);
    if (status !== undefined) throw new RemoteStatus(status, `${e.name ?? 'S3 error'}${e.message && e.message !== e.name ? `: ${e.message}` : ''} (HTTP ${status})`);
    if (/region is missing/i.test(e.message ?? '')) throw new RemoteStatus(400, 'no AWS region: set AWS_REGION (or a region in the AWS_PROFILE)');
    if (e.name === 'CredentialsProviderError') throw new RemoteStatus(401, `no AWS credentials (${e.message}): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE`);
    throw err;
  }
}
