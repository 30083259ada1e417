import { TadpoleError } from '../core/errors.js';
import type { Embedder, EmbedderFingerprint } from './embedder.js';
import { HashEmbedder } from './hash.js';

export type EmbedderKind = 'hash' | 'onnx';
export const EMBEDDER_KINDS: readonly EmbedderKind[] = ['hash', 'onnx'];

export interface EmbedderSpec {
  kind: EmbedderKind;
  /** hash */
  dims?: number;
  seed?: number;
  /** onnx */
  modelDir?: string;
  onnxFile?: string;
  device?: string;
  batchSize?: number;
  maxTokens?: number;
  pooling?: 'mean' | 'cls';
  threads?: number;
  log?: (line: string) => void;
}

export async function createEmbedder(spec: EmbedderSpec): Promise<Embedder> {
  switch (spec.kind) {
    case 'hash':
      return new HashEmbedder({ ...(spec.dims !== undefined ? { dims: spec.dims } : {}), ...(spec.seed !== undefined ? { seed: spec.seed } : {}) });
    case 'onnx': {
      // Loaded lazily: commands that never embed with ONNX do not load the native runtime.
      const { createOnnxEmbedder } = await import('./onnx/index.js');
      const opts: Record<string, unknown> = {};
      for (const k of ['modelDir', 'onnxFile', 'device', 'batchSize', 'maxTokens', 'pooling', 'threads', 'log'] as const) {
        if (spec[k] !== undefined) opts[k] = spec[k];
      }
      return createOnnxEmbedder(opts);
    }
    default:
      throw new TadpoleError('TADPOLE_USAGE', `unknown embedder "${String((spec as { kind: unknown }).kind)}"; should be one of: ${EMBEDDER_KINDS.join(', ')}`);
  }
}

/** The spec that recreates the embedder a model file was fitted with (the user may override ONNX paths). */
export function specFromFingerprint(fp: EmbedderFingerprint, override: Partial<EmbedderSpec> = {}): EmbedderSpec {
  if (fp.kind === 'hash') return { kind: 'hash', dims: override.dims ?? fp.dims, seed: override.seed ?? Number(fp.seed ?? 0) };
  if (fp.kind === 'onnx') {
    const spec: EmbedderSpec = { kind: 'onnx', ...override };
    if (spec.maxTokens === undefined && typeof fp.maxTokens === 'number') spec.maxTokens = fp.maxTokens;
    if (spec.pooling === undefined && (fp.pooling === 'mean' || fp.pooling === 'cls')) spec.pooling = fp.pooling;
    if (spec.modelDir === undefined && typeof fp.modelDir === 'string' && !process.env.TADPOLE_MODEL) spec.modelDir = fp.modelDir;
    return spec;
  }
  throw new TadpoleError('TADPOLE_MODEL', `model file names an unknown embedder kind "${fp.kind}"`);
}

/** Fields that must match between the model file and the embedder used to filter. */
export function fingerprintMismatch(expected: EmbedderFingerprint, actual: EmbedderFingerprint): string | undefined {
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const k of keys) {
    if (k === 'modelDir' || k === 'model') continue; // where it lives may differ; the sha256 decides
    const a = JSON.stringify(expected[k]);
    const b = JSON.stringify(actual[k]);
    if (a !== b) return `${k}: model file has ${a}, embedder has ${b}`;
  }
  return undefined;
}
