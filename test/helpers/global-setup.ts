import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder per run, made the temporary folder of every test and of every CLI it
 * spawns (TMPDIR, inherited): whatever a test or a killed process leaves there goes with it
 * at the end. What was left is named, so that a test that forgets to clean up is seen.
 */
export default function setup(): () => void {
  // Each project (vitest.config.ts) runs this; the first one makes the folder.
  if (process.env.TADPOLE_TEST_TMPDIR) return () => {};
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'tadpole-vitest-'));
  process.env.TMPDIR = root;
  process.env.TADPOLE_TEST_TMPDIR = root;
  // What several test files read and one makes, once per run (test/helpers/demo-run.ts).
  const cache = join(root, 'cache');
  mkdirSync(cache);
  process.env.TADPOLE_TEST_CACHE = cache;
  return () => {
    const left = readdirSync(root).filter((name) => name !== 'cache');
    if (left.length > 0) console.log(`the tests left ${left.length} entries in their temporary folder, removed now: ${left.join(', ')}`);
    rmSync(root, { recursive: true, force: true });
    delete process.env.TADPOLE_TEST_TMPDIR;
    delete process.env.TADPOLE_TEST_CACHE;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}
