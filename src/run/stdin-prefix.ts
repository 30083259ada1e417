import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { TadpoleError } from '../core/errors.js';

/**
 * Resuming pass 1 on stdin: the input is piped again and must start with the bytes the
 * first attempt spooled (`previous`). Yields stdin unchanged, failing at the first
 * byte that differs.
 */
export function verifyPrefix(stdin: Readable, previous: string): Readable {
  async function* gen(): AsyncGenerator<Buffer> {
    const old = createReadStream(previous, { highWaterMark: 1 << 20 })[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let pending: Buffer = Buffer.alloc(0);
    let oldDone = false;
    let at = 0;
    for await (const raw of stdin) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
      let i = 0;
      while (i < chunk.length && !oldDone) {
        if (pending.length === 0) {
          const r = await old.next();
          if (r.done) {
            oldDone = true;
            break;
          }
          pending = r.value;
        }
        const n = Math.min(pending.length, chunk.length - i);
        if (!chunk.subarray(i, i + n).equals(pending.subarray(0, n))) {
          throw new TadpoleError('TADPOLE_INPUT_CHANGED', `stdin differs from the run's first attempt near byte ${at}: resume needs the same input piped again`);
        }
        pending = pending.subarray(n);
        i += n;
        at += n;
      }
      yield chunk;
    }
    if (!oldDone && (pending.length > 0 || !(await old.next()).done)) {
      throw new TadpoleError('TADPOLE_INPUT_CHANGED', `stdin ended at byte ${at}, before the bytes the run's first attempt had read: resume needs the same input piped again`);
    }
  }
  return Readable.from(gen());
}
