/**
 * `tadpole model pull`: fetch a model snapshot from a Hugging Face hub (or any server with
 * the same URL layout) into the cache, resuming `.part` files with HTTP Range and checking
 * every file's size and hash (sha256 for LFS files, git blob sha1 for small files).
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { storageFault, TadpoleError, usageError, writeFailure } from '../../core/errors.js';
import { redact } from '../../core/redact.js';
import { modelCacheDir, PULL_MANIFEST, type PullManifest } from './cache.js';
import { ONNX_CANDIDATES } from './model-dir.js';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

export function hubEndpoint(env: NodeJS.ProcessEnv): string {
  return (env.TADPOLE_HF_ENDPOINT || env.HF_ENDPOINT || DEFAULT_ENDPOINT).replace(/\/+$/, '');
}

/** Text safe to print: no password of the hub's address, no HF_TOKEN. */
function safe(text: string, env: NodeJS.ProcessEnv): string {
  return redact(text, [env.HF_TOKEN]);
}

/** The hub's address without its user and password, and those as a Basic authorization (as curl sends them). */
function splitCredentials(endpoint: string): { base: string; basic?: string } {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*)@(.*)$/i.exec(endpoint);
  if (!m) return { base: endpoint };
  const [user = '', pass = ''] = (m[2] as string).split(':').map((x) => decodeURIComponent(x));
  return { base: (m[1] as string) + (m[3] as string), basic: Buffer.from(`${user}:${pass}`).toString('base64') };
}

/** The hub's own rule for a part of a repo id: letters, digits, -, _ and ., no -- or .., not starting or ending with - or . */
const REPO_PART = /^(?![-.])(?!.*--)(?!.*\.\.)[A-Za-z0-9_.-]+(?<![-.])$/;
const MAX_REPO_ID = 96;

/**
 * Names that go into the hub's URLs, checked before any request: a repo id is `name` or
 * `namespace/name` by the hub's rules, a revision a branch, tag or commit, a file a relative
 * path inside the repo. `..`, an absolute path or a backslash would address something else.
 */
function checkPullNames(opts: Pick<PullOptions, 'repo' | 'revision' | 'onnxFile' | 'files'>): void {
  const repoParts = opts.repo.split('/');
  if (opts.repo.length > MAX_REPO_ID || repoParts.length > 2 || !repoParts.every((p) => REPO_PART.test(p))) {
    throw usageError(`model pull needs a repo id like owner/name (letters, digits, -, _ and . in each part, not starting or ending with - or ., no -- or .., at most ${MAX_REPO_ID} characters), got ${JSON.stringify(opts.repo)}; see 'tadpole model --help'`);
  }
  const revision = opts.revision ?? 'main';
  const segments = revision.split('/');
  if (revision.length > 256 || !/^[A-Za-z0-9._\/+-]+$/.test(revision) || segments.some((s) => s === '' || s.startsWith('.') || s.endsWith('.lock'))) {
    throw usageError(`--revision ${JSON.stringify(revision)} is not a branch, tag or commit name (letters, digits, -, _, +, . and /, no empty, "." or ".." part)`);
  }
  for (const [flag, path] of [...(opts.onnxFile !== undefined ? [['--onnx-file', opts.onnxFile]] : []), ...(opts.files ?? []).map((f) => ['--file', f])] as [string, string][]) {
    const why = badRepoPath(path);
    if (why) throw usageError(`${flag} ${JSON.stringify(path)} is not a file path inside the repo: ${why}`);
  }
}

function badRepoPath(path: string): string | undefined {
  if (path === '') return 'it is empty';
  if (path.startsWith('/')) return 'it is absolute';
  if (path.includes('\\')) return 'it has a backslash';
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'it has a control character';
  const segments = path.split('/');
  if (segments.includes('..')) return 'it has a ".." part';
  if (segments.includes('.')) return 'it has a "." part';
  if (segments.includes('')) return 'it has an empty part';
  return undefined;
}

/** Files an embedder needs, besides one .onnx file. */
export const MODEL_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'vocab.txt',
  'special_tokens_map.json',
  'modules.json',
  'sentence_bert_config.json',
  '1_Pooling/config.json',
];

export interface HubFile {
  path: string;
  size?: number;
  sha256?: string;
  /** git blob sha1, given by the hub for every file. */
  blobId?: string;
}

export interface PullOptions {
  repo: string;
  revision?: string;
  /** .onnx file to fetch (default: the first of ONNX_CANDIDATES the repo has). */
  onnxFile?: string;
  /** Extra files to fetch (paths in the repo). */
  files?: string[];
  /** Fetch every file of the repo. */
  all?: boolean;
  env: NodeJS.ProcessEnv;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Told the hub's address before anything is asked of it. */
  start?: (endpoint: string) => void;
}

