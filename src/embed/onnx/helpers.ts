import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TadpoleError, type TadpoleErrorCode } from '../../core/errors.js';
import type { HelperData, HelperReply, HelperRequest } from './helper-protocol.js';

/**
 * Helper threads of an embedder on a GPU: they tokenize and pool, the main thread only
 * packs batches and starts runs. Measured on news-bbc sentences (scripts/bench/embed-js.js),
 * one JS thread spends about 10 us a sentence tokenizing (word cache warm) and 44 us
 * pooling a [batch, seq, 384] output, against about 29 us of H200 time a sentence at batch
 * 256: in the main thread that work, not the device, set the rate.
 */

/** Sentences per tokenize request: small enough that the helpers share a window evenly. */
export const TOKENIZE_CHUNK = 512;

/** Helper threads by default: one core stays with the main thread, and 8 outrun any single device measured. */
export function defaultHelperThreads(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 8));
}

interface Waiting {
  resolve: (r: HelperReply) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

export class EmbedHelpers {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private busy = 0;
  private failure: Error | undefined;

  constructor(threads: number, data: HelperData) {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(helperScript(), { workerData: data, execArgv: [] });
      // Idle helpers must not keep the process alive; pending requests ref them (request()).
      worker.unref();
      const slot: Slot = { worker, waiting: new Map() };
      worker.on('message', (m: HelperReply) => this.settle(slot, m));
      worker.on('error', (err) => this.fail(new TadpoleError('TADPOLE_EMBEDDER', `embedder helper thread failed: ${err.message}`, { cause: err })));
      worker.on('exit', (code) => {
        if (slot.waiting.size > 0) this.fail(new TadpoleError('TADPOLE_EMBEDDER', `embedder helper thread exited (code ${code}) with work pending`));
      });
      this.slots.push(slot);
    }
  }

  get threads(): number {
    return this.slots.length;
  }

  /** Token ids of each sentence, in order, from chunks tokenized in parallel. */
  async tokenize(sentences: string[]): Promise<Int32Array[]> {
    const chunks: Promise<HelperReply>[] = [];
    for (let i = 0; i < sentences.length; i += TOKENIZE_CHUNK) {
      chunks.push(this.request((id) => ({ type: 'tokenize', id, sentences: sentences.slice(i, i + TOKENIZE_CHUNK) })));
    }
    const out: Int32Array[] = new Array(sentences.length);
    let k = 0;
    for (const reply of await Promise.all(chunks)) {
      if (reply.type !== 'tokens') throw new TadpoleError('TADPOLE_INTERNAL', `embedder helper answered ${reply.type} to tokenize`);
      let start = 0;
      for (const end of reply.ends) {
        out[k++] = reply.ids.subarray(start, end);
        start = end;
      }
    }
    return out;
  }

  /** Pooled (and, if the embedder normalises, unit) vectors of one run's [batch, seq, dims] output (float32 or half bits); `hidden` is handed over. */
  async pool(hidden: Float32Array | Uint16Array, seq: number, lengths: Int32Array): Promise<Float32Array> {
    const reply = await this.request((id) => ({ type: 'pool', id, hidden, seq, lengths }), hidden);
    if (reply.type !== 'pooled') throw new TadpoleError('TADPOLE_INTERNAL', `embedder helper answered ${reply.type} to pool`);
    return reply.vectors;
  }

  private request(make: (id: number) => HelperRequest, handOver?: Float32Array | Uint16Array): Promise<HelperReply> {
    if (this.failure) return Promise.reject(this.failure);
    let slot = this.slots[0] as Slot;
    for (const s of this.slots) if (s.waiting.size < slot.waiting.size) slot = s;
    const id = this.nextId++;
    const req = make(id);
    return new Promise<HelperReply>((resolve, reject) => {
      slot.waiting.set(id, { resolve, reject });
      if (this.busy++ === 0) for (const s of this.slots) s.worker.ref();
      // A whole buffer moves without a copy; a view into a larger one (or a buffer the runtime will not let go) is copied.
      const whole = handOver !== undefined && handOver.byteOffset === 0 && handOver.byteLength === handOver.buffer.byteLength;
      try {
        slot.worker.postMessage(req, whole ? [handOver.buffer as ArrayBuffer] : []);
      } catch {
        slot.worker.postMessage(req);
      }
    });
  }

  private settle(slot: Slot, m: HelperReply): void {
    const w = slot.waiting.get(m.id);
    if (!w) return;
    slot.waiting.delete(m.id);
    this.idle();
    if (m.type === 'error') w.reject(m.code ? new TadpoleError(m.code as TadpoleErrorCode, m.message) : new Error(m.message));
    else w.resolve(m);
  }

  private idle(): void {
    if (--this.busy === 0) for (const s of this.slots) s.worker.unref();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const s of this.slots) {
      for (const w of s.waiting.values()) {
        this.idle();
        w.reject(this.failure);
      }
      s.waiting.clear();
    }
  }

  async dispose(): Promise<void> {
    await Promise.all(
      this.slots.map(async (s) => {
        await s.worker.terminate();
      }),
    );
  }
}

/** The compiled worker beside this module; from the TypeScript sources (tests), the one in dist/. */
function helperScript(): URL {
  const here = new URL('./helper-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL('../../../dist/embed/onnx/helper-worker.js', import.meta.url);
}
