import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { sharedDir } from '../core/shared.js';
import { TadpoleError } from '../core/errors.js';
import { NORMALIZE_STEPS, type NormalizeStep } from './normalize.js';
import { selfTrains } from '../model/fit.js';
import { METHOD_ALIASES, METHOD_NAMES } from '../select/registry.js';
import { KEPT_GROUPS_DEFAULTS, KEPT_GROUPS_PICKERS, type KeptGroupsSpec } from './kept-groups-spec.js';
import { readWhole } from '../io/lines.js';
import { isRemote, isRemoteFolder, withoutCredentials } from '../io/remote/url.js';

/** How a file's records become documents (see corpora/README.md). */
export type SourceFormat =
  | 'jsonl-text'
  | 'jsonl-sentences'
  | 'scisummnet'
  | 'pubmedqa'
  | 'lines'
  | 'csv'
  | 'wikitext';

export const SOURCE_FORMATS: readonly SourceFormat[] = ['jsonl-text', 'jsonl-sentences', 'scisummnet', 'pubmedqa', 'lines', 'csv', 'wikitext'];

export interface FileSetSpec {
  files: string[];
  format: SourceFormat;
  /** jsonl-text: the text field ("text"); jsonl-sentences: the array field ("sentences"); pubmedqa: one string field ("QUESTION") instead of the abstract. */
  field?: string;
  /** csv: the column(s) joined into the document (by header name). */
  columns?: string[];
  /** lines: 'line' (one document per line) or 'blank-line' (paragraph blocks); default 'line'. */
  docs?: 'line' | 'blank-line';
  /** lines: cut each line at the last occurrence of this string (Financial PhraseBank "text@label"). */
  stripAfterLast?: string;
  /** scisummnet: 'abstract' or 'full' (abstract + section sentences); default 'full'. */
  parts?: 'abstract' | 'full';
  /** How pre-split sentence arrays are joined: ' ' (default) or '\n'. */
  join?: 'space' | 'newline';
  encoding?: 'utf8' | 'latin1';
  normalize?: NormalizeStep[];
  /** Drop exact duplicate documents (after normalisation). */
  dedupe?: boolean;
  /** Drop documents shorter than this many characters (after normalisation); default 1. */
  minChars?: number;
  /**
   * Cut documents longer than this many characters at paragraph breaks (blank lines; line
   * breaks inside a paragraph longer than twice this) into pieces of about this size:
   * whole Gutenberg books (~440 KB each) would otherwise fill a small mix's budget with one book.
   */
  chunkChars?: number;
  /**
   * Deterministic document split, so one file can give both a task and a disjoint corpus:
   * whole source document i (counted after normalisation, before chunking and dedupe) is "held-out" when
   * i % every === 0, else "rest". A task takes `held-out`, the source `rest`.
   */
  split?: DocSplit;
  /** jsonl-text and csv: keep only records whose `field` (a column, for csv) is (in) / is not (notIn) one of these values, e.g. BBC categories, AG News labels. */
  where?: RecordFilter;
}

export interface RecordFilter {
  field: string;
  in?: string[];
  notIn?: string[];
}

export interface DocSplit {
  every: number;
  part: 'held-out' | 'rest';
}

export interface SourceSpec extends FileSetSpec {
  label: string;
  /** Share of the mix bytes (the paper's proportions); or an absolute budget: */
  share?: number;
  bytes?: number;
  maxDocs?: number;
  /** Free text: why this source is in, what was normalised. */
  note?: string;
}

export interface EmbedderSpecJSON {
  kind: 'hash' | 'onnx';
  modelDir?: string;
  dims?: number;
}

export interface MethodSpec {
  name: string;
  /** Name shown in tables when one method runs with several embedders; default name(+embedder). */
  title?: string;
  embedder?: EmbedderSpecJSON;
  options?: Record<string, unknown>;
  /**
   * Text not to keep, as `fit --avoid` gives it (the default fit only): at most `maxSentences`
   * of it, a seeded sample. A file the mix also reads needs the complementary split part.
   */
  avoid?: FileSetSpec & { maxSentences?: number };
  /**
   * Then `tadpole inspect` + `fit --avoid`, the labels playing the user (eval/kept-groups.ts):
   * the method's kept text grouped, the groups mostly out of domain avoided in a refit, whose
   * cut is the one measured. Defaults: 6 groups, 0.75 out of domain, 200 sentences.
   */
  avoidKeptGroups?: Partial<KeptGroupsSpec>;
}

