import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `root`, relative to it, sorted: what a command left behind. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else out.push(`${rel}${e.name}`);
    }
  };
  walk(root, '');
  return out.sort();
}

/** sha256 of a file's bytes: an input must be the same after a command as before. */
export function fileDigest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
