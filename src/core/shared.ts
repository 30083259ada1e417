import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * The folder of shared corpora and models: $TADPOLE_SHARED when it is set (so that setting it
 * to a folder without them, e.g. an empty one, means "none"), else ../shared beside the
 * checkout (the layout CI uses). A folder counts when it holds corpora/; undefined otherwise.
 */
export function sharedDir(): string | undefined {
  const env = process.env.TADPOLE_SHARED;
  // ../shared beside the checkout (the package's folder)
  const dir = env ? resolve(env) : resolve(packageRoot(), '..', 'shared');
  return existsSync(join(dir, 'corpora')) ? dir : undefined;
}

export function sharedPath(...parts: string[]): string {
  const dir = sharedDir();
  if (!dir) throw new Error('shared corpora not found: set TADPOLE_SHARED or place ../shared beside the checkout');
  return join(dir, ...parts);
}
