import { PassThrough } from 'node:stream';
import { TadpoleError } from '../../core/errors.js';
import { s3 } from './backends.js';
import { safe } from './url.js';

/** Parts of 8 MiB (TADPOLE_UPLOAD_PART_MB, at least S3's 5), two in flight: at most 16 MiB of output held in memory. */
function partBytes(): number {
  const mb = Number(process.env.TADPOLE_UPLOAD_PART_MB);
  return (Number.isFinite(mb) && mb >= 5 ? mb : 8) * 1024 * 1024;
}

export interface RemoteUpload {
  /** What is written here becomes the object. */
  body: PassThrough;
  /** Waits until the object is complete (the multipart upload's last step); throws what failed. */
  done(): Promise<void>;
  /** Drops what was uploaded: no object appears. */
  abort(): Promise<void>;
}

/**
 * An `s3://bucket/key` output by multipart upload (@aws-sdk/lib-storage): the object exists
 * only once CompleteMultipartUpload (or, for under one part, the single PutObject) succeeds,
 * so a failed or interrupted run leaves none; its parts are aborted.
 */
export function uploadTo(url: string): RemoteUpload {
  const m = /^s3:\/\/([^/]+)\/(.+)$/i.exec(url);
  if (!m) throw new TadpoleError('TADPOLE_USAGE', `${safe(url)}: an output object is s3://BUCKET/KEY`);
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  let upload: { abort(): Promise<void> } | undefined;
  let aborted = false;
  const finished = (async () => {
    const { client } = await s3();
    const { Upload } = await import('@aws-sdk/lib-storage');
    const up = new Upload({ client, params: { Bucket: m[1]!, Key: m[2]!, Body: body }, partSize: partBytes(), queueSize: 2, leavePartsOnError: false });
    upload = up;
    if (aborted) await up.abort();
    await up.done();
  })();
  // Seen by done() or dropped by abort(): never an unhandled rejection.
  const outcome = finished.then(
    () => undefined,
    (err: unknown) => err,
  );
  return {
    body,
    async done() {
      const err = await outcome;
      if (err !== undefined) {
        const e = err as { name?: string; message?: string };
        throw new TadpoleError('TADPOLE_IO', safe(`cannot write ${url}: ${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message ?? String(err)}`), { file: url, cause: err });
      }
    },
    async abort() {
      aborted = true;
      await upload?.abort().catch(() => undefined);
      body.destroy();
      await outcome;
    },
  };
}
