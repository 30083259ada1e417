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
import { TadpoleError } from '../../core/errors.js';
import { modelCacheDir, PULL_MANIFEST, type PullManifest } from './cache.js';
import { ONNX_CANDIDATES } from './model-dir.js';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

export function hubEndpoint(env: NodeJS.ProcessEnv): string {
  return (env.TADPOLE_HF_ENDPOINT || env.HF_ENDPOINT || DEFAULT_ENDPOINT).replace(/\/+$/, '');
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
  return { 'user-agent': 'tadpole', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

async function fetchOrFail(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new TadpoleError(
      'TADPOLE_IO',
      `cannot reach ${url} (${cause?.code ?? cause?.message ?? (err as Error).message}) while fetching ${what}; set TADPOLE_HF_ENDPOINT (or HF_ENDPOINT) to a reachable mirror, or copy the model folder by hand and use --model-dir`,
      { cause: err },
    );
  }
}

interface ApiModel {
  siblings?: { rfilename: string; size?: number; blobId?: string; lfs?: { sha256?: string; size?: number } }[];
}

export async function listRepoFiles(endpoint: string, repo: string, revision: string, env: NodeJS.ProcessEnv): Promise<HubFile[]> {
  const url = `${endpoint}/api/models/${encodePath(repo)}/revision/${encodeURIComponent(revision)}?blobs=true`;
  const res = await fetchOrFail(url, { headers: headers(env) }, `the file list of ${repo}`);
  if (!res.ok) {
    const hint = res.status === 401 || res.status === 403 ? ' (private or gated: set HF_TOKEN)' : res.status === 404 ? ' (check the repo name and --revision)' : '';
    throw new TadpoleError('TADPOLE_IO', `model ${repo}@${revision}: ${url} answered HTTP ${res.status}${hint}`);
  }
  const body = (await res.json()) as ApiModel;
  if (!Array.isArray(body.siblings)) throw new TadpoleError('TADPOLE_IO', `model ${repo}@${revision}: ${url} gave no "siblings" file list`);
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
  const res = await fetchOrFail(url, { headers: headers(env, have > 0 ? { range: `bytes=${have}-` } : {}) }, what);
  if (res.status === 416 && have > 0) {
    // The .part is already complete (or longer than the file): let the checks decide.
    await res.body?.cancel();
    return 'resumed';
  }
  if (!res.ok || !res.body) throw new TadpoleError('TADPOLE_IO', `${what}: ${url} answered HTTP ${res.status}`);
  const resumed = res.status === 206 && have > 0;
  if (!resumed && have > 0) truncateSync(part, 0);
  await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), createWriteStream(part, { flags: resumed ? 'a' : 'w' }));
  return resumed ? 'resumed' : 'downloaded';
}

export async function pullModel(opts: PullOptions): Promise<PullResult> {
  const revision = opts.revision ?? 'main';
  const endpoint = hubEndpoint(opts.env);
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
