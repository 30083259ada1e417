#!/usr/bin/env node
// Prints the CLI reference (every command's --help) as Markdown: docs/reference/cli.md.
// `node scripts/cli-reference.js --write` rewrites that file (run it after `npx tsc`, since it
// reads the built dist/); test/readme.test.ts checks that the file matches.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
export const COMMAND_ORDER = ['fit', 'filter', 'score', 'split', 'inspect', 'rank', 'eval', 'model', 'demo', 'runs', 'cut', 'emit'];
export const CLI_DOC = join('docs', 'reference', 'cli.md');

const HEADER = `# CLI reference

Every command's \`--help\`, as the installed \`tadpole\` prints it (\`tadpole help CMD\` prints the
same as \`tadpole CMD --help\`). This page is generated: after
changing a command's flags, run \`npx tsc -p tsconfig.json && node scripts/cli-reference.js --write\`
(\`test/readme.test.ts\` fails while it is out of date). Exit codes: [the README](../../README.md#exit-codes).`;

export async function cliReference() {
  const { helpText } = await import(join(ROOT, 'dist/cli/args.js'));
  const parts = [];
  for (const name of COMMAND_ORDER) {
    let mod;
    try {
      mod = await import(join(ROOT, `dist/cli/${name}.js`));
    } catch {
      continue;
    }
    parts.push(`## tadpole ${name}\n\n\`\`\`text\n${helpText(mod.command.spec).trimEnd()}\n\`\`\``);
  }
  const contents = COMMAND_ORDER.map((n) => `[${n}](#tadpole-${n})`).join(' · ');
  return `${HEADER}\n\n${contents}\n\n${parts.join('\n\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ref = await cliReference();
  if (process.argv.includes('--write')) writeFileSync(join(ROOT, CLI_DOC), ref);
  else process.stdout.write(ref);
}
