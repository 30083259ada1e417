import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsOf } from '../helpers/import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('imports between source files', () => {
  it('form no circle (a shared type or helper goes in a file of its own)', () => {
    const cycles = importCycles(importGraph(SRC)).map((c) => c.join(' -> '));
    expect(cycles, `circles of imports under src/:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('are all seen: static, type-only, re-exports and dynamic, not those in comments', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "import {\n  c,\n  type C,\n} from './c.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "import './f.js';",
      "const g = await import('./g.js');",
      "import { readFileSync } from 'node:fs';",
      "// import { h } from './h.js';",
      "/* import('./i.js') */",
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', './g.js']);
  });

  it('finds a circle, and prints the way round it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts'], ['e.ts', 'e.ts']]);
    expect(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });
});
