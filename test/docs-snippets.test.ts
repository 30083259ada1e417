/**
 * Every code block of README.md and docs/ is run, so the docs say what the program does.
 * A block that cannot run here (a GPU, a cluster, an install, hours of benchmarks, the shared
 * corpora) carries a visible marker on the line before it, `<!-- not run: why -->`; any other
 * block runs: `sh` with bash in a folder holding the files the docs name (a small real corpus
 * from corpora/builtin/, one model fitted once), one folder per page so a page's blocks run in
 * turn on what the earlier ones wrote; `ts` type-checked (strict) against the built library's
 * declarations, then transpiled and run against the built library, imported as 'tadpole'. Blocks
 * of `text` are output and diagrams, not code. An indented code block would be neither run nor
 * marked, so there is none: every block is fenced.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir } from './helpers/cli.js';
import { testDir } from './helpers/temp.js';
import { warcFile, wetOf } from './helpers/warc.js';

const NOT_RUN = /^<!-- not run: (\S.*\S) -->$/;

interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  /** Why it is not run, from its marker. */
  notRun?: string;
}

function markdownFiles(): string[] {
  const docs = (readdirSync(join(ROOT, 'docs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', ...docs.sort()];
}

/** The fenced blocks of a page, each with the marker of the line before it. */
function blocksOf(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !(lines[end] as string).startsWith('```')) end++;
    const marker = NOT_RUN.exec((lines[i - 1] ?? '').trim());
    out.push({ file, line: i + 1, lang: open[1] as string, code: lines.slice(i + 1, end).join('\n') + '\n', ...(marker ? { notRun: marker[1] as string } : {}) });
    i = end;
  }
  return out;
}

/**
 * The lines that open an indented code block: indented 4 spaces (or a tab) after a blank line,
 * outside a fenced block and outside a list (where such a line continues the item).
 */
function indentedCode(text: string): number[] {
  const lines = text.split('\n');
  const out: number[] = [];
  let fenced = false;
  let inList = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced || line.trim() === '') continue;
    if (/^\s*([-*+]|\d+[.)])\s/.test(line)) inList = true;
    else if (!/^\s/.test(line)) inList = false;
    if (!inList && /^( {4}|\t)/.test(line) && (lines[i - 1] ?? '').trim() === '') out.push(i + 1);
  }
  return out;
}

const pages = markdownFiles().map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
const blocks = pages.flatMap((p) => blocksOf(p.file, p.text));
const where = (b: Block) => `${b.file}:${b.line}`;

