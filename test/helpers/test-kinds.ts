import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The test files by project (vitest.config.ts), from what they run and read:
 * - e2e: spawns the CLI (or another process), itself or through demoRun (test/helpers/demo-run.ts);
 * - corpus: reads the shared corpora or models ($TADPOLE_SHARED or ../shared) and spawns nothing;
 * - unit: the rest.
 * `needsShared` are the files that read the shared folder, e2e ones included: themselves,
 * through a helper that does (test/helpers/corpora.ts, test/select/fixture.ts,
 * test/run/helpers.ts, the ONNX fixtures). The built-in corpus (corpora/builtin/, read by
 * test/helpers/builtin.ts and tadpole demo) ships with the checkout: its tests run everywhere.
 */
const READS_SHARED = /\bsharedPath\(|\bsharedDir\(|\bHAVE_SHARED\b|helpers\/corpora\.js|run\/helpers\.js|\.\/fixture\.js|reference-sentences\.mjs/;
const SPAWNS = /\brunCli\(|\bcli(Async)?\(|\bspawn\(|\bspawnSync\(|\bexecFile(Sync)?\(|\bfork\(|\bdemoRun\(/;

export interface TestKinds {
  unit: string[];
  e2e: string[];
  corpus: string[];
  needsShared: string[];
}

export function testKinds(root: string): TestKinds {
  const out: TestKinds = { unit: [], e2e: [], corpus: [], needsShared: [] };
  for (const f of (readdirSync(join(root, 'test'), { recursive: true }) as string[]).filter((x) => x.endsWith('.test.ts')).sort()) {
    const file = join('test', f);
    const source = readFileSync(join(root, file), 'utf8');
    const shared = READS_SHARED.test(source);
    if (shared) out.needsShared.push(file);
    out[SPAWNS.test(source) ? 'e2e' : shared ? 'corpus' : 'unit'].push(file);
  }
  return out;
}
