/**
 * One scoring worker of a ScoringPool (pool.ts): opens the model's scorer, then, per
 * batch, splits the documents into sentences and scores them (a worker started without a
 * model only splits, until it is sent one). Requests are handled one at a time, in the
 * order they arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TadpoleError } from '../core/errors.js';
import { limitFault } from '../core/limits.js';
import { openScorer } from '../model/open.js';
import type { SentenceScorer } from '../select/selector.js';
import { splitSentences } from '../text/sentences.js';
import type { PoolReply, PoolRequest, PoolWorkerData, RangeHooks, RangeRequest, ScoreRequest } from './pool-protocol.js';
import { emitRange, scoreRange, type RangeEmitJob, type RangeJob } from './range-pass.js';
import { scoreSplit, slicesFor } from '../passes/scored.js';

const port = parentPort!;
const data = workerData as PoolWorkerData;

function post(reply: PoolReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(reply, transfer);
}

function errorReply(id: number, err: unknown): PoolReply {
  // An errno does not cross threads: a limit met here is said here, in the words main would use.
  const limit = limitFault(err);
  if (limit) return { type: 'error', id, code: 'TADPOLE_LIMIT', message: limit };
  if (err instanceof TadpoleError) return { type: 'error', id, code: err.code, message: err.message };
  return { type: 'error', id, message: err instanceof Error ? err.message : String(err) };
}

async function score(scorer: SentenceScorer | undefined, req: ScoreRequest): Promise<void> {
  const buf = Buffer.from(req.text);
  const ends = new Int32Array(req.ends);
  const nDocs = ends.length - 1;
  const counts = new Int32Array(nDocs);
  const perDoc: number[][] = new Array(nDocs);
  const texts: string[] = new Array(nDocs);
  const sentences: string[] = [];
  const slice = slicesFor(scorer);
  let total = 0;
  for (let d = 0; d < nDocs; d++) {
    const text = buf.toString(req.encoding, ends[d]!, ends[d + 1]!);
    const spans = splitSentences(text);
    texts[d] = text;
    perDoc[d] = spans;
    counts[d] = spans.length;
    total += spans.length;
    if (slice) for (let j = 0; j < spans.length; j += 2) sentences.push(text.slice(spans[j], spans[j + 1]));
  }
  const flat = new Int32Array(total);
  let at = 0;
  for (const spans of perDoc) {
    flat.set(spans, at);
    at += spans.length;
  }
  const scores = scorer ? await scoreSplit(scorer, texts, perDoc, sentences) : new Float64Array(0);
  // A copy we own (a scorer may return a view, or reuse its buffer): a few KB a batch.
  const own = new Float64Array(scores);
  post({ type: 'scored', id: req.id, spans: flat.buffer, counts: counts.buffer, scores: own.buffer }, [flat.buffer, counts.buffer, own.buffer]);
}

async function range(scorer: SentenceScorer | undefined, req: RangeRequest): Promise<void> {
  const flag = new Int32Array(req.abort);
  const hooks: RangeHooks = {
    progress: (docs, bytes) => post({ type: 'range-progress', id: req.id, docs, bytes }),
    aborted: () => Atomics.load(flag, 0) !== 0,
  };
  if (req.kind === 'emit') {
    post({ type: 'range-done', id: req.id, result: await emitRange(req.job as RangeEmitJob, hooks) });
    return;
  }
  if (!scorer) throw new TadpoleError('TADPOLE_INTERNAL', 'a worker without a model was asked to score a range');
  post({ type: 'range-done', id: req.id, result: await scoreRange(req.job as RangeJob, scorer, hooks) });
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
    if (req.type === 'model') {
      // Requests after this one score with the model; a failure fails the pool (id -1).
      chain = chain.then(async () => {
        try {
          await scorer?.dispose();
          scorer = await openScorer(req.model, req.embedder);
        } catch (err) {
          post(errorReply(-1, err));
        }
      });
      return;
    }
    const run = req.type === 'range' ? () => range(scorer, req) : () => score(scorer, req);
    chain = chain.then(() => (closing ? undefined : run().catch((err) => post(errorReply(req.id, err)))));
  });
}

void main();
