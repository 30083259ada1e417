#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Node's module loader reads a command's modules many at a time (about 35 files open at once,
 * on top of Node's own 20): under this many, a run failed at random places with EMFILE.
 * Below about 17 Node itself aborts before this file runs; nothing here can say so.
 */
const OPEN_FILES_FLOOR = 64;
// Exit 6 (src/core/errors.ts EXIT.limit), written out here: nothing of dist/ is loaded yet.
const EXIT_LIMIT = 6;

function openFilesLimit() {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

function tooFewFiles(n) {
  process.stderr.write(`tadpole: error: too few open files allowed: ${n ?? 'the limit'} (ulimit -n); tadpole needs at least ${OPEN_FILES_FLOOR}: raise it (ulimit -n 4096)\n`);
  process.exit(EXIT_LIMIT);
}

const openFiles = openFilesLimit();
if (openFiles !== undefined && openFiles < OPEN_FILES_FLOOR) tooFewFiles(openFiles);

const main = new URL('../dist/cli/main.js', import.meta.url);
// A checkout has no install script that builds (npm would list it as one to approve): until
// `npm run build`, say so in one line rather than with a module-not-found stack.
if (!existsSync(main)) {
  process.stderr.write(`tadpole: not built yet: run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`);
  process.exit(1);
}
let run;
try {
  ({ main: run } = await import(main.href));
} catch (err) {
  if (err?.code === 'EMFILE' || err?.code === 'ENFILE') tooFewFiles(openFiles);
  throw err;
}
run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
