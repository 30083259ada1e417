// How far the filter's options travel: the files an entry point's imports pass through on their
// way to the writer (the file that defines writeKeptRuns), and how often that way comes back
// to a file it had already entered. Reads src/ only (no build needed).
//
// usage: node scripts/research/options-path.js [ENTRY...]
//   ENTRY  a file under src/ (default: cli/filter.ts, then the library entries of a plain filter
//          and of filter --run-dir, whichever files define runFilter and filterInDir)
//
// For an entry E and the writer W, the path is every file that E reaches by imports and that
// reaches W by imports: the files a change to how options reach the writer may have to touch.
//   files    how many files that is (E and W included)
//   returns  import arrows inside it beyond one per file entered (arrows - (files - 1)): each is
//            a second way into a file the walk had already entered
//   folders  the src/ folders those files live in
//   with the files it calls into: the path's files and every file one of them imports (the
//            helpers entered and left on the way: locks, plans, the ledger, readers)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

// The same reading of imports as test/helpers/import-graph.ts (the floors test).
const IMPORT = /(?:\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]*?\s+from\s+)?|\bimport\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const importsOf = (source) => {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...new Set([...code.matchAll(IMPORT)].map((m) => m[1]))];
};

const files = readdirSync(SRC, { recursive: true }).filter((f) => f.endsWith('.ts'));
const graph = new Map();
const text = new Map();
for (const f of files) {
  const source = readFileSync(join(SRC, f), 'utf8');
  text.set(f, source);
  graph.set(f, importsOf(source).map((spec) => relative(SRC, resolve(dirname(join(SRC, f)), spec.replace(/\.js$/, '.ts')))));
}

const definer = (name) => files.find((f) => new RegExp(`^(export )?(async )?(function|class|const) ${name}\\b`, 'm').test(text.get(f)));
const writer = definer('writeKeptRuns');

const reach = (from, edges) => {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length) {
    for (const w of edges(stack.pop()) ?? []) {
      if (seen.has(w)) continue;
      seen.add(w);
      stack.push(w);
    }
  }
  return seen;
};
const reverse = new Map();
for (const [f, deps] of graph) for (const d of deps) reverse.set(d, [...(reverse.get(d) ?? []), f]);

function pathOf(entry) {
  const down = reach(entry, (f) => graph.get(f));
  const up = reach(writer, (f) => reverse.get(f));
  const on = [...down].filter((f) => up.has(f)).sort();
  const inside = new Set(on);
  const arrows = on.reduce((n, f) => n + (graph.get(f) ?? []).filter((d) => inside.has(d)).length, 0);
  const folders = [...new Set(on.map((f) => (f.includes('/') ? f.split('/')[0] : f)))].sort();
  // What the path calls on its way: its files and every file they import directly.
  const near = new Set(on);
  for (const f of on) for (const d of graph.get(f) ?? []) near.add(d);
  const nearFolders = [...new Set([...near].map((f) => (f.includes('/') ? f.split('/')[0] : f)))].sort();
  return { entry, files: on.length, returns: on.length ? arrows - (on.length - 1) : 0, folders, on, near: [...near].sort(), nearFolders };
}

const entries = process.argv.slice(2).length ? process.argv.slice(2) : ['cli/filter.ts', definer('runFilter'), definer('filterInDir')];
console.log(`writer: ${writer}`);
for (const e of entries) {
  const p = pathOf(e);
  console.log(`${p.entry}: ${p.files} files, ${p.returns} returns, ${p.folders.length} folders (${p.folders.join(' ')})`);
  console.log(`  with the files it calls into: ${p.near.length} files, ${p.nearFolders.length} folders (${p.nearFolders.join(' ')})`);
  if (process.env.LIST) for (const f of p.near) console.log(`  ${p.on.includes(f) ? '*' : ' '} ${f}`);
}
