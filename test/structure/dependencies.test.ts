import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
const sources = (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'));

/** The package a bare specifier names: `a/b` -> `a`, `@s/a/b` -> `@s/a`. */
const packageOf = (spec: string) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

describe('runtime dependencies', () => {
  // Optional peers are runtime dependencies a package install leaves out (optional-natives.e2e.test.ts).
  const runtime = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies }).sort();

  it('cover every package src imports or requires', () => {
    const LOADS = /(?:\bfrom\s+|\bimport\(\s*|\brequire\(\s*)'([^'.][^']*)'/g;
    const imported = new Set(sources.flatMap((s) => [...s.matchAll(LOADS)].map((m) => packageOf(m[1] as string))).filter((p) => !p.startsWith('node:') && !builtinModules.includes(p)));
    expect([...imported].filter((p) => !runtime.includes(p))).toEqual([]);
  });

  it('are each loaded by src (the others are devDependencies: benches, tests, tools)', () => {
    // A name chosen at run time (src/run/sqlite.ts picks a better-sqlite3 by Node major) is a string literal.
    expect(runtime.filter((p) => !sources.some((s) => s.includes(`'${p}'`)))).toEqual([]);
  });
});
