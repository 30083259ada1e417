/**
 * The ONE file that loads onnxruntime-node. It is loaded lazily (createRequire at first
 * use), so a missing or broken native binary becomes a TADPOLE_EMBEDDER error for the
 * commands that need ONNX, and no other command notices.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { TadpoleError } from '../../core/errors.js';

type OrtModule = typeof Ort;

let ortModule: OrtModule | undefined;

function loadOrt(): OrtModule {
  if (ortModule) return ortModule;
  const require = createRequire(import.meta.url);
  // onnxruntime's Linux build starts Microsoft's telemetry client with its first session, and
  // that client leaves `.ses` and an empty `mat-debug-PID.log` in TMPDIR on every run. Off,
  // unless the user set the variable; it must be in the environment before the runtime loads.
  process.env['ORT_DISABLE_TELEMETRY'] ??= '1';
  try {
    ortModule = require('onnxruntime-node') as OrtModule;
  } catch (err) {
    throw new TadpoleError(
      'TADPOLE_EMBEDDER',
      `cannot load onnxruntime-node (needed by --embedder onnx): ${(err as Error).message.split('\n')[0]}. ` +
        `It is an optional dependency: npm install onnxruntime-node (ONNXRUNTIME_NODE_INSTALL=skip works offline: the CPU runtime ships in the package), or use --embedder hash`,
      { cause: err },
    );
  }
  return ortModule;
}

/** Folder of the native binding; the CUDA provider .so files must sit here for ORT to find them. */
export function ortBinaryDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const main = require.resolve('onnxruntime-node');
    return join(dirname(main), '..', 'bin', 'napi-v6', process.platform, process.arch);
  } catch {
    return undefined;
  }
}

export type Device = { kind: 'cpu' } | { kind: 'cuda'; id: number } | { kind: 'auto'; id: number };

export function parseDevice(device: string | undefined): Device {
  const d = (device ?? 'auto').trim().toLowerCase();
  if (d === 'cpu') return { kind: 'cpu' };
  if (d === 'auto') return { kind: 'auto', id: 0 };
  const m = /^cuda(?::(\d+))?$/.exec(d);
  if (m) return { kind: 'cuda', id: m[1] === undefined ? 0 : Number(m[1]) };
  throw new TadpoleError('TADPOLE_USAGE', `unsupported device "${device}"; should be one of: auto, cpu, cuda, cuda:N`);
}

export interface SessionOptions {
  device: Device;
  /** CPU intra-op threads; default: onnxruntime's choice (one per physical core). */
  threads?: number;
  log: (line: string) => void;
}

export interface OutputTensor {
  /** float32 values, or (an fp16 output) raw IEEE half bits for halfToFloat, left to whoever pools them. */
  data: Float32Array | Uint16Array;
  dims: readonly number[];
}

/** What the embedder needs from a session: named int64 inputs in, float32 outputs out. */
export interface OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Shapes as declared by the model; symbolic dims are strings. */
  readonly outputShapes: ReadonlyMap<string, readonly (number | string)[]>;
  /** 'cuda:N' or 'cpu'. */
  readonly provider: string;
  /** inputs: name -> int64 data of shape [batch, seq]. Resolves to the requested output. */
  run(inputs: Map<string, BigInt64Array>, batch: number, seq: number, output: string): Promise<OutputTensor>;
  dispose(): Promise<void>;
}

function cpuOptions(threads: number | undefined): Ort.InferenceSession.SessionOptions {
  return {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    interOpNumThreads: 1,
    ...(threads !== undefined && threads > 0 ? { intraOpNumThreads: threads } : {}),
  };
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0] ?? '';
}

async function createCuda(ort: OrtModule, path: string, id: number): Promise<Ort.InferenceSession> {
  const dir = ortBinaryDir();
  if (dir && !existsSync(join(dir, 'libonnxruntime_providers_cuda.so'))) {
    throw new Error(`CUDA execution provider not installed (no libonnxruntime_providers_cuda.so in ${dir}; see src/embed/onnx/README-GPU.md)`);
  }
  return ort.InferenceSession.create(path, {
    executionProviders: [{ name: 'cuda', deviceId: id }],
    graphOptimizationLevel: 'all',
  });
}