export interface EvalSpec {
  name: string;
  description?: string;
  sources: SourceSpec[];
  inDomain: string;
  task: FileSetSpec;
  methods: MethodSpec[];
  /**
   * Share of the mix's sentences each method keeps, or "share": the in-domain share of the
   * built mix's sentences (what a perfect selector would keep), known once the mix is built.
   */
  keep: number | 'share';
  segment: number;
  seed: number;
  /** Sentences drawn from the mix for methods that need a general sample. */
  generalSample: number;
  /** Total mix bytes for `share` sources; default: the largest total every share fits in. */
  mixBytes?: number;
  /** Cap on task sentences used for fitting (deterministic sample); default all. */
  maxTaskSentences?: number;
}

/** Every method, and `auto` (contrast's older name). */
const METHODS = [...METHOD_NAMES, ...Object.keys(METHOD_ALIASES)];

function bad(where: string, msg: string): TadpoleError {
  return new TadpoleError('TADPOLE_USAGE', `invalid eval spec (${where}): ${msg}`);
}

/**
 * Relative paths resolve against the shared folder (../shared or $TADPOLE_SHARED); an
 * s3://, http(s):// or hf:// address stays as it is (its user and password set aside, as
 * every remote input's are) and is read as the other commands read it.
 */
export function resolveSharedPath(p: string): string {
  if (isRemote(p)) return withoutCredentials(p);
  if (isAbsolute(p)) return p;
  const dir = sharedDir();
  if (!dir) throw new TadpoleError('TADPOLE_INPUT', `cannot resolve "${p}": shared folder not found; set TADPOLE_SHARED or place ../shared beside the checkout`);
  return resolve(dir, p);
}

function checkFileSet(fs: FileSetSpec, where: string): void {
  if (!Array.isArray(fs.files) || fs.files.length === 0) throw bad(where, '"files" must be a non-empty array of paths');
  // A prefix is not one object (a local folder is refused too, when read): said now, not as a missing object.
  const prefix = fs.files.find((f) => typeof f === 'string' && isRemoteFolder(f));
  if (prefix !== undefined) throw bad(where, `${prefix} is a prefix (it ends in "/"): "files" names objects, each one`);
  if (!SOURCE_FORMATS.includes(fs.format)) throw bad(where, `unknown format "${String(fs.format)}"; should be one of: ${SOURCE_FORMATS.join(', ')}`);
  for (const s of fs.normalize ?? []) {
    if (!NORMALIZE_STEPS.includes(s)) throw bad(where, `unknown normalize step "${s}"; should be one of: ${NORMALIZE_STEPS.join(', ')}`);
  }
  if (fs.chunkChars !== undefined && !(Number.isInteger(fs.chunkChars) && fs.chunkChars >= 100)) throw bad(where, `"chunkChars" must be an integer >= 100, got ${fs.chunkChars}`);
  if (fs.split !== undefined) {
    const { every, part } = fs.split;
    if (!(Number.isInteger(every) && every >= 2)) throw bad(where, `"split.every" must be an integer >= 2, got ${every}`);
    if (part !== 'held-out' && part !== 'rest') throw bad(where, `"split.part" must be "held-out" or "rest", got ${JSON.stringify(part)}`);
  }
}

/** Task and source read disjoint documents of a shared file: complementary parts of the same split. */
function disjointSplits(task: FileSetSpec, src: FileSetSpec): boolean {
  return !!task.split && !!src.split && task.split.every === src.split.every && task.split.part !== src.split.part;
}

/** The first source that reads a file of `fs` without the complementary split part, and that file. */
function sharedWithMix(fs: FileSetSpec, sources: SourceSpec[]): { file: string; label: string } | undefined {
  const files = new Set(fs.files);
  for (const s of sources) {
    if (disjointSplits(fs, s)) continue;
    for (const f of s.files) if (files.has(f)) return { file: f, label: s.label };
  }
  return undefined;
}

