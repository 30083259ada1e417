import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TadpoleError } from '../core/errors.js';
import { printable } from '../core/printable.js';
import type { EmbedderFingerprint } from '../embed/embedder.js';
import type { SelectorJSON } from '../select/selector.js';
import { writeFileAtomic } from '../io/atomic.js';
import { checkModelFields } from './fields.js';

export const MODEL_FORMAT = 'tadpole-model';
export const MODEL_VERSION = 1;

/** The fitted model file: versioned JSON; large arrays inside `selector.state` are base64. */
export interface ModelFile {
  format: typeof MODEL_FORMAT;
  version: number;
  method: string;
  /** Null for methods that do not embed (random, moore-lewis, dsir). */
  embedder: EmbedderFingerprint | null;
  /** Where the ONNX model was found at fit time: a hint, the sha256 in `embedder` decides. */
  embedderHint?: { modelDir?: string };
  /** Absent only while the model waits for completion (see `completion`). */
  selector?: SelectorJSON;
  fit: { seed: number; options: Record<string, unknown>; generalRatio?: number };
  counts: { taskSentences: number; generalSentences: number; taskFiles: string[]; generalFiles: string[]; avoidSentences?: number; avoidFiles?: string[] };
  /** Fitted without a general sample: completed from the corpus at filter time (model/complete.ts). */
  completion?: ModelCompletion;
  /**
   * sha256 (hex) of the model without this field, as JSON.stringify writes it: checked on every
   * read. Absent in files written before it existed; those load on their shapes' checks alone.
   */
  payloadSha256?: string;
}

export interface ModelCompletion {
  /** The task sentences, kept until the model is completed (the fit re-runs on them). */
  task?: string[];
  /** The sentences not to keep (fit --avoid), kept until completion as the task is. */
  avoid?: string[];
  /** General sentences to draw from the corpus being filtered. */
  sampleSize: number;
  /** The embedder named at fit time, recreated for the fit at filter time. */
  embedder?: Record<string, unknown>;
  /** On a completed model: the corpus sample it was completed from. */
  sample?: CompletionSample;
}

export interface CompletionSample {
  /** sha256 of seed, size and the sampled sentences (io/sample.ts). */
  fingerprint: string;
  sentences: number;
  size: number;
  seed: number;
  sampler: 'seek' | 'reservoir';
  bytesRead: number;
  documents: number;
}

export function readModel(path: string): ModelFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TadpoleError('TADPOLE_MODEL', `cannot read model file ${path} (${(err as NodeJS.ErrnoException).code ?? err}); create one with 'tadpole fit --task FILE -o ${path}'`, { file: path, cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // JSON.parse quotes the text it stopped at: a binary file's bytes, escaped before they reach a terminal.
    throw new TadpoleError('TADPOLE_MODEL', printable(`${path} is not a tadpole model file (not JSON: ${(err as Error).message})`), { file: path });
  }
  return validateModel(json, path);
}

export function validateModel(json: unknown, path = '<model>'): ModelFile {
  const m = json as Partial<ModelFile> | null;
  if (!m || typeof m !== 'object' || m.format !== MODEL_FORMAT) {
    throw new TadpoleError('TADPOLE_MODEL', `${path} is not a tadpole model file (format is not "${MODEL_FORMAT}")`, { file: path });
  }
  if (typeof m.version !== 'number' || !Number.isInteger(m.version) || m.version < 1) {
    throw new TadpoleError('TADPOLE_MODEL', printable(`${path} is damaged: its model version is ${JSON.stringify(m.version) ?? 'missing'}, not a whole number`), { file: path });
  }
  if (m.version > MODEL_VERSION) {
    throw new TadpoleError('TADPOLE_MODEL', `${path} has model version ${m.version}; this tadpole reads up to version ${MODEL_VERSION}: upgrade tadpole`, { file: path });
  }
  // Before the fields are checked, so damage is named as such whatever field it hit (after the
  // version: a newer format may checksum otherwise).
  if (m.payloadSha256 !== undefined && m.payloadSha256 !== payloadDigest(m)) {
    throw new TadpoleError('TADPOLE_MODEL', `${path} is damaged: its content does not match the checksum fit wrote (payloadSha256); refit the model or restore the file`, { file: path });
  }
  const waiting = !!m.completion && !m.completion.sample && Array.isArray(m.completion.task);
  if (typeof m.method !== 'string' || (!waiting && (!m.selector || typeof m.selector !== 'object'))) {
    throw new TadpoleError('TADPOLE_MODEL', `${path} is damaged: no method/selector`, { file: path });
  }
  // What every command reads besides the selector (fit's seed and options, the counts model show prints).
  const fit = m.fit as Partial<ModelFile['fit']> | undefined;
  const counts = m.counts as Partial<ModelFile['counts']> | undefined;
  if (!isObject(fit) || typeof fit.seed !== 'number' || !isObject(fit.options) || !isObject(counts) || !Array.isArray(counts.taskFiles) || !Array.isArray(counts.generalFiles)) {
    throw new TadpoleError('TADPOLE_MODEL', `${path} is damaged: its "fit" or "counts" is missing or not what fit writes`, { file: path });
  }
  checkModelFields(m);
  return m as ModelFile;
}

/**
 * The checksum of a model's payload: sha256 of the JSON text of every field but payloadSha256,
 * in the order JSON.parse gives them back, so a file that was only re-indented still matches.
 */
function payloadDigest(model: Partial<ModelFile>): string {
  const { payloadSha256: _checksum, ...payload } = model;
  return sha256(JSON.stringify(payload));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Writes the model with its payload checksum (any checksum it carried is recomputed). The
 * payload is serialised once: the checksum is its sha256, and the file is that text with the
 * checksum as its last field, which is what JSON.stringify writes for the payload plus it.
 */
export function writeModel(path: string, model: ModelFile): void {
  const { payloadSha256: _old, ...payload } = model;
  const text = JSON.stringify(payload);
  writeFileAtomic(path, `${text.slice(0, -1)},"payloadSha256":"${sha256(text)}"}\n`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
