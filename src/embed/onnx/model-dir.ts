import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { TadpoleError } from '../../core/errors.js';
import { modelCacheDir, modelsRoot } from './cache.js';

/**
 * Where a model comes from: --model-dir, else $TADPOLE_MODEL; each may be a folder or the
 * name of a cached model (`tadpole model pull owner/name` stores it as owner--name).
 */
export function resolveModelDir(modelDir: string | undefined, env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  const given = modelDir ?? env.TADPOLE_MODEL;
  const from = modelDir !== undefined ? '--model-dir' : 'TADPOLE_MODEL';
  if (given === undefined || given === '') {
    throw new TadpoleError(
      'TADPOLE_EMBEDDER',
      `the onnx embedder needs a model: pass --model-dir DIR (a Hugging Face snapshot with config.json, tokenizer.json or vocab.txt, and an .onnx file), ` +
        `set TADPOLE_MODEL, or run 'tadpole model pull <owner/name>' and pass --model-dir <owner/name>`,
    );
  }
  const asPath = isAbsolute(given) ? given : resolve(cwd, given);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) return asPath;
  const cached = modelCacheDir(env, given);
  if (!isAbsolute(given) && existsSync(cached)) return cached;
  throw new TadpoleError(
    'TADPOLE_EMBEDDER',
    `${from} "${given}": no such folder, and no cached model of that name in ${modelsRoot(env)} ('tadpole model list' shows the cache; 'tadpole model pull ${given}' fetches it)`,
  );
}

/** Preferred order when no --onnx-file is given: fp32 first (exact), then the int8 export. */
export const ONNX_CANDIDATES = ['onnx/model.onnx', 'onnx/model_quantized.onnx', 'model.onnx', 'model_quantized.onnx', 'onnx/model_int8.onnx'];

export function pickOnnxFile(dir: string, onnxFile: string | undefined, cwd = process.cwd()): string {
  if (onnxFile !== undefined) {
    const candidates = isAbsolute(onnxFile) ? [onnxFile] : [join(dir, onnxFile), resolve(cwd, onnxFile)];
    for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
    throw new TadpoleError('TADPOLE_EMBEDDER', `--onnx-file "${onnxFile}" not found (looked in ${candidates.join(' and ')})`);
  }
  for (const c of ONNX_CANDIDATES) {
    const p = join(dir, c);
    if (existsSync(p)) return p;
  }
  throw new TadpoleError(
    'TADPOLE_EMBEDDER',
    `no ONNX model in ${dir}: expected one of ${ONNX_CANDIDATES.join(', ')} (pick another file with --onnx-file; export one with optimum: 'optimum-cli export onnx --model <repo> DIR')`,
  );
}

export interface ModelDefaults {
  pooling?: 'mean' | 'cls';
  /** The model's own length limit, from the first of: sentence_bert_config.json, tokenizer truncation, tokenizer_config.json, config.json. */
  maxTokens?: number;
}

function readJsonIf(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new TadpoleError('TADPOLE_EMBEDDER', `cannot parse ${path}: ${(err as Error).message}`, { file: path, cause: err });
  }
}

function positiveInt(v: unknown): number | undefined {
  // model_max_length is 1e30 in some configs, meaning "no limit": ignore it.
  return typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 1_000_000 ? v : undefined;
}

/** Pooling from the sentence-transformers Pooling module, when the snapshot has one. */
function poolingOf(dir: string): 'mean' | 'cls' | undefined {
  const modules = readJsonIf(join(dir, 'modules.json'));
  let poolDir = '1_Pooling';
  if (Array.isArray(modules)) {
    const m = (modules as { type?: string; path?: string }[]).find((x) => typeof x.type === 'string' && x.type.endsWith('.Pooling'));
    if (m && typeof m.path === 'string') poolDir = m.path;
  }
  const cfg = readJsonIf(join(dir, poolDir, 'config.json'));
  if (!cfg) return undefined;
  if (cfg.pooling_mode_cls_token === true) return 'cls';
  if (cfg.pooling_mode_mean_tokens === true) return 'mean';
  return undefined;
}

export function readModelDefaults(dir: string, tokenizerTruncation: number | undefined): ModelDefaults {
  const st = readJsonIf(join(dir, 'sentence_bert_config.json'));
  const tc = readJsonIf(join(dir, 'tokenizer_config.json'));
  const cfg = readJsonIf(join(dir, 'config.json'));
  const maxTokens =
    positiveInt(st?.max_seq_length) ?? tokenizerTruncation ?? positiveInt(tc?.model_max_length) ?? positiveInt(cfg?.max_position_embeddings);
  const pooling = poolingOf(dir);
  return { ...(pooling ? { pooling } : {}), ...(maxTokens ? { maxTokens } : {}) };
}
