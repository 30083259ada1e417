import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

const readme = () => readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README and docs/reference/cli.md', () => {
  it('docs/reference/cli.md matches every command --help (regenerate: node scripts/cli-reference.js --write)', async () => {
    const mod = (await import(join(ROOT, 'scripts', 'cli-reference.js'))) as { cliReference: () => Promise<string>; CLI_DOC: string };
    const doc = readFileSync(join(ROOT, mod.CLI_DOC), 'utf8');
    const generated = await mod.cliReference();
    expect(generated).toContain('## tadpole filter');
    expect(doc).toBe(generated);
  });

  it('names the two commands: install + main job, and the tests', () => {
    expect(readme()).toContain('npm ci && npm run demo');
    expect(readme()).toContain('npm test');
  });

  it('stays a short front page (at most 300 lines; the rest lives in docs/)', () => {
    expect(readme().split('\n').length).toBeLessThanOrEqual(300);
  });
});
