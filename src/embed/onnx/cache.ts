import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Cache root: $TADPOLE_CACHE, else $XDG_CACHE_HOME/tadpole, else ~/.cache/tadpole. */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  if (env.TADPOLE_CACHE) return resolve(env.TADPOLE_CACHE);
  const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(env.HOME ?? homedir(), '.cache');
  return join(base, 'tadpole');
}

export function modelsRoot(env: NodeJS.ProcessEnv): string {
  return join(cacheRoot(env), 'models');
}

/** Hub repo "owner/name" -> one folder name "owner--name" (no nesting, safe on every filesystem). */
export function cacheName(repo: string): string {
  return repo.replace(/\//g, '--');
}

export function modelCacheDir(env: NodeJS.ProcessEnv, repoOrName: string): string {
  return join(modelsRoot(env), cacheName(repoOrName));
}

/** Written by `tadpole model pull` beside the files it fetched. */
export const PULL_MANIFEST = '.tadpole-pull.json';

export interface PullManifest {
  repo: string;
  revision: string;
  endpoint: string;
  pulledAt: string;
  files: { path: string; size: number; sha256: string }[];
}

export interface CachedModel {
  name: string;
  dir: string;
  repo?: string;
  revision?: string;
  bytes: number;
  onnxFiles: string[];
  /** .part files left by an interrupted pull. */
  partial: boolean;
}

function walk(dir: string, rel: string, out: { rel: string; size: number }[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(join(dir, e.name), r, out);
    else if (e.isFile()) out.push({ rel: r, size: statSync(join(dir, e.name)).size });
  }
}

/** `tadpole model list`: the cache's models folder and the models in it. */
export function listModelCache(env: NodeJS.ProcessEnv): { root: string; models: CachedModel[] } {
  return { root: modelsRoot(env), models: listCachedModels(env) };
}

export function listCachedModels(env: NodeJS.ProcessEnv): CachedModel[] {
  const root = modelsRoot(env);
  if (!existsSync(root)) return [];
  const out: CachedModel[] = [];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const dir = join(root, e.name);
    const files: { rel: string; size: number }[] = [];
    walk(dir, '', files);
    let manifest: PullManifest | undefined;
    try {
      manifest = JSON.parse(readFileSync(join(dir, PULL_MANIFEST), 'utf8')) as PullManifest;
    } catch {
      manifest = undefined;
    }
    out.push({
      name: e.name,
      dir,
      ...(manifest ? { repo: manifest.repo, revision: manifest.revision } : {}),
      bytes: files.reduce((a, f) => a + f.size, 0),
      onnxFiles: files.filter((f) => f.rel.endsWith('.onnx')).map((f) => f.rel).sort(),
      partial: files.some((f) => f.rel.endsWith('.part')),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
