#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
// A checkout has no install script that builds (npm would list it as one to approve): until
// `npm run build`, say so in one line rather than with a module-not-found stack.
if (!existsSync(main)) {
  process.stderr.write(`tadpole: not built yet: run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`);
  process.exit(1);
}
const { main: run } = await import(main.href);
run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
