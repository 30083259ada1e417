import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { TadpoleError } from '../../core/errors.js';
import type { Embedder, EmbedderFingerprint } from '../embedder.js';
import { packBatch, planBatches, type BatchPlan, type PackedBatch } from './batching.js';
import { pickOnnxFile, readModelDefaults, resolveModelDir } from './model-dir.js';
import { copyRows, l2NormalizeRows, poolTokens, type Pooling } from './pooling.js';
import { createSession, halfToFloat, parseDevice, type OnnxSession, type OutputTensor } from './runtime.js';
import { defaultHelperThreads, EmbedHelpers } from './helpers.js';
import { loadTokenizer, type WordPieceTokenizer } from './tokenizer.js';

export { planBatches, packBatch, type PackedBatch } from './batching.js';

export interface OnnxEmbedderOptions {
  modelDir?: string; // HF-style snapshot dir; else $TADPOLE_MODEL; else error naming what to do
  onnxFile?: string; // pick a specific .onnx inside/outside the dir
  device?: string; // 'auto' | 'cpu' | 'cuda' | 'cuda:N'  (default 'auto')
  batchSize?: number; // max sentences per batch (default by measurement, e.g. 64 on CPU)
  tokenBudget?: number; // max padded tokens per batch
  maxTokens?: number; // default: model limit, at most 512
  pooling?: 'mean' | 'cls'; // default from the model's config (sentence-transformers pooling config if present) else mean
  normalize?: boolean; // L2 normalise (default true)
  threads?: number; // CPU intra-op threads
  log?: (line: string) => void; // one-line notes (e.g. CUDA fallback reason) go here
  /** Prepare/pool batches while another runs (default: on CUDA only; see embed()). */
  overlap?: boolean;
  /**
   * Helper threads that tokenize and pool, so that the main thread only packs and starts
   * runs (default: on CUDA min(cores - 1, 8), on the CPU 0: there they would take cores
   * from onnxruntime's own threads). 0: all JS work in the main thread.
   */
  helperThreads?: number;
}

/**
 * CPU: the stand-in's PROVENANCE.md measured int8 MiniLM on 2 cores at 330 sent/s for batch 32
 * and 326 for sorted batch 128; 64 sits between with half the padding risk of 128. CUDA: on an
 * H200 the raw session ran MiniLM-L6 fastest at 256 (34.6k sent/s; 512: 32.4k, 1024: 23.3k;
 * docs/benchmarks/gpu.md).
 */
export const DEFAULT_BATCH = { cpu: 64, cuda: 256 } as const;
/** Padded tokens per batch: batch x 128 tokens, which bounds attention memory for long inputs. */
export const DEFAULT_TOKENS_PER_SENTENCE = 128;
/** Sentences sorted together; larger windows pad less but hold more token arrays. */
export const SORT_WINDOW = 8192;
export const MAX_TOKENS_CAP = 512;

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

interface OutputChoice {
  name: string;
  /** 3: token vectors to pool; 2: sentence vectors already. */
  rank: 2 | 3;
}

function chooseOutput(session: OnnxSession): OutputChoice {
  const shapes = session.outputShapes;
  if (shapes.has('last_hidden_state')) return { name: 'last_hidden_state', rank: 3 };
  for (const name of session.outputNames) if (shapes.get(name)?.length === 3) return { name, rank: 3 };
  for (const name of session.outputNames) if (shapes.get(name)?.length === 2) return { name, rank: 2 };
  throw new TadpoleError(
    'TADPOLE_EMBEDDER',
    `model has no usable output: need last_hidden_state, a [batch, seq, dims] output or a [batch, dims] output; it has ${session.outputNames.join(', ')}`,
  );
}

class OnnxEmbedder implements OnnxEmbedderHandle {
  readonly dims: number;
  readonly fingerprint: EmbedderFingerprint;
  private disposed = false;