/** Validate a parsed spec, fill defaults, resolve paths. */
export function normalizeSpec(raw: unknown, origin = 'spec'): EvalSpec {
  if (typeof raw !== 'object' || raw === null) throw bad(origin, 'not a JSON object');
  const r = raw as Partial<EvalSpec>;
  if (!Array.isArray(r.sources) || r.sources.length === 0) throw bad(origin, '"sources" must be a non-empty array');
  const labels = new Set<string>();
  const sources = r.sources.map((s, i) => {
    const where = `sources[${i}]${s.label ? ` "${s.label}"` : ''}`;
    if (typeof s.label !== 'string' || !s.label) throw bad(where, 'needs a "label"');
    checkFileSet(s, where);
    const budgets = [s.share, s.bytes].filter((v) => v !== undefined).length;
    if (budgets > 1) throw bad(where, 'give "share" or "bytes", not both');
    if (s.share !== undefined && !(s.share > 0 && s.share <= 1)) throw bad(where, `"share" must be in (0, 1], got ${s.share}`);
    if (s.bytes !== undefined && !(s.bytes > 0)) throw bad(where, `"bytes" must be > 0, got ${s.bytes}`);
    labels.add(s.label);
    return { ...s, files: s.files.map(resolveSharedPath) };
  });
  const shareSum = sources.reduce((a, s) => a + (s.share ?? 0), 0);
  if (shareSum > 1 + 1e-3) throw bad(origin, `source shares add up to ${shareSum.toFixed(3)} > 1`);
  if (typeof r.inDomain !== 'string' || !labels.has(r.inDomain)) {
    throw bad(origin, `"inDomain" must be one of the source labels (${[...labels].join(', ')}), got ${JSON.stringify(r.inDomain)}`);
  }
  if (!r.task) throw bad(origin, 'needs a "task" file set');
  checkFileSet(r.task, 'task');
  const task = { ...r.task, files: r.task.files.map(resolveSharedPath) };
  const taskClash = sharedWithMix(task, sources);
  if (taskClash) throw bad(`source "${taskClash.label}"`, `${taskClash.file} is also a task file; a source cannot be both task and corpus (unless both give complementary "split" parts)`);
  if (!Array.isArray(r.methods) || r.methods.length === 0) throw bad(origin, '"methods" must be a non-empty array');
  const methods = r.methods.map((m, i) => {
    if (!METHODS.includes(m.name)) throw bad(`methods[${i}]`, `unknown method "${m.name}"; should be one of: ${METHODS.join(', ')}`);
    if (m.embedder && m.embedder.kind !== 'hash' && m.embedder.kind !== 'onnx') throw bad(`methods[${i}]`, `embedder.kind must be hash or onnx`);
    if (m.embedder?.modelDir && isRemote(m.embedder.modelDir)) throw bad(`methods[${i}]`, 'embedder.modelDir must be a local folder (an ONNX model is loaded from disk), not an address: download the model first');
    const embedder = m.embedder ? { ...m.embedder, ...(m.embedder.modelDir ? { modelDir: resolveSharedPath(m.embedder.modelDir) } : {}) } : undefined;
    let avoid: MethodSpec['avoid'];
    if (m.avoid !== undefined) {
      const where = `methods[${i}].avoid`;
      if (!selfTrains(m.name, m.options ?? {})) throw bad(where, `only the default fit (contrast) takes text to avoid, not ${m.name}${m.options?.detector !== undefined ? ` with detector ${String(m.options.detector)}` : ''}`);
      checkFileSet(m.avoid, where);
      if (m.avoid.maxSentences !== undefined && !(Number.isInteger(m.avoid.maxSentences) && m.avoid.maxSentences > 0)) throw bad(where, `"maxSentences" must be a positive integer, got ${m.avoid.maxSentences}`);
      avoid = { ...m.avoid, files: m.avoid.files.map(resolveSharedPath) };
      const clash = sharedWithMix(avoid, sources);
      if (clash) throw bad(where, `${clash.file} is also read by source "${clash.label}": text to avoid must not be in the mix (give both complementary "split" parts)`);
    }
    let avoidKeptGroups: MethodSpec['avoidKeptGroups'];
    if (m.avoidKeptGroups !== undefined) {
      const where = `methods[${i}].avoidKeptGroups`;
      const g = m.avoidKeptGroups;
      if (typeof g !== 'object' || g === null) throw bad(where, 'must be an object: {"groups", "outOfDomain", "sentences"}');
      if (!selfTrains(m.name, m.options ?? {})) throw bad(where, `only the default fit (contrast) takes text to avoid, not ${m.name}`);
      if (m.avoid !== undefined) throw bad(where, 'give "avoid" or "avoidKeptGroups", not both');
      const full = { ...KEPT_GROUPS_DEFAULTS, ...g };
      if (!(Number.isInteger(full.groups) && full.groups >= 1)) throw bad(where, `"groups" must be a positive integer, got ${full.groups}`);
      if (full.pick !== undefined && !KEPT_GROUPS_PICKERS.includes(full.pick)) throw bad(where, `"pick" must be one of ${KEPT_GROUPS_PICKERS.join(', ')}, got ${String(full.pick)}`);
      if (!(full.outOfDomain > 0 && full.outOfDomain <= 1)) throw bad(where, `"outOfDomain" must be in (0, 1], got ${full.outOfDomain}`);
      if (!(Number.isInteger(full.sentences) && full.sentences >= 1)) throw bad(where, `"sentences" must be a positive integer, got ${full.sentences}`);
      if (full.likeGroups !== undefined && !(Number.isInteger(full.likeGroups) && full.likeGroups >= 1 && full.likeGroups < full.groups)) throw bad(where, `"likeGroups" must be a positive integer under "groups", got ${full.likeGroups}`);
      avoidKeptGroups = full;
    }
    return { ...m, ...(embedder ? { embedder } : {}), ...(avoid ? { avoid } : {}), ...(avoidKeptGroups ? { avoidKeptGroups } : {}) };
  });
  const keep = r.keep ?? 0.2;
  if (keep !== 'share' && !(typeof keep === 'number' && keep > 0 && keep < 1)) throw bad(origin, `"keep" must be a number in (0, 1) or "share" (the in-domain share of the mix's sentences), got ${JSON.stringify(keep)}`);
  const segment = r.segment ?? 15;
  if (!Number.isInteger(segment) || segment < 1) throw bad(origin, `"segment" must be a positive integer, got ${segment}`);
  const spec: EvalSpec = {
    name: r.name ?? origin,
    sources,
    inDomain: r.inDomain,
    task,
    methods,
    keep,
    segment,
    seed: r.seed ?? 42,
    generalSample: r.generalSample ?? 5000,
  };
  if (r.description !== undefined) spec.description = r.description;
  if (r.mixBytes !== undefined) spec.mixBytes = r.mixBytes;
  if (r.maxTaskSentences !== undefined) spec.maxTaskSentences = r.maxTaskSentences;
  return spec;
}

