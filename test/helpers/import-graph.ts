import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Relative imports of every .ts file under `root`: static (`import ... from`, `export ... from`,
 * type-only included, bare `import './x.js'`) and dynamic (`import('./x.js')`). Type-only
 * imports count: a circle of types still ties the files together.
 */
export function importGraph(root: string): Map<string, string[]> {
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(root, f));
  const graph = new Map<string, string[]>();
  for (const file of files) graph.set(relative(root, file), importsOf(readFileSync(file, 'utf8')).map((spec) => relative(root, resolve(dirname(file), spec.replace(/\.js$/, '.ts')))));
  return graph;
}

const IMPORT = /(?:\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]*?\s+from\s+)?|\bimport\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

export function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...new Set([...code.matchAll(IMPORT)].map((m) => m[1] as string))];
}

/** Every circle of imports: the strongly connected components of more than one file (or a file importing itself), each as one path around it. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) cycles.push(pathAround(graph, new Set(component), v));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/** One way round a strongly connected component, from `start` back to it (breadth-first, so the shortest). */
function pathAround(graph: Map<string, string[]>, component: Set<string>, start: string): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = from.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
