/**
 * The numbers of a model file, range-checked on every read whether or not the file carries
 * its checksum: a file from before checksums, or one edited by hand, must not load with a
 * value no fit writes (charN 1e9 hashes nothing a fit ever saw; nnz 1e9 never finishes a
 * sentence). Each number is finite; counts and seeds are whole; shares and AUROCs lie in
 * [0, 1]; a selector's or detector's parameters lie in the range its declaration gives the
 * fit (core/option-decl.ts).
 */
import { damaged } from '../core/b64.js';
import { describeRange, parseOptionValue, type OptionDecl } from '../core/option-decl.js';
import { detectorOptions } from '../detect/registry.js';
import { methodOwners } from '../select/registry.js';

type Rule = { what: string; ok: (v: number) => boolean };

const COUNT: Rule = { what: 'a whole number >= 0', ok: (v) => Number.isSafeInteger(v) && v >= 0 };
const POSITIVE: Rule = { what: 'a whole number >= 1', ok: (v) => Number.isSafeInteger(v) && v >= 1 };
const SEED: Rule = { what: 'a whole number', ok: (v) => Number.isSafeInteger(v) };
const SHARE: Rule = { what: 'a number in [0, 1]', ok: (v) => v >= 0 && v <= 1 };

/** Fields by name, wherever they sit: what fit writes under these names is always of this kind. */
const BY_NAME: Readonly<Record<string, Rule>> = {
  seed: SEED,
  taskSentences: COUNT,
  generalSentences: COUNT,
  avoidSentences: COUNT,
  heldOutTask: COUNT,
  heldOutGeneral: COUNT,
  segments: COUNT,
  sentences: COUNT,
  documents: COUNT,
  bytesRead: COUNT,
  dims: POSITIVE,
  auroc: SHARE,
  taskShare: SHARE,
  corpusShare: SHARE,
};

/** The shares of function words (auto.ts), under `functionWords`. */
const FUNCTION_WORD_SHARES = new Set(['task', 'general', 'titles']);

export function checkModelFields(model: object): void {
  walk(model, '', undefined);
  const m = model as { embedder?: { kind?: unknown; dims?: unknown; nnz?: unknown } | null; completion?: { sampleSize?: unknown } };
  if (m.embedder?.kind === 'hash' && typeof m.embedder.nnz === 'number') {
    const dims = typeof m.embedder.dims === 'number' ? m.embedder.dims : Infinity;
    if (!Number.isSafeInteger(m.embedder.nnz) || m.embedder.nnz < 1 || m.embedder.nnz > dims) throw damaged('embedder.nnz', `${m.embedder.nnz}, should be a whole number in [1, dims]`);
  }
  const sampleSize = m.completion?.sampleSize;
  if (typeof sampleSize === 'number' && !POSITIVE.ok(sampleSize)) throw damaged('completion.sampleSize', `${sampleSize}, should be ${POSITIVE.what}`);
}

function walk(value: unknown, path: string, parentKey: string | undefined): void {
  if (typeof value === 'number') {
    // JSON.parse reads 1e400 as Infinity.
    if (!Number.isFinite(value)) throw damaged(path, `${value}, not a finite number`);
    const key = path.slice(path.lastIndexOf('.') + 1);
    const rule = parentKey === 'functionWords' && FUNCTION_WORD_SHARES.has(key) ? SHARE : BY_NAME[key];
    if (rule && !rule.ok(value)) throw damaged(path, `${value}, should be ${rule.what}`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${path}[${i}]`, parentKey));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  checkDeclared(obj, path);
  const here = path.slice(path.lastIndexOf('.') + 1);
  for (const [k, v] of Object.entries(obj)) walk(v, path ? `${path}.${k}` : k, here);
}

/**
 * A selector (`{method, params}`) or a detector (`{name, params}`): its numeric parameters
 * against the declarations the fit read them through. Names no registry holds (the ensemble
 * inside contrast) have their parts checked as selectors of their own.
 */
function checkDeclared(obj: Record<string, unknown>, path: string): void {
  const params = obj.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return;
  const p = params as Record<string, unknown>;
  const at = path ? `${path}.params` : 'params';
  if (typeof obj.method === 'string') {
    let decls: OptionDecl[];
    try {
      decls = methodOwners(obj.method, p).flatMap((o) => o.options);
    } catch {
      return;
    }
    checkParams(p, decls, at, `method ${obj.method}`);
  } else if (typeof obj.name === 'string') {
    const decls = detectorOptions(obj.name);
    if (decls) checkParams(p, decls, at, `detector ${obj.name}`);
  }
}

function checkParams(params: Record<string, unknown>, decls: readonly OptionDecl[], at: string, label: string): void {
  for (const d of decls) {
    const v = params[d.name];
    if ((d.type !== 'number' && d.type !== 'int') || typeof v !== 'number') continue;
    try {
      parseOptionValue({ label, options: decls }, d, v);
    } catch {
      throw damaged(`${at}.${d.name}`, `${v}, should be ${describeRange(d)}`);
    }
  }
}