/** A spec file, or a spec object named by an s3://, http(s):// or hf:// address. */
export async function loadSpec(spec: string): Promise<EvalSpec> {
  const file = isRemote(spec) ? withoutCredentials(spec) : spec;
  if (isRemoteFolder(file)) throw new TadpoleError('TADPOLE_USAGE', `${file} is a prefix (it ends in "/"): name each eval spec object`, { file });
  let text: string;
  try {
    text = isRemote(file) ? await readWhole(file) : await readFile(file, 'utf8');
  } catch (cause) {
    // A remote read's line already names the object.
    const why = cause instanceof TadpoleError ? cause.message : `${file}: ${(cause as Error).message}`;
    throw new TadpoleError(cause instanceof TadpoleError ? cause.code : 'TADPOLE_INPUT', `cannot read eval spec ${why}`, { file, cause });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new TadpoleError('TADPOLE_USAGE', `eval spec ${file} is not valid JSON: ${(cause as Error).message}`, { file, cause });
  }
  return normalizeSpec(raw, file);
}

/** Name of a method run as shown in tables: "tadpole[onnx:tadpole-tiny-bert]". */
export function methodTitle(m: MethodSpec): string {
  if (m.title) return m.title;
  if (!m.embedder) return m.name;
  const model = m.embedder.modelDir ? `:${m.embedder.modelDir.split(/[\\/]/).filter(Boolean).pop()}` : '';
  return `${m.name}[${m.embedder.kind}${model}]`;
}
