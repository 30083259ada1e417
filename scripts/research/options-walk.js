// Where the filter's options travel: from the library entry, every call that passes the
// options on (an argument, or a member of an object literal argument, whose type is one of
// the options types: what a caller gives, FilterOptions; what the normaliser makes of it,
// RunOptions and its RunDir), followed into the function called, depth first, each function
// once. The values unpacked from the options (an input's path, the segment size) are not
// followed: they are the data a step works on, not the options. Reads src/ with the
// TypeScript compiler (no build needed).
//
// usage: node scripts/research/options-walk.js [FILE:FUNCTION]   (default commands/filter.ts:runFilter)
//   files   the source files of the functions entered (the entry's included)
//   calls   the calls that pass the options on
//   climbs  steps of the walk up a floor: the calls in the order they are written, each a step
//           to the file it enters (a function entered before too); a step from a file on a lower
//           floor to one on a higher is a climb back up (floors: docs/design/how-it-works.md)
//   LIST=1  prints the walk, a call a line
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');
// OPTIONS_TYPES=A,B,...: other names (an older layout's shapes of the same options).
const OPTIONS_TYPES = new Set(process.env.OPTIONS_TYPES?.split(',') ?? ['FilterOptions', 'RunOptions', 'RunDir', 'RunDirSettings']);

const floors = new Map();
const design = readFileSync(join(ROOT, 'docs/design/how-it-works.md'), 'utf8');
const block = /## Floors[\s\S]*?```text\n([\s\S]*?)```/.exec(design)[1];
for (const line of block.split('\n').filter((l) => l.trim())) {
  const [n, ...folders] = line.trim().split(/\s+/);
  for (const f of folders) floors.set(f, Number(n));
}
const rel = (file) => relative(SRC, file);
const floorOf = (file) => floors.get(rel(file).includes('/') ? rel(file).split('/')[0] : rel(file));

const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
const checker = program.getTypeChecker();

const [entryFile, entryName] = (process.argv[2] ?? 'commands/filter.ts:runFilter').split(':');
const entrySource = program.getSourceFile(join(SRC, entryFile));
if (!entrySource) throw new Error(`no ${entryFile} under src/`);
let entry;
ts.forEachChild(entrySource, (n) => {
  if (ts.isFunctionDeclaration(n) && n.name?.text === entryName) entry = n;
});
if (!entry) throw new Error(`no function ${entryName} in ${entryFile}`);

/** Whether a value of this type is (or holds, as a union member) one of the options types. */
function isOptions(type) {
  if ([type.aliasSymbol, type.getSymbol()].some((s) => s !== undefined && OPTIONS_TYPES.has(s.getName()))) return true;
  return (type.isUnion() || type.isIntersection()) && type.types.some(isOptions);
}

/** Whether this argument passes the options on: it is options, or an object literal one of whose members is. */
function passesOptions(arg) {
  if (isOptions(checker.getTypeAtLocation(arg))) return true;
  if (ts.isObjectLiteralExpression(arg)) return arg.properties.some((p) => (ts.isPropertyAssignment(p) ? passesOptions(p.initializer) : ts.isShorthandPropertyAssignment(p) || ts.isSpreadAssignment(p) ? isOptions(checker.getTypeAtLocation(ts.isSpreadAssignment(p) ? p.expression : p.name)) : false));
  return false;
}

/** The function a call enters, when it is one of src/'s. */
function calleeOf(call) {
  const decl = checker.getResolvedSignature(call)?.getDeclaration();
  if (!decl || !decl.getSourceFile().fileName.startsWith(SRC)) return undefined;
  return decl;
}

const entered = new Set();
const files = new Set();
const walk = [];
let climbs = 0;
let calls = 0;
let last;

function enter(fn, depth) {
  if (entered.has(fn)) return;
  entered.add(fn);
  const file = fn.getSourceFile().fileName;
  files.add(file);
  const visit = (node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      if ((node.arguments ?? []).some(passesOptions)) {
        const callee = calleeOf(node);
        if (callee) {
          calls++;
          const to = floorOf(callee.getSourceFile().fileName);
          if (last !== undefined && to > last) climbs++;
          last = to;
          walk.push(`${'  '.repeat(depth)}${rel(node.getSourceFile().fileName)}:${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1} -> ${rel(callee.getSourceFile().fileName)} ${callee.name?.getText() ?? '(anonymous)'}`);
          if (callee.body) enter(callee, depth + 1);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
}

last = floorOf(entry.getSourceFile().fileName);
enter(entry, 0);
console.log(`${entryFile}:${entryName}: ${files.size} files, ${calls} calls that pass the options on, ${climbs} climbs back up a floor`);
if (process.env.LIST) {
  for (const line of walk) console.log(`  ${line}`);
  console.log('files:');
  for (const f of [...files].map(rel).sort()) console.log(`  ${f}`);
}
