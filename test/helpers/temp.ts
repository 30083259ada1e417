import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new temporary folder, removed after the test file's last test. */
export function testDir(prefix = 'tadpole-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Removes the folders testDir made. Run after each test file by test/helpers/setup.ts: the
 * files a worker runs share this module (vitest.config.ts, isolate: false), so a hook this
 * module registered itself would run after the first file only.
 */
export function removeTestDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
