// The splitter as it was before the speed rewrite (test/text/reference-splitter.ts, a
// test-only copy), compiled on the fly so benches can time old against new in one run.
// Build first (it imports the abbreviation lists and line geometry from dist/).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = new URL('../..', import.meta.url).pathname;

export async function loadReferenceSplitter() {
  const source = readFileSync(join(ROOT, 'test', 'text', 'reference-splitter.ts'), 'utf8')
    .replace(/'\.\.\/\.\.\/src\/text\/([a-z-]+)\.js'/g, (_, name) => `'${pathToFileURL(join(ROOT, 'dist', 'text', `${name}.js`)).href}'`);
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(mkdtempSync(join(tmpdir(), 'tadpole-ref-splitter-')), 'reference-splitter.mjs');
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)).referenceSplitSentences;
}
