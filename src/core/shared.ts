import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of shared corpora and models: $TADPOLE_SHARED when it is set (so that setting it
 * to a folder without them, e.g. an empty one, means "none"), else ../shared beside the
 * checkout (the layout CI uses). A folder counts when it holds corpora/; undefined otherwise.
 */
export function sharedDir(): string | undefined {
  const env = process.env.TADPOLE_SHARED;
  const here = dirname(fileURLToPath(import.meta.url));
  // src/core or dist/core -> repo root -> ../shared
  const dir = env ? resolve(env) : resolve(here, '..', '..', '..', 'shared');
  return existsSync(join(dir, 'corpora')) ? dir : undefined;
}

export function sharedPath(...parts: string[]): string {
  const dir = sharedDir();
  if (!dir) throw new Error('shared corpora not found: set TADPOLE_SHARED or place ../shared beside the checkout');
  return join(dir, ...parts);
}
