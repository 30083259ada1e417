import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../../core/errors.js';
import { STDIN } from '../input.js';
import { globBase, globToRegExp, hasGlob } from './glob.js';
import { isRemote, isRemoteFolder, withoutCredentials } from '../remote/url.js';
import { remoteFolder } from '../remote/registry.js';

/**
 * File names that make a corpus inside a folder: text, JSONL, CSV, TSV and Parquet, plain or
 * compressed. Only the folder walk looks at names; what a file IS is still decided by
 * its magic bytes (src/io/format/magic.ts).
 */
export const CORPUS_FILE = /\.(txt|text|jsonl|ndjson|csv|tsv|parquet)(\.(gz|zst|zstd|bz2|xz))?$/i;

/**
 * The inputs as the reader takes them: a folder becomes the corpus files under it
 * (recursive, by extension, sorted by path), a quoted glob the files it matches (sorted),
 * so `tadpole filter shards/` is the same run as naming every shard one by one.
 * `-` (stdin) and plain file names pass through unchanged, in the order given. A remote
 * name (s3://, http(s)://, hf://) is a file, and `s3://bucket/prefix/` a folder of objects;
 * a URL's user and password are taken out of its name here (src/io/remote/url.ts).
 */
export function expandInputs(inputs: string[]): string[] {
  const out: string[] = [];
  for (const input of inputs) {
    if (input === STDIN) {
      out.push(input);
      continue;
    }
    if (isRemote(input)) {
      const name = withoutCredentials(input);
      out.push(...(isRemoteFolder(name) ? remoteFolder(name) : [name]));
      continue;
    }
    const st = statOrUndefined(input);
    if (st?.isDirectory()) out.push(...folderFiles(input));
    else if (!st && hasGlob(input)) out.push(...globFiles(input));
    else out.push(input);
  }
  return out;
}

/** stat, following links; undefined for a path that is not there (or cannot be read). */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function folderFiles(dir: string): string[] {
  const files = walk(dir).filter((f) => CORPUS_FILE.test(f));
  if (files.length === 0) {
    throw new TadpoleError('TADPOLE_INPUT', `${dir}: no corpus files in this folder (looked recursively for *.jsonl, *.ndjson, *.txt, *.csv, *.tsv, *.parquet, also .gz/.zst); name the files instead`, { file: dir });
  }
  return sortPaths(files);
}

function globFiles(given: string): string[] {
  // path.join drops a leading "./" from walked paths: drop it from the pattern too.
  const pattern = given.replace(/^(\.\/)+/, '');
  const re = globToRegExp(pattern);
  const base = globBase(pattern);
  const files: string[] = [];
  for (const f of statOrUndefined(base)?.isDirectory() ? walk(base) : []) {
    if (re.test(f)) files.push(f);
  }
  if (files.length === 0) throw new TadpoleError('TADPOLE_INPUT', `${given}: no file matches this pattern`, { file: given });
  return sortPaths(files);
}

/** Every file under dir, recursively; hidden files and folders (.git, .cache) are left out. */
function walk(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop() as string;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (err) {
      throw new TadpoleError('TADPOLE_INPUT', `${d}: cannot read folder (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { file: d, cause: err });
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile() || (e.isSymbolicLink() && statOrUndefined(p)?.isFile())) out.push(p);
    }
  }
  return out;
}

/** Byte order of the path (not locale order): the same on every machine. */
function sortPaths(paths: string[]): string[] {
  return paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
