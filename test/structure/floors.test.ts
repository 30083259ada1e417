import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../helpers/import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

/** The folder a file under src/ lives in; files at the top (index.ts) stand for themselves. */
const folderOf = (file: string) => (file.includes('/') ? (file.split('/')[0] as string) : file);

/** The block under `heading` in a markdown file: the first fenced block after it. */
function blockAfter(path: string, heading: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  expect(at, `${path} has no "${heading}"`).toBeGreaterThan(-1);
  const block = /```text\n([\s\S]*?)```/.exec(text.slice(at));
  expect(block, `${path}: no text block under "${heading}"`).not.toBeNull();
  return (block![1] as string).split('\n').filter((l) => l.trim() !== '');
}

/** The floors written in docs/design/how-it-works.md: `N  folder folder ...`, one floor a line. */
function writtenFloors(): Map<string, number> {
  const floors = new Map<string, number>();
  for (const line of blockAfter('docs/design/how-it-works.md', '## Floors')) {
    const [n, ...folders] = line.trim().split(/\s+/);
    for (const f of folders) floors.set(f, Number(n));
  }
  return floors;
}

/** Every import from one folder into another on the same floor or a higher one, as `from -> to (floor a -> b)`. */
function climbs(graph: Map<string, string[]>, floors: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph) {
    const from = folderOf(file);
    for (const dep of deps) {
      const to = folderOf(dep);
      if (to === from) continue;
      const a = floors.get(from);
      const b = floors.get(to);
      if (a === undefined || b === undefined || b >= a) out.push(`${file} -> ${dep} (floor ${a ?? '?'} -> ${b ?? '?'})`);
    }
  }
  return out.sort();
}

const srcFolders = () => readdirSync(SRC, { withFileTypes: true }).map((e) => (e.isDirectory() ? e.name : e.name.endsWith('.ts') ? e.name : '')).filter(Boolean).sort();

describe('floors of src/ (docs/design/how-it-works.md, "Floors")', () => {
  it('put every folder of src/ on one floor', () => {
    expect([...writtenFloors().keys()].sort()).toEqual(srcFolders());
  });

  it('are kept: a file imports only its own folder and folders on lower floors', () => {
    const found = climbs(importGraph(SRC), writtenFloors());
    expect(found, `imports that climb a floor (move the shared part down):\n${found.join('\n')}`).toEqual([]);
  });

  it('catch an import up a floor, across one, and into a folder on no floor', () => {
    const floors = new Map([
      ['core', 0],
      ['io', 1],
      ['text', 1],
      ['cli', 2],
    ]);
    const graph = new Map([
      ['cli/a.ts', ['io/b.ts', 'core/c.ts']],
      ['io/b.ts', ['io/d.ts', 'core/c.ts', 'text/e.ts']],
      ['core/c.ts', ['cli/a.ts']],
      ['text/e.ts', ['new/f.ts']],
    ]);
    expect(climbs(graph, floors)).toEqual(['core/c.ts -> cli/a.ts (floor 0 -> 2)', 'io/b.ts -> text/e.ts (floor 1 -> 1)', 'text/e.ts -> new/f.ts (floor 1 -> ?)']);
    expect(climbs(new Map([['cli/a.ts', ['io/b.ts']]]), floors)).toEqual([]);
  });
});

describe("README's layout", () => {
  it('names every folder of src/, one line each', () => {
    const named = blockAfter('README.md', '## Layout').flatMap((l) => /^src\/(\w+)\//.exec(l)?.[1] ?? []);
    const folders = srcFolders().filter((f) => !f.endsWith('.ts'));
    expect(named.filter((f, i) => named.indexOf(f) !== i), 'named twice').toEqual([]);
    expect(named.sort()).toEqual(folders);
  });
});