  constructor(
    private readonly session: OnnxSession,
    private readonly tokenizer: WordPieceTokenizer,
    private readonly output: OutputChoice,
    private readonly cfg: { batchSize: number; tokenBudget: number; maxTokens: number; pooling: Pooling; normalize: boolean; inputs: Set<string>; overlap: boolean },
    dims: number,
    fingerprint: EmbedderFingerprint,
    private readonly helpers: EmbedHelpers | undefined,
  ) {
    this.dims = dims;
    this.fingerprint = fingerprint;
  }

  /** Token ids with [CLS]/[SEP], truncated to maxTokens. Exposed for benchmarks. */
  tokenize(sentence: string): Int32Array {
    return this.tokenizer.encode(sentence, this.cfg.maxTokens);
  }

  get provider(): string {
    return this.session.provider;
  }

  /** One packed batch straight through the session (benchmarks compare this with embed()). */
  runPacked(b: PackedBatch): Promise<OutputTensor> {
    return this.start(b);
  }

  private start(b: PackedBatch): Promise<OutputTensor> {
    const feeds = new Map<string, BigInt64Array>();
    const { inputs } = this.cfg;
    if (inputs.has('input_ids')) feeds.set('input_ids', b.inputIds);
    if (inputs.has('attention_mask')) feeds.set('attention_mask', b.attentionMask);
    if (inputs.has('token_type_ids')) feeds.set('token_type_ids', b.tokenTypeIds);
    return this.session.run(feeds, b.plan.rows.length, b.plan.seq, this.output.name);
  }

  /** Packed batches, one sort window at a time; tokenizing the next window happens when the generator is pulled, i.e. while a batch runs. */
  private *batches(sentences: string[]): Generator<PackedBatch & { base: number }> {
    for (let w = 0; w < sentences.length; w += SORT_WINDOW) {
      const end = Math.min(sentences.length, w + SORT_WINDOW);
      const tokens: Int32Array[] = new Array(end - w);
      const lengths = new Int32Array(end - w);
      for (let i = w; i < end; i++) {
        const t = this.tokenizer.encode(sentences[i] as string, this.cfg.maxTokens);
        tokens[i - w] = t;
        lengths[i - w] = t.length;
      }
      for (const plan of planBatches(lengths, this.cfg.batchSize, this.cfg.tokenBudget)) {
        yield { ...packBatch(plan, tokens, this.tokenizer.padId), base: w };
      }
    }
  }

  async embed(sentences: string[]): Promise<Float32Array> {
    if (this.disposed) throw new TadpoleError('TADPOLE_INTERNAL', 'onnx embedder used after dispose()');
    const dims = this.dims;
    const out = new Float32Array(sentences.length * dims);
    if (sentences.length === 0) return out;
    if (this.helpers) {
      await this.embedWithHelpers(this.helpers, sentences, out);
      return out;
    }
    const gen = this.batches(sentences);
    if (!this.cfg.overlap) {
      // CPU: onnxruntime's intra-op threads split each op statically across the cores, so a
      // busy JS thread makes one of them a straggler that the whole op waits for. JS work
      // (tokenize, pack, pool) therefore runs between runs, never during one.
      for (const batch of gen) this.collect(batch, await this.start(batch), out);
      return out;
    }
    let cur = gen.next();
    if (cur.done) return out;
    let running = this.start(cur.value);
    for (;;) {
      const batch = cur.value;
      // GPU: prepare the next batch while this one runs, and start it before pooling this one.
      const next = gen.next();
      const result = await running;
      if (!next.done) running = this.start(next.value);
      this.collect(batch, result, out);
      if (next.done) break;
      cur = next;
    }
    return out;
  }

