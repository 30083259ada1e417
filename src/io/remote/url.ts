import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';
import { redact } from '../../core/redact.js';
import { TadpoleError } from '../../core/errors.js';

/**
 * Where a remote input lives. `s3://` goes to the AWS SDK; `http(s)://` and `hf://` (the hub's
 * resolve address, src/io/remote/http.ts) are plain HTTP with Range requests.
 */
export type RemoteLocation = { kind: 's3'; bucket: string; key: string } | { kind: 'http'; url: string; auth?: string };

const REMOTE = /^(s3|https?|hf):\/\//i;

/** An input named by a URL rather than a path. */
export function isRemote(input: string): boolean {
  return REMOTE.test(input);
}

/** A `s3://bucket/prefix/` name: the corpus objects under it, as a folder. */
export function isRemoteFolder(input: string): boolean {
  return /^(s3|hf):\/\//i.test(input) && input.endsWith('/');
}

const HF_DEFAULT = 'https://huggingface.co';
export const CREDENTIALS_KEY = 'tadpole.remote.credentials';

export function hfEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  return (env.HF_ENDPOINT || HF_DEFAULT).replace(/\/+$/, '');
}

/**
 * The name an input is known by from here on: a URL's user and password are taken out of it
 * (kept aside, for this process and its threads) so that no message, output field or run
 * record ever holds them.
 */
export function withoutCredentials(input: string): string {
  const m = /^(https?:\/\/)([^/@\s]*)@(.*)$/i.exec(input);
  if (!m) return input;
  const clean = m[1]! + m[3]!;
  const known = (getEnvironmentData(CREDENTIALS_KEY) as Record<string, string> | undefined) ?? {};
  // Environment data reaches every worker thread started after this: they read with the same credentials.
  setEnvironmentData(CREDENTIALS_KEY, { ...known, [clean]: decodeURIComponent(m[2]!) });
  return clean;
}

/** Where `input` is fetched from, with the credentials it was given or that the environment holds. */
export function locate(input: string, env: NodeJS.ProcessEnv = process.env): RemoteLocation {
  const s3 = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(input);
  if (s3) return { kind: 's3', bucket: s3[1]!, key: s3[2]! };
  const hf = /^hf:\/\/datasets\/([^/@]+)\/([^/@]+)(?:@([^/]+))?\/(.+)$/i.exec(input);
  if (hf) {
    const [, org, name, revision, path] = hf;
    const url = `${hfEndpoint(env)}/datasets/${org}/${name}/resolve/${encodeURIComponent(revision ?? 'main')}/${path!.split('/').map(encodeURIComponent).join('/')}`;
    return env.HF_TOKEN ? { kind: 'http', url, auth: `Bearer ${env.HF_TOKEN}` } : { kind: 'http', url };
  }
  if (/^hf:\/\//i.test(input)) throw new TadpoleError('TADPOLE_USAGE', `${safe(input)}: a hub input is hf://datasets/ORG/NAME/PATH (or hf://datasets/ORG/NAME@REVISION/PATH)`);
  const user = (getEnvironmentData(CREDENTIALS_KEY) as Record<string, string> | undefined)?.[input];
  return user !== undefined ? { kind: 'http', url: input, auth: `Basic ${Buffer.from(user).toString('base64')}` } : { kind: 'http', url: input };
}

/** Text safe to print: no password in an address, no token or secret key the environment holds. */
export function safe(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return redact(text, [env.HF_TOKEN, env.AWS_SECRET_ACCESS_KEY, env.AWS_SESSION_TOKEN]);
}
