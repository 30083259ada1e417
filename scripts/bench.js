#!/usr/bin/env node
// `npm run bench`: every benchmark, each in its own process, figures on stdout.
// BENCH_ONLY=splitter,hash,... picks some; BENCH_MEMORY_MB=100,1000 sets the memory sizes.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const ALL = ['splitter', 'hash', 'forest', 'lines', 'formats', 'streams', 'e2e', 'workers', 'selectors', 'memory', 'sample', 'peers'];
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : ALL;
let failed = 0;
for (const name of only) {
  console.log(`\n== ${name}`);
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bench', `${name}.js`)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(bench ${name} failed with exit ${r.status})`);
  }
}
process.exitCode = failed ? 1 : 0;
