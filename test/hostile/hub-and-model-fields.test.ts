/**
 * The hub is a boundary: `model pull` checks the repo id, revision and file paths before any
 * request (a loopback hub records every request it gets: a refused name must send none), and
 * a password in the hub's address or the HF_TOKEN never reaches stderr. Model fields: every
 * number of a model file is range-checked on load, with or without its checksum. The CLI's
 * main runs in this process (runMain): what is checked is the command's answer, not the
 * process, and the loopback hub answers the same event loop's requests.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { runMain } from '../helpers/cli.js';

/** One line, nothing a terminal would act on. */
const ONE_LINE = /^[^\n]*\n$/;
const PASSWORD = 'pa55-secret-word';
const TOKEN = 'hf_tok3n-value-never-shown';

let dir: string;
let server: Server;
let port: number;
/** Every request the hub got: its path and headers. */
const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
/** What the hub answers every request with. */
let status = 404;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tadpole-hub-fields-'));
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(status, { 'content-type': 'application/json' }).end(`{"error":"answered ${status}"}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** `tadpole model pull ARGS` against the loopback hub (HF_ENDPOINT, as hub.ts reads it), the cache in the test's folder. */
function pull(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runMain(['model', 'pull', ...args], { env: { TADPOLE_HF_ENDPOINT: '', HF_ENDPOINT: `http://127.0.0.1:${port}`, HF_TOKEN: '', TADPOLE_CACHE: join(dir, 'cache'), ...env } });
}

