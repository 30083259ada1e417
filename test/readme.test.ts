import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

describe('README', () => {
  it('CLI reference matches every command --help (regenerate: node scripts/cli-reference.js --write)', async () => {
    const mod = (await import(join(ROOT, 'scripts', 'cli-reference.js'))) as { cliReference: () => Promise<string>; spliceReadme: (r: string, ref: string) => string };
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(mod.spliceReadme(readme, await mod.cliReference())).toBe(readme);
  });

  it('names the two commands: install + main job, and the tests', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm test');
  });
});