export interface PullResult {
  dir: string;
  files: { path: string; size: number; sha256: string; status: 'downloaded' | 'resumed' | 'cached' }[];
}

function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

function headers(env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): Record<string, string> {
  const token = env.HF_TOKEN;
  const basic = splitCredentials(hubEndpoint(env)).basic;
  const authorization = token ? `Bearer ${token}` : basic ? `Basic ${basic}` : undefined;
  return { 'user-agent': 'tadpole', ...(authorization ? { authorization } : {}), ...extra };
}

async function fetchOrFail(url: string, init: RequestInit, what: string, env: NodeJS.ProcessEnv): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new TadpoleError(
      'TADPOLE_IO',
      safe(`cannot reach ${url} (${cause?.code ?? cause?.message ?? (err as Error).message}) while fetching ${what}; set TADPOLE_HF_ENDPOINT (or HF_ENDPOINT) to a reachable mirror, or copy the model folder by hand and use --model-dir`, env),
    );
  }
}

interface ApiModel {
  siblings?: { rfilename: string; size?: number; blobId?: string; lfs?: { sha256?: string; size?: number } }[];
}

export async function listRepoFiles(endpoint: string, repo: string, revision: string, env: NodeJS.ProcessEnv): Promise<HubFile[]> {
  const url = `${endpoint}/api/models/${encodePath(repo)}/revision/${encodeURIComponent(revision)}?blobs=true`;
  const res = await fetchOrFail(url, { headers: headers(env) }, `the file list of ${repo}`, env);
  if (!res.ok) {
    const hint = res.status === 401 || res.status === 403 ? ' (private or gated: set HF_TOKEN)' : res.status === 404 ? ' (check the repo name and --revision)' : '';
    throw new TadpoleError('TADPOLE_IO', safe(`model ${repo}@${revision}: ${url} answered HTTP ${res.status}${hint}`, env));
  }
  let body: ApiModel;
  try {
    body = (await res.json()) as ApiModel;
  } catch (err) {
    throw new TadpoleError('TADPOLE_IO', safe(`model ${repo}@${revision}: ${url} gave no JSON file list (${(err as Error).message})`, env));
  }
  if (!Array.isArray(body?.siblings)) throw new TadpoleError('TADPOLE_IO', safe(`model ${repo}@${revision}: ${url} gave no "siblings" file list`, env));
  return body.siblings.map((s) => {
    const size = s.lfs?.size ?? s.size;
    return {
      path: s.rfilename,
      ...(size !== undefined ? { size } : {}),
      ...(s.lfs?.sha256 ? { sha256: s.lfs.sha256 } : {}),
      ...(s.blobId ? { blobId: s.blobId } : {}),
    };
  });
}

export function chooseFiles(available: HubFile[], opts: Pick<PullOptions, 'onnxFile' | 'files' | 'all' | 'repo'>): HubFile[] {
  if (opts.all) return available;
  const byPath = new Map(available.map((f) => [f.path, f]));
  const want: HubFile[] = [];
  for (const p of MODEL_FILES) {
    const f = byPath.get(p);
    if (f) want.push(f);
  }
  if (!byPath.has('tokenizer.json') && !byPath.has('vocab.txt')) {
    throw new TadpoleError('TADPOLE_MODEL', `model ${opts.repo} has neither tokenizer.json nor vocab.txt: it is not a BERT-family snapshot tadpole can use`);
  }
  const onnx = opts.onnxFile ?? ONNX_CANDIDATES.find((c) => byPath.has(c));
  if (onnx === undefined) {
    const found = available.filter((f) => f.path.endsWith('.onnx')).map((f) => f.path);
    throw new TadpoleError(
      'TADPOLE_MODEL',
      `model ${opts.repo} has no ${ONNX_CANDIDATES.join(' / ')}` + (found.length ? `; pick one with --onnx-file (it has ${found.join(', ')})` : ' and no .onnx file at all: choose an ONNX export (e.g. Xenova/<model>)'),
    );
  }
  const extra = [onnx, ...(opts.files ?? [])];
  for (const p of extra) {
    const f = byPath.get(p);
    if (!f) throw new TadpoleError('TADPOLE_MODEL', `model ${opts.repo} has no file "${p}"`);
    if (!want.includes(f)) want.push(f);
  }
  // An external-data .onnx keeps its weights in "<file>_data" / "<file>.data" beside it.
  for (const suffix of ['_data', '.data']) {
    const f = byPath.get(onnx + suffix);
    if (f && !want.includes(f)) want.push(f);
  }
  return want;
}