describe('model pull: names checked before any request', () => {
  const BAD: Array<[string, string[], RegExp]> = [
    ['repo ..', ['..'], /repo id/],
    ['repo Xenova/..', ['Xenova/..'], /repo id/],
    ['repo ./x', ['./x'], /repo id/],
    ['repo a/b/c (three parts)', ['a/b/c'], /repo id/],
    ['repo with -- inside', ['Xenova/all--MiniLM'], /repo id/],
    ['repo ending in .', ['Xenova/model.'], /repo id/],
    ['repo starting with -', ['-x/model'], /repo id|unknown option/],
    ['repo of 97 characters', [`o/${'m'.repeat(95)}`], /at most 96/],
    ['repo with a backslash', ['Xenova\\..\\x'], /repo id/],
    ['--onnx-file ../../x', ['Xenova/all-MiniLM-L6-v2', '--onnx-file', '../../x'], /--onnx-file "\.\.\/\.\.\/x" .*"\.\." part/],
    ['--onnx-file /abs', ['Xenova/all-MiniLM-L6-v2', '--onnx-file', '/tmp/model.onnx'], /absolute/],
    ['--file /etc/passwd', ['Xenova/all-MiniLM-L6-v2', '--file', '/etc/passwd'], /--file "\/etc\/passwd" .*absolute/],
    ['--file a//b (an empty part)', ['Xenova/all-MiniLM-L6-v2', '--file', 'onnx//model.onnx'], /empty part/],
    ['--file with a backslash', ['Xenova/all-MiniLM-L6-v2', '--file', 'onnx\\model.onnx'], /backslash/],
    ['--file ./x', ['Xenova/all-MiniLM-L6-v2', '--file', './config.json'], /"\." part/],
    ['--revision ..', ['Xenova/all-MiniLM-L6-v2', '--revision', '..'], /--revision/],
    ['--revision ../../x', ['Xenova/all-MiniLM-L6-v2', '--revision', '../../x'], /--revision/],
    ['--revision with a space', ['Xenova/all-MiniLM-L6-v2', '--revision', 'main branch'], /--revision/],
  ];

  it.each(BAD)('%s: exit 2, one line, and the hub got no request', async (_name, args, words) => {
    const before = requests.length;
    const r = await pull(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(ONE_LINE);
    expect(r.stderr).toMatch(/^tadpole model: error: /);
    expect(r.stderr).toMatch(words);
    expect(requests.slice(before).map((q) => q.url)).toEqual([]);
  });

  it('valid names (owner/name, a bare name, a refs/pr revision, a nested file) do reach the hub', async () => {
    status = 404;
    for (const args of [['Xenova/all-MiniLM-L6-v2', '--onnx-file', 'onnx/model_quantized.onnx'], ['gpt2'], ['org_1/model.v2', '--revision', 'refs/pr/1']]) {
      const before = requests.length;
      const r = await pull(args);
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(/answered HTTP 404/);
      expect(requests.length, args.join(' ')).toBeGreaterThan(before);
    }
    expect(requests.at(-1)?.url).toBe('/api/models/org_1/model.v2/revision/refs%2Fpr%2F1?blobs=true');
  });
});

describe('model pull: no password or token on stderr', () => {
  it.each([401, 500])('a hub at http://u:PASSWORD@host answering %i, with HF_TOKEN set: neither is printed; the token is sent', async (code) => {
    status = code;
    const before = requests.length;
    const r = await pull(['Xenova/all-MiniLM-L6-v2'], { HF_ENDPOINT: `http://user:${PASSWORD}@127.0.0.1:${port}`, HF_TOKEN: TOKEN });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`answered HTTP ${code}`);
    expect(r.stderr).toContain(`127.0.0.1:${port}`);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.stderr).not.toContain('user:');
    expect(requests.slice(before).map((q) => q.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('without HF_TOKEN the address\'s user and password go as Basic authorization, not in the URL, and are not printed', async () => {
    status = 401;
    const before = requests.length;
    const r = await pull(['Xenova/all-MiniLM-L6-v2'], { TADPOLE_HF_ENDPOINT: `http://user:${PASSWORD}@127.0.0.1:${port}/` });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stderr).toMatch(/set HF_TOKEN/);
    expect(requests.slice(before).map((q) => q.headers.authorization)).toEqual([`Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`]);
  });

  it('a hub that cannot be reached (the error fetch throws) names the address without its password', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await pull(['Xenova/all-MiniLM-L6-v2'], { HF_ENDPOINT: `http://user:${PASSWORD}@127.0.0.1:${deadPort}`, HF_TOKEN: TOKEN });
    expect(r.code, r.stderr).toBe(5);
    // The line that names the hub, then the error's one line.
    expect(r.stderr).toMatch(new RegExp(`^tadpole: pulling Xenova/all-MiniLM-L6-v2@main from http://127\\.0\\.0\\.1:${deadPort}\ntadpole model: error: [^\n]*\n$`));
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${deadPort}/`);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stderr).not.toContain(TOKEN);
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('model fields: every number range-checked, with or without the checksum', () => {
  const models = { contrast: '', hash: '' };
  let corpus: string;

  beforeAll(async () => {
    const task = join(dir, 'task.txt');
    writeFileSync(task, builtinTaskSentences(200).join('\n') + '\n');
    const general = join(dir, 'general.jsonl');
    writeFileSync(general, builtinMix(40).map((d) => JSON.stringify(d)).join('\n') + '\n');
    corpus = general;
    models.contrast = join(dir, 'contrast.json');
    models.hash = join(dir, 'hash.json');
    for (const [out, extra] of [[models.contrast, []], [models.hash, ['--method', 'tadpole', '--embedder', 'hash']]] as const) {
      const r = await runMain(['fit', '-q', '--task', task, '--doc-per-line', '--general', general, ...extra, '-o', out]);
      expect(r.code, r.stderr).toBe(0);
    }
  }, 120_000);

  const parts = (m: Json) => m.selector.state.selector.state.parts as Json[];
  const EDITS: Array<[string, 'contrast' | 'hash', string, (m: Json) => void]> = [
    ['charN 1e9 (the DSIR part)', 'contrast', 'selector.state.selector.state.parts[1].selector.params.charN', (m) => (parts(m)[1]!.selector.params.charN = 1e9)],
    ['charN 2.5 (the classifier part)', 'contrast', 'selector.state.selector.state.parts[0].selector.params.charN', (m) => (parts(m)[0]!.selector.params.charN = 2.5)],
    ['buckets 0', 'contrast', 'selector.state.selector.state.parts[1].selector.params.buckets', (m) => (parts(m)[1]!.selector.params.buckets = 0)],
    ['holdout 7', 'contrast', 'selector.params.holdout', (m) => (m.selector.params.holdout = 7)],
    ['an AUROC of 3', 'contrast', 'selector.state.choice.candidates[0].auroc', (m) => (m.selector.state.choice.candidates[0].auroc = 3)],
    ['a negative sentence count', 'contrast', 'counts.taskSentences', (m) => (m.counts.taskSentences = -1)],
    ['seed 0.5', 'contrast', 'fit.seed', (m) => (m.fit.seed = 0.5)],
    ['1e400 (JSON.parse: Infinity)', 'contrast', 'selector.state.functionWords.task', (m) => (m.selector.state.functionWords.task = 'INFINITY')],
    ['hash embedder nnz 1e9', 'hash', 'embedder.nnz', (m) => (m.embedder.nnz = 1e9)],
    ['detector trees 0', 'hash', 'selector.state.detector.params.trees', (m) => (m.selector.state.detector.params.trees = 0)],
    ['tadpole k 1.5', 'hash', 'selector.params.k', (m) => (m.selector.params.k = 1.5)],
  ];

  it('the intact models, their checksum removed, filter', async () => {
    for (const path of Object.values(models)) {
      const m = JSON.parse(readFileSync(path, 'utf8')) as Json;
      delete m.payloadSha256;
      const plain = join(dir, 'plain.json');
      writeFileSync(plain, JSON.stringify(m));
      const r = await runMain(['filter', '-q', '-m', plain, corpus, '-o', join(dir, 'kept-plain.jsonl')]);
      expect(r.code, r.stderr).toBe(0);
    }
  });

  it.each(EDITS)('%s, no checksum: exit 4, "model file is damaged: FIELD: WHAT", no output', async (_name, which, field, edit) => {
    const m = JSON.parse(readFileSync(models[which], 'utf8')) as Json;
    delete m.payloadSha256;
    edit(m);
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify(m).replace('"INFINITY"', '1e400'));
    const out = join(dir, 'kept-edited.jsonl');
    const r = await runMain(['filter', '-q', '-m', edited, corpus, '-o', out]);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(ONE_LINE);
    expect(r.stderr).toContain(`tadpole filter: error: model file is damaged: ${field}: `);
    const show = await runMain(['model', 'show', edited]);
    expect(show.code, show.stderr).toBe(4);
    expect(show.stderr).toContain(field);
  });

  it('fit refuses a charN over the range a model may hold (--option charN=1e9), so no fit writes one', async () => {
    const r = await runMain(['fit', '-q', '--task', join(dir, 'task.txt'), '--method', 'dsir', '--general', corpus, '--option', 'charN=1e9', '-o', join(dir, 'never.json')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/invalid charN .* should be an integer in \[2, 16\]/);
  });
});

