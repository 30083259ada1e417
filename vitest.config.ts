import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedDir } from './src/core/shared.js';
import { testKinds } from './test/helpers/test-kinds.js';

const kinds = testKinds(fileURLToPath(new URL('.', import.meta.url)));
const haveShared = sharedDir() !== undefined;
// Without the shared corpora the files that read them are not run: said once, here, by vitest
// (knip reads this file too, without VITEST set).
const exclude = haveShared ? [] : kinds.needsShared;
if (!haveShared && process.env.VITEST && !process.env.TADPOLE_TEST_SHARED_NOTICE) {
  process.env.TADPOLE_TEST_SHARED_NOTICE = '1';
  const all = kinds.unit.length + kinds.e2e.length + kinds.corpus.length;
  console.log(
    `skipping ${kinds.needsShared.length} of ${all} test files: they read the shared corpora folder, which is not here ($TADPOLE_SHARED, or ../shared beside the checkout; ` +
      'a folder of public datasets, listed in corpora/README.md). The others run, on the built-in corpus where they need real text.',
  );
}

export default defineConfig({
  test: {
    // 2-core machines: two workers.
    maxWorkers: 2,
    // A worker runs its test files one after another in one module graph: src/ and the helpers
    // are loaded once per worker, not once per file (about half a second of a core each).
    // Test files leave no state behind them (what one sets in process.env it restores), and
    // per-file cleanup is a hook of the setup file, not of a shared module.
    isolate: false,
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    projects: [
      // Library code in this process: each test well under a second on one core.
      { extends: true, test: { name: 'unit', include: kinds.unit, exclude, testTimeout: 60_000, hookTimeout: 60_000 } },
      // Spawns the CLI (most on real text): fits and filters end to end.
      { extends: true, test: { name: 'e2e', include: kinds.e2e, exclude, testTimeout: 120_000, hookTimeout: 120_000 } },
      // Real text from the shared corpora and models, in this process.
      { extends: true, test: { name: 'corpus', include: kinds.corpus, exclude, testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