  /**
   * The same windows, batches and arithmetic as the in-thread path (so the same vectors), with
   * tokenizing and pooling in the helpers: the next window is tokenized while this one's
   * batches run, each run starts as soon as the previous one returns, and its output is pooled
   * by a helper while the next runs.
   */
  private async embedWithHelpers(helpers: EmbedHelpers, sentences: string[], out: Float32Array): Promise<void> {
    // Promises that may reject before they are awaited carry a no-op handler, so a failure is thrown where awaited, not reported as unhandled.
    const handled = <T>(p: Promise<T>): Promise<T> => {
      p.catch(() => undefined);
      return p;
    };
    const windowTokens = (w: number): Promise<Int32Array[]> => handled(helpers.tokenize(sentences.slice(w, Math.min(sentences.length, w + SORT_WINDOW))));
    const pooled: Promise<void>[] = [];
    let tokensAhead = windowTokens(0);
    try {
      for (let w = 0; w < sentences.length; w += SORT_WINDOW) {
        const tokens = await tokensAhead;
        if (w + SORT_WINDOW < sentences.length) tokensAhead = windowTokens(w + SORT_WINDOW);
        const lengths = Int32Array.from(tokens, (t) => t.length);
        const plans = planBatches(lengths, this.cfg.batchSize, this.cfg.tokenBudget);
        let batch = packBatch(plans[0] as BatchPlan, tokens, this.tokenizer.padId);
        let running = this.start(batch);
        for (let i = 0; i < plans.length; i++) {
          const next = i + 1 < plans.length ? packBatch(plans[i + 1] as BatchPlan, tokens, this.tokenizer.padId) : undefined;
          const result = await running;
          if (next) running = this.start(next);
          pooled.push(handled(this.collectWith(helpers, { ...batch, base: w }, result, out)));
          if (next) batch = next;
        }
      }
    } catch (err) {
      // Every hand-off settles before embed() does, also on failure (no write into `out` afterwards).
      await Promise.allSettled(pooled);
      throw err;
    }
    await Promise.all(pooled);
  }

  private async collectWith(helpers: EmbedHelpers, batch: PackedBatch & { base: number }, result: OutputTensor, out: Float32Array): Promise<void> {
    if (this.output.rank !== 3) {
      this.collect(batch, result, out);
      return;
    }
    const dims = this.dims;
    this.checkDims(result);
    const vectors = await helpers.pool(result.data, batch.plan.seq, batch.lengths);
    const rows = batch.plan.rows;
    for (let i = 0; i < rows.length; i++) out.set(vectors.subarray(i * dims, (i + 1) * dims), ((rows[i] as number) + batch.base) * dims);
  }

  private checkDims(result: OutputTensor): void {
    const got = result.dims[result.dims.length - 1];
    if (got !== this.dims) throw new TadpoleError('TADPOLE_EMBEDDER', `model output has ${got} dims, expected ${this.dims}`);
  }

  private collect(batch: PackedBatch & { base: number }, result: OutputTensor, out: Float32Array): void {
    const dims = this.dims;
    const rows = new Int32Array(batch.plan.rows.length);
    for (let i = 0; i < rows.length; i++) rows[i] = (batch.plan.rows[i] as number) + batch.base;
    this.checkDims(result);
    const data = result.data instanceof Uint16Array ? halfToFloat(result.data) : result.data;
    if (this.output.rank === 3) poolTokens(data, batch.plan.seq, dims, batch.lengths, rows, this.cfg.pooling, out);
    else copyRows(data, dims, rows, out);
    if (this.cfg.normalize) l2NormalizeRows(out, dims, rows);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all([this.session.dispose(), this.helpers?.dispose()]);
  }
}

function positive(name: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 1) throw new TadpoleError('TADPOLE_USAGE', `${name} must be a positive integer, got ${v}`);
  return v;
}

/** The Embedder plus what benchmarks and diagnostics need. */
export interface OnnxEmbedderHandle extends Embedder {
  /** Token ids with [CLS]/[SEP], truncated to maxTokens. */
  tokenize(sentence: string): Int32Array;
  /** 'cpu' or 'cuda:N': where the session actually runs. */
  readonly provider: string;
  runPacked(batch: PackedBatch): Promise<OutputTensor>;
}