async function hashFile(path: string): Promise<{ sha256: string; gitSha1: string }> {
  const size = statSync(path).size;
  const sha = createHash('sha256');
  const git = createHash('sha1').update(`blob ${size}\0`);
  for await (const chunk of createReadStream(path)) {
    sha.update(chunk as Buffer);
    git.update(chunk as Buffer);
  }
  return { sha256: sha.digest('hex'), gitSha1: git.digest('hex') };
}

function verify(file: HubFile, path: string, size: number, h: { sha256: string; gitSha1: string }): string | undefined {
  if (file.size !== undefined && size !== file.size) return `size ${size} bytes, expected ${file.size}`;
  if (file.sha256 !== undefined && h.sha256 !== file.sha256) return `sha256 ${h.sha256}, expected ${file.sha256}`;
  if (file.sha256 === undefined && file.blobId !== undefined && h.gitSha1 !== file.blobId) return `git blob id ${h.gitSha1}, expected ${file.blobId}`;
  void path;
  return undefined;
}

async function download(url: string, part: string, env: NodeJS.ProcessEnv, what: string): Promise<'downloaded' | 'resumed'> {
  const have = existsSync(part) ? statSync(part).size : 0;
  const res = await fetchOrFail(url, { headers: headers(env, have > 0 ? { range: `bytes=${have}-` } : {}) }, what, env);
  if (res.status === 416 && have > 0) {
    // The .part is already complete (or longer than the file): let the checks decide.
    await res.body?.cancel();
    return 'resumed';
  }
  if (!res.ok || !res.body) throw new TadpoleError('TADPOLE_IO', safe(`${what}: ${url} answered HTTP ${res.status}`, env));
  const resumed = res.status === 206 && have > 0;
  if (!resumed && have > 0) truncateSync(part, 0);
  try {
    await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), createWriteStream(part, { flags: resumed ? 'a' : 'w' }));
  } catch (err) {
    // The .part stays: the next pull resumes it.
    if (storageFault(err)) throw writeFailure(part, err);
    throw new TadpoleError('TADPOLE_IO', safe(`${what}: the download from ${url} broke off (${(err as Error).message}); run the pull again to resume it`, env));
  }
  return resumed ? 'resumed' : 'downloaded';
}

export async function pullModel(opts: PullOptions): Promise<PullResult> {
  checkPullNames(opts);
  const revision = opts.revision ?? 'main';
  const endpoint = splitCredentials(hubEndpoint(opts.env)).base;
  opts.start?.(endpoint);
  const log = opts.log ?? (() => {});
  const dir = modelCacheDir(opts.env, opts.repo);
  const available = await listRepoFiles(endpoint, opts.repo, revision, opts.env);
  const files = chooseFiles(available, opts);
  mkdirSync(dir, { recursive: true });
  const result: PullResult = { dir, files: [] };
  for (const f of files) {
    const dest = join(dir, f.path);
    if (!dest.startsWith(dir + '/')) throw new TadpoleError('TADPOLE_MODEL', `refusing file path "${f.path}" outside the model folder`);
    mkdirSync(dirname(dest), { recursive: true });
    if (existsSync(dest)) {
      const h = await hashFile(dest);
      if (verify(f, dest, statSync(dest).size, h) === undefined) {
        result.files.push({ path: f.path, size: statSync(dest).size, sha256: h.sha256, status: 'cached' });
        log(`${f.path}: cached`);
        continue;
      }
    }
    const part = dest + '.part';
    const url = `${endpoint}/${encodePath(opts.repo)}/resolve/${encodeURIComponent(revision)}/${encodePath(f.path)}`;
    const what = `${opts.repo}/${f.path}`;
    log(`${f.path}: fetching${f.size !== undefined ? ` ${f.size} bytes` : ''}`);
    let status = await download(url, part, opts.env, what);
    let size = statSync(part).size;
    let h = await hashFile(part);
    let bad = verify(f, part, size, h);
    if (bad !== undefined && status === 'resumed') {
      // A stale or corrupt .part: start over once from byte 0.
      unlinkSync(part);
      status = await download(url, part, opts.env, what);
      size = statSync(part).size;
      h = await hashFile(part);
      bad = verify(f, part, size, h);
    }
    if (bad !== undefined) {
      unlinkSync(part);
      throw new TadpoleError('TADPOLE_IO', `${what} failed its check: ${bad}; the download was removed, run 'tadpole model pull ${opts.repo}' again`, { file: dest });
    }
    renameSync(part, dest);
    result.files.push({ path: f.path, size, sha256: h.sha256, status });
    log(`${f.path}: ${status}, ${size} bytes, sha256 ${h.sha256.slice(0, 12)}`);
  }
  const manifest: PullManifest = {
    repo: opts.repo,
    revision,
    endpoint,
    pulledAt: new Date().toISOString(),
    files: result.files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
  };
  writeFileSync(join(dir, PULL_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  return result;
}
