/**
 * One scoring worker of a ScoringPool (pool.ts): opens the model's scorer, then, per
 * batch, splits the documents into sentences and scores them (a worker started without a
 * model only splits). Batches are handled one at
 * a time, in the order they arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TadpoleError } from '../core/errors.js';
import { openScorer } from '../model/open.js';
import type { SentenceScorer } from '../select/selector.js';
import { splitSentences } from '../text/sentences.js';
import type { PoolReply, PoolRequest, PoolWorkerData, ScoreRequest } from './pool-protocol.js';

const port = parentPort!;
const data = workerData as PoolWorkerData;

function post(reply: PoolReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(reply, transfer);
}

function errorReply(id: number, err: unknown): PoolReply {
  if (err instanceof TadpoleError) return { type: 'error', id, code: err.code, message: err.message };
  return { type: 'error', id, message: err instanceof Error ? err.message : String(err) };
}

async function score(scorer: SentenceScorer | undefined, req: ScoreRequest): Promise<void> {
  const buf = Buffer.from(req.text);
  const ends = new Int32Array(req.ends);
  const nDocs = ends.length - 1;
  const counts = new Int32Array(nDocs);
  const perDoc: number[][] = new Array(nDocs);
  const sentences: string[] = [];
  let total = 0;
  for (let d = 0; d < nDocs; d++) {
    const text = buf.toString(req.encoding, ends[d]!, ends[d + 1]!);
    const spans = splitSentences(text);
    perDoc[d] = spans;
    counts[d] = spans.length;
    total += spans.length;
    if (scorer) for (let j = 0; j < spans.length; j += 2) sentences.push(text.slice(spans[j], spans[j + 1]));
  }
  const flat = new Int32Array(total);
  let at = 0;
  for (const spans of perDoc) {
    flat.set(spans, at);
    at += spans.length;
  }
  const scores = scorer && sentences.length > 0 ? await scorer.score(sentences) : new Float64Array(0);
  // A copy we own (a scorer may return a view, or reuse its buffer): a few KB a batch.
  const own = new Float64Array(scores);
  post({ type: 'scored', id: req.id, spans: flat.buffer, counts: counts.buffer, scores: own.buffer }, [flat.buffer, counts.buffer, own.buffer]);
}

async function main(): Promise<void> {
  let scorer: SentenceScorer | undefined;
  try {
    if (data.model) scorer = await openScorer(data.model, data.log ? { ...data.embedder, log: (line) => post({ type: 'log', line }) } : data.embedder);
  } catch (err) {
    post(errorReply(-1, err));
    return;
  }
  post({ type: 'ready' });
  let chain = Promise.resolve();
  let closing = false;
  port.on('message', (req: PoolRequest) => {
    if (req.type === 'close') {
      closing = true;
      chain = chain.then(async () => {
        await scorer?.dispose().catch(() => undefined);
        port.close();
      });
      return;
    }
    chain = chain.then(() => (closing ? undefined : score(scorer, req).catch((err) => post(errorReply(req.id, err)))));
  });
}

void main();
