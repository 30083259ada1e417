import { TadpoleError } from '../../core/errors.js';
import { CORPUS_FILE } from '../inputs/expand.js';
import { listPrefix, RemoteStatus } from './backends.js';
import { hfEndpoint, safe } from './url.js';

/**
 * The corpus objects under a remote folder name (`s3://bucket/prefix/`, `hf://datasets/ORG/NAME/dir/`),
 * by the same name rule and in the same byte order of names as a local folder's files.
 */
export async function listRemoteFolder(name: string): Promise<string[]> {
  let names: string[];
  try {
    names = name.toLowerCase().startsWith('s3://') ? await s3Names(name) : await hubNames(name);
  } catch (err) {
    if (err instanceof TadpoleError) throw err;
    const why = err instanceof RemoteStatus ? err.message : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message);
    throw new TadpoleError('TADPOLE_INPUT', safe(`${name}: cannot list the objects under it (${why})`), { file: safe(name) });
  }
  const files = names.filter((n) => CORPUS_FILE.test(n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (files.length === 0) {
    throw new TadpoleError('TADPOLE_INPUT', `${safe(name)}: no corpus objects under this prefix (looked for *.jsonl, *.ndjson, *.txt, *.csv, *.tsv, *.parquet, also .gz/.zst); name the objects instead`, { file: safe(name) });
  }
  return files;
}

async function s3Names(name: string): Promise<string[]> {
  const m = /^s3:\/\/([^/]+)\/(.*)$/i.exec(name)!;
  const bucket = m[1]!;
  // Hidden names are left out, as the folder walk leaves out .git and .cache.
  return (await listPrefix(bucket, m[2]!)).filter((o) => !o.key.split('/').some((part) => part.startsWith('.'))).map((o) => `s3://${bucket}/${o.key}`);
}

/** The hub's tree API (recursive, following its Link pages), HF_TOKEN as Bearer. */
async function hubNames(name: string): Promise<string[]> {
  const m = /^hf:\/\/datasets\/([^/@]+)\/([^/@]+)(?:@([^/]+))?\/(.*)$/i.exec(name);
  if (!m) throw new TadpoleError('TADPOLE_USAGE', `${safe(name)}: a hub folder is hf://datasets/ORG/NAME/DIR/`);
  const [, org, repo, revision, dir] = m;
  const token = process.env.HF_TOKEN;
  let url: string | undefined = `${hfEndpoint()}/api/datasets/${org}/${repo}/tree/${encodeURIComponent(revision ?? 'main')}/${dir!.replace(/\/+$/, '')}?recursive=true`;
  const out: string[] = [];
  while (url) {
    const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!res.ok) throw new RemoteStatus(res.status, `HTTP ${res.status} ${res.statusText}`);
    for (const e of (await res.json()) as Array<{ type: string; path: string }>) {
      if (e.type === 'file' && !e.path.split('/').some((p) => p.startsWith('.'))) out.push(`hf://datasets/${org}/${repo}${revision ? `@${revision}` : ''}/${e.path}`);
    }
    url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return out;
}