export async function createOnnxEmbedder(opts: OnnxEmbedderOptions): Promise<OnnxEmbedderHandle> {
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const device = parseDevice(opts.device);
  const dir = resolveModelDir(opts.modelDir, process.env);
  const onnxPath = pickOnnxFile(dir, opts.onnxFile);
  const tokenizer = loadTokenizer(dir);
  const defaults = readModelDefaults(dir, tokenizer.truncation);
  const maxTokens = Math.min(positive('maxTokens', opts.maxTokens) ?? defaults.maxTokens ?? MAX_TOKENS_CAP, MAX_TOKENS_CAP);
  if (maxTokens < 2) throw new TadpoleError('TADPOLE_USAGE', `maxTokens must be at least 2 ([CLS] and [SEP]), got ${maxTokens}`);
  const pooling: Pooling = opts.pooling ?? defaults.pooling ?? 'mean';
  if (pooling !== 'mean' && pooling !== 'cls') throw new TadpoleError('TADPOLE_USAGE', `unsupported pooling "${String(pooling)}"; should be one of: mean, cls`);
  const normalize = opts.normalize ?? true;
  const threads = positive('threads', opts.threads);

  const [session, modelSha256] = await Promise.all([
    createSession(onnxPath, { device, ...(threads !== undefined ? { threads } : {}), log }),
    sha256File(onnxPath),
  ]);
  try {
    const onGpu = session.provider.startsWith('cuda');
    const batchSize = positive('batchSize', opts.batchSize) ?? (onGpu ? DEFAULT_BATCH.cuda : DEFAULT_BATCH.cpu);
    const tokenBudget = positive('tokenBudget', opts.tokenBudget) ?? batchSize * DEFAULT_TOKENS_PER_SENTENCE;
    const inputs = new Set(session.inputNames);
    if (!inputs.has('input_ids')) {
      throw new TadpoleError('TADPOLE_EMBEDDER', `${onnxPath} has no input_ids input (inputs: ${session.inputNames.join(', ')}); is it a BERT-family encoder?`);
    }
    for (const name of session.inputNames) {
      if (name !== 'input_ids' && name !== 'attention_mask' && name !== 'token_type_ids') {
        throw new TadpoleError('TADPOLE_EMBEDDER', `${onnxPath} needs input "${name}", which a BERT embedder cannot supply`);
      }
    }
    const output = chooseOutput(session);
    const dims = await probeDims(session, output, tokenizer, inputs);
    const fingerprint: EmbedderFingerprint = {
      kind: 'onnx',
      dims,
      modelSha256,
      pooling: output.rank === 2 ? 'model' : pooling,
      maxTokens,
      normalize,
      model: basename(dir),
    };
    const helperThreads = opts.helperThreads === 0 ? 0 : (positive('helperThreads', opts.helperThreads) ?? (onGpu ? defaultHelperThreads() : 0));
    const helpers = helperThreads > 0 ? new EmbedHelpers(helperThreads, { modelDir: dir, maxTokens, dims, pooling, normalize }) : undefined;
    const cfg = { batchSize, tokenBudget, maxTokens, pooling, normalize, inputs, overlap: opts.overlap ?? onGpu };
    return new OnnxEmbedder(session, tokenizer, output, cfg, dims, fingerprint, helpers);
  } catch (err) {
    await session.dispose();
    throw err;
  }
}

/** The output width, read from the model: the declared shape, else one tiny run (which also warms the session up). */
async function probeDims(session: OnnxSession, output: OutputChoice, tokenizer: WordPieceTokenizer, inputs: Set<string>): Promise<number> {
  const t = tokenizer.encode('hello');
  const b = packBatch({ rows: new Int32Array([0]), seq: t.length }, [t], tokenizer.padId);
  const feeds = new Map<string, BigInt64Array>();
  if (inputs.has('input_ids')) feeds.set('input_ids', b.inputIds);
  if (inputs.has('attention_mask')) feeds.set('attention_mask', b.attentionMask);
  if (inputs.has('token_type_ids')) feeds.set('token_type_ids', b.tokenTypeIds);
  const r = await session.run(feeds, 1, t.length, output.name);
  const dims = r.dims[r.dims.length - 1];
  if (typeof dims !== 'number' || dims < 1 || r.dims.length !== output.rank) {
    throw new TadpoleError('TADPOLE_EMBEDDER', `model output "${output.name}" has shape [${r.dims.join(', ')}], expected rank ${output.rank}`);
  }
  return dims;
}
