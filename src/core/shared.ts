import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of shared corpora and models: $TADPOLE_SHARED, else ../shared beside the
 * checkout (the layout CI uses). Returns undefined when neither exists.
 */
export function sharedDir(): string | undefined {
  const env = process.env.TADPOLE_SHARED;
  if (env && existsSync(env)) return resolve(env);
  const here = dirname(fileURLToPath(import.meta.url));
  // src/core or dist/core -> repo root -> ../shared
  const candidate = resolve(here, '..', '..', '..', 'shared');
  return existsSync(candidate) ? candidate : undefined;
}

export function sharedPath(...parts: string[]): string {
  const dir = sharedDir();
  if (!dir) throw new Error('shared corpora not found: set TADPOLE_SHARED or place ../shared beside the checkout');
  return join(dir, ...parts);
}
