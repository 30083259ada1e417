import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's folder: this file is src/core/package-root.ts, or dist/core/package-root.js. */
export function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}