export async function createSession(path: string, opts: SessionOptions): Promise<OnnxSession> {
  const ort = loadOrt();
  let session: Ort.InferenceSession;
  let provider = 'cpu';
  const dev = opts.device;
  try {
    if (dev.kind === 'cpu') {
      session = await ort.InferenceSession.create(path, cpuOptions(opts.threads));
    } else {
      try {
        session = await createCuda(ort, path, dev.id);
        provider = `cuda:${dev.id}`;
      } catch (err) {
        if (dev.kind === 'cuda') {
          throw new TadpoleError('TADPOLE_EMBEDDER', `--device cuda:${dev.id} failed: ${firstLine(err)}. Use --device cpu or auto, or see src/embed/onnx/README-GPU.md`, {
            cause: err,
          });
        }
        opts.log(`tadpole: CUDA unavailable, using CPU (${firstLine(err)})`);
        session = await ort.InferenceSession.create(path, cpuOptions(opts.threads));
      }
    }
  } catch (err) {
    if (err instanceof TadpoleError) throw err;
    throw new TadpoleError('TADPOLE_EMBEDDER', `cannot load ONNX model ${path}: ${firstLine(err)}`, { file: path, cause: err });
  }
  return wrap(ort, session, provider);
}

function wrap(ort: OrtModule, session: Ort.InferenceSession, provider: string): OnnxSession {
  const outputShapes = new Map<string, readonly (number | string)[]>();
  for (const m of session.outputMetadata) if (m.isTensor) outputShapes.set(m.name, m.shape);
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    outputShapes,
    provider,
    async run(inputs, batch, seq, output) {
      const feeds: Record<string, Ort.Tensor> = {};
      for (const [name, data] of inputs) feeds[name] = new ort.Tensor('int64', data, [batch, seq]);
      const result = await session.run(feeds, [output]);
      const t = result[output];
      if (t && t.type === 'float16') return { data: t.data instanceof Uint16Array ? t.data : halfToFloat(t.data as ArrayLike<number>), dims: t.dims };
      if (!t || t.type !== 'float32') {
        throw new TadpoleError('TADPOLE_EMBEDDER', `model output "${output}" is ${t ? t.type : 'missing'}, expected float32 or float16`);
      }
      return { data: t.data as Float32Array, dims: t.dims };
    },
    async dispose() {
      await session.release();
    },
  };
}

/** Every half value as float32 by the IEEE formula, built at first use (256 KB). */
let halfTable: Float32Array | undefined;

function halfValues(): Float32Array {
  if (halfTable) return halfTable;
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const frac = h & 0x3ff;
    if (exp === 0) t[h] = sign * frac * 2 ** -24;
    else if (exp === 31) t[h] = frac ? NaN : sign * Infinity;
    else t[h] = sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  halfTable = t;
  return t;
}

/**
 * fp16 outputs (fp16 exports on CUDA) arrive as raw IEEE half bits in a Uint16Array. Bit
 * moves, not arithmetic per element: computing each value (a power of two per element) cost
 * about 0.7 ms a sentence of [seq, 384] output and held an fp16 model on an H200 to 1.4k
 * sentences/s.
 */
export function halfToFloat(src: ArrayLike<number>): Float32Array {
  const out = new Float32Array(src.length);
  if (!(src instanceof Uint16Array)) {
    // A runtime with Float16Array hands back real numbers already.
    for (let i = 0; i < src.length; i++) out[i] = src[i] as number;
    return out;
  }
  // Normal numbers by moving bits (rebias the exponent, widen the fraction); zeros,
  // subnormals, infinities and NaN, which are rare, from the table.
  const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  let t: Float32Array | undefined;
  for (let i = 0; i < src.length; i++) {
    const h = src[i] as number;
    const e = h & 0x7c00;
    if (e !== 0 && e !== 0x7c00) bits[i] = ((h & 0x8000) << 16) | (((h & 0x7fff) + 0x1c000) << 13);
    else out[i] = (t ??= halfValues())[h] as number;
  }
  return out;
}