describe('the code blocks of README.md and docs/', () => {
  it('every block names its language; code is sh or ts; a block not run says why, on the line before it', () => {
    expect(blocks.filter((b) => b.lang === '').map(where), 'an untagged block: tag it text (output, diagrams) or its language').toEqual([]);
    expect(blocks.filter((b) => b.lang !== 'text' && b.lang !== 'sh' && b.lang !== 'ts').map(where), 'a block in a language this test cannot run').toEqual([]);
    expect(blocks.filter((b) => b.lang === 'text' && b.notRun).map(where), 'a text block is not code: no marker').toEqual([]);
    // The markers are few and each says why: the rest of the docs is run below.
    const run = blocks.filter((b) => b.lang !== 'text' && !b.notRun);
    expect(run.length).toBeGreaterThanOrEqual(10);
    for (const b of blocks.filter((x) => x.notRun)) expect(b.notRun!.length, where(b)).toBeGreaterThan(8);
  });

  it('a marker that is not on the line before a block is an error, not a silent skip', () => {
    const page = ['<!-- not run: needs a GPU -->', '', '```sh', 'tadpole --help', '```', '<!-- not run: needs a GPU -->', '```sh', 'nvidia-smi', '```'].join('\n');
    const found = blocksOf('page.md', page);
    expect(found.map((b) => b.notRun)).toEqual([undefined, 'needs a GPU']);
    // On every page: each marker is well formed and a fenced block opens on the next line.
    const loose = pages.flatMap((p) => {
      const lines = p.text.split('\n');
      return lines.flatMap((l, i) => (l.includes('<!-- not run') && !(NOT_RUN.test(l.trim()) && /^```\S/.test(lines[i + 1] ?? '')) ? [`${p.file}:${i + 1}`] : []));
    });
    expect(loose).toEqual([]);
  });

  it('no code block is indented, where it would be neither run nor marked (an indented paragraph of a list item is not one)', () => {
    const page = ['Run it:', '', '    tadpole --help', '', '- an item', '', '    its second paragraph', '', '```sh', '', '    echo fenced', '```', 'Text.', '', '\tnode x.js'].join('\n');
    expect(indentedCode(page)).toEqual([3, 15]);
    expect(pages.flatMap((p) => indentedCode(p.text).map((n) => `${p.file}:${n}`)), 'fence it: sh (with a marker if it cannot run here) or text').toEqual([]);
  });
});

/** The files the docs' commands name, in a folder every page's run starts from. */
const template = tempDir('tadpole-docs-');
afterAll(() => template.cleanup());

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

beforeAll(() => {
  const dir = template.dir;
  const shim = join(dir, '.bin');
  mkdirSync(shim);
  writeFileSync(join(shim, 'tadpole'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  // The built-in corpus, cut small: a task of abstracts and a mixed corpus. 70 documents
  // (about 120 KB of text, still over the 100KB a page keeps) and 40 abstracts are enough for
  // every command the docs show (inspect still finds more than the five groups they name: 12),
  // and every command reads all of them (the README's inspect reads what --keep 5GB kept: the
  // whole corpus; rank embeds the whole task and sample), so no more.
  const task = gunzipSync(readFileSync(join(ROOT, 'corpora', 'builtin', 'task-bio.txt.gz'))).toString('utf8').split(/\n\s*\n/).filter((t) => t.trim()).slice(0, 40);
  const docs = gunzipSync(readFileSync(join(ROOT, 'corpora', 'builtin', 'mix.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean).slice(0, 70);
  const texts = docs.map((l) => (JSON.parse(l) as { text: string }).text);
  expect(texts.join('').length).toBeGreaterThan(110_000);
  writeFileSync(join(dir, 'task.txt'), task.join('\n\n') + '\n');
  writeFileSync(join(dir, 'task.jsonl'), task.map((text) => JSON.stringify({ text })).join('\n') + '\n');
  writeFileSync(join(dir, 'corpus.jsonl'), docs.join('\n') + '\n');
  writeFileSync(join(dir, 'corpus.jsonl.gz'), gzipSync(docs.join('\n') + '\n'));
  writeFileSync(join(dir, 'corpus.txt'), texts.join('\n\n') + '\n');
  // The general sample the fits draw from: 40 documents (every source of the mix among them).
  writeFileSync(join(dir, 'sample.txt'), texts.slice(0, 40).join('\n\n') + '\n');
  writeFileSync(join(dir, 'sample.jsonl'), docs.slice(0, 40).join('\n') + '\n');
  writeFileSync(join(dir, 'part.jsonl'), docs.slice(50).join('\n') + '\n');
  writeFileSync(join(dir, 'big.txt.gz'), gzipSync(texts.slice(0, 30).join('\n\n') + '\n'));
  mkdirSync(join(dir, 'shards'));
  writeFileSync(join(dir, 'shards', 'a.jsonl'), docs.slice(0, 35).join('\n') + '\n');
  writeFileSync(join(dir, 'shards', 'b.jsonl.gz'), gzipSync(docs.slice(35).join('\n') + '\n'));
  writeFileSync(join(dir, 'CC-MAIN-20240101-00000.warc.wet.gz'), warcFile(wetOf(texts.slice(0, 40))));
  mkdirSync(join(dir, 'data', '2024'), { recursive: true });
  copyFileSync(join(ROOT, 'test', 'fixtures', 'formats', 'corpus.parquet'), join(dir, 'data', '2024', 'corpus.parquet'));
  // A small WordPiece tokenizer.json, for the token budgets (--keep-by tokens --tokenizer).
  copyFileSync(join(ROOT, 'test', 'fixtures', 'tokenizer', 'tokenizer.json'), join(dir, 'tokenizer.json'));
  // 'tadpole' for the library snippets: this checkout's build.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'tadpole'), 'dir');
  // One model, fitted once, and what it kept: the pages that start from a model share them.
  const fit = run(join(shim, 'tadpole'), ['fit', '-q', '--task', 'task.jsonl', '--general', 'sample.jsonl', '-o', 'model.json'], dir);
  expect(fit.code, fit.out).toBe(0);
  const filter = run(join(shim, 'tadpole'), ['filter', '-q', '-m', 'model.json', 'corpus.jsonl', '-o', 'kept.jsonl'], dir);
  expect(filter.code, filter.out).toBe(0);
});

/** A page's own copy of the template folder. */
function workspace(): string {
  const dir = testDir('tadpole-docs-page-');
  cpSync(template.dir, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

function runSh(b: Block, dir: string): void {
  const r = run('bash', ['-e', '-o', 'pipefail', '-c', b.code], dir, { PATH: `${join(template.dir, '.bin')}:${process.env.PATH ?? ''}` });
  expect(r.code, `${where(b)} failed:\n${b.code}\n${r.out}`).toBe(0);
}

function runTs(b: Block, dir: string): void {
  const js = ts.transpileModule(b.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, reportDiagnostics: true });
  expect(js.diagnostics ?? [], where(b)).toEqual([]);
  const file = join(dir, `snippet-${b.line}.mjs`);
  writeFileSync(file, js.outputText);
  const r = run(process.execPath, [file], dir);
  expect(r.code, `${where(b)} failed:\n${b.code}\n${r.out}`).toBe(0);
}

/** TypeScript's errors in each snippet (by name), checked strictly against dist/'s declarations. */
function typeErrors(snippets: { name: string; code: string }[]): Map<string, string[]> {
  const dir = testDir('tadpole-docs-types-');
  const files = new Map(snippets.map((s, i) => [join(dir, `snippet-${i}.mts`), s.name]));
  snippets.forEach((s, i) => writeFileSync(join(dir, `snippet-${i}.mts`), s.code));
  const program = ts.createProgram([...files.keys()], {
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    // The snippets run on Node: its globals come from @types/node, and without the DOM's
    // declarations (the largest part of the default lib) the check takes half the time.
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    paths: { tadpole: [join(ROOT, 'dist', 'index.d.ts')] },
  });
  const out = new Map(snippets.map((s) => [s.name, [] as string[]]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = (d.file && files.get(d.file.fileName)) ?? 'the program';
    const at = d.file && d.start !== undefined ? `line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    out.set(name, [...(out.get(name) ?? []), at + ts.flattenDiagnosticMessageText(d.messageText, ' ')]);
  }
  return out;
}

describe('the ts blocks type-check against the built library', () => {
  it('every ts block that runs has no type error; a wrong call to the library is one', () => {
    const wrong = "import { fitModel } from 'tadpole';\nawait fitModel({ method: 1 });\n";
    const checked = blocks.filter((b) => b.lang === 'ts' && !b.notRun);
    const errors = typeErrors([{ name: 'wrong', code: wrong }, ...checked.map((b) => ({ name: where(b), code: b.code }))]);
    expect(errors.get('wrong')!.join('\n')).toMatch(/not assignable/);
    errors.delete('wrong');
    expect([...errors].filter(([, e]) => e.length > 0)).toEqual([]);
  });
});

const runPages = [...new Set(blocks.filter((b) => b.lang !== 'text' && !b.notRun).map((b) => b.file))];

describe('the blocks run, page by page, on a small real corpus', () => {
  for (const page of runPages) {
    it(page, () => {
      const dir = workspace();
      for (const b of blocks.filter((x) => x.file === page && x.lang !== 'text' && !x.notRun)) {
        if (b.lang === 'sh') runSh(b, dir);
        else runTs(b, dir);
      }
    });
  }
});
