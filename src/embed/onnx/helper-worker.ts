/**
 * One helper thread of an embedder (helpers.ts): tokenizes chunks of sentences and pools
 * run outputs into sentence vectors with the same code the main thread uses, so that the
 * vectors are bit-identical to an embedder without helpers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TadpoleError } from '../../core/errors.js';
import type { HelperData, HelperReply, HelperRequest } from './helper-protocol.js';
import { l2NormalizeRows, poolTokens } from './pooling.js';
import { halfToFloat } from './runtime.js';
import { loadTokenizer } from './tokenizer.js';

const port = parentPort!;
const data = workerData as HelperData;
const tokenizer = loadTokenizer(data.modelDir);

function tokenize(id: number, sentences: string[]): void {
  const parts: Int32Array[] = new Array(sentences.length);
  const ends = new Int32Array(sentences.length);
  let n = 0;
  for (let i = 0; i < sentences.length; i++) {
    const t = tokenizer.encode(sentences[i] as string, data.maxTokens);
    parts[i] = t;
    n += t.length;
    ends[i] = n;
  }
  const ids = new Int32Array(n);
  for (let i = 0, o = 0; i < parts.length; i++) {
    ids.set(parts[i] as Int32Array, o);
    o = ends[i] as number;
  }
  const reply: HelperReply = { type: 'tokens', id, ids, ends };
  port.postMessage(reply, [ids.buffer, ends.buffer]);
}

function pool(id: number, raw: Float32Array | Uint16Array, seq: number, lengths: Int32Array): void {
  const hidden = raw instanceof Uint16Array ? halfToFloat(raw) : raw;
  const dims = data.dims;
  const rows = new Int32Array(lengths.length);
  for (let i = 0; i < rows.length; i++) rows[i] = i;
  const vectors = new Float32Array(lengths.length * dims);
  poolTokens(hidden, seq, dims, lengths, rows, data.pooling, vectors);
  if (data.normalize) l2NormalizeRows(vectors, dims, rows);
  const reply: HelperReply = { type: 'pooled', id, vectors };
  port.postMessage(reply, [vectors.buffer]);
}

port.on('message', (req: HelperRequest) => {
  try {
    if (req.type === 'tokenize') tokenize(req.id, req.sentences);
    else pool(req.id, req.hidden, req.seq, req.lengths);
  } catch (err) {
    const reply: HelperReply =
      err instanceof TadpoleError ? { type: 'error', id: req.id, code: err.code, message: err.message } : { type: 'error', id: req.id, message: String((err as Error)?.message ?? err) };
    port.postMessage(reply);
  }
});
