import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { helpText } from '../../src/cli/args.js';
import type { CliIO } from '../../src/cli/command.js';
import { command } from '../../src/cli/model.js';
import { sharedPath } from '../../src/core/shared.js';
import { createOnnxEmbedder } from '../../src/embed/onnx/index.js';

/**
 * A loopback stand-in for the Hugging Face hub: repo "test/<folder>" serves
 * ../shared/models/<folder> with the hub's URL layout, file list API (siblings with size,
 * blobId, and lfs.sha256 for files over 1 MB, like the hub) and HTTP Range.
 */
const modelsDir = sharedPath('models');
const requests: { url: string; range?: string }[] = [];
const lies = new Map<string, string>(); // path -> wrong hash to advertise

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

const hashCache = new Map<string, { sha256: string; blobId: string }>();
function hashes(path: string): { sha256: string; blobId: string } {
  let h = hashCache.get(path);
  if (!h) {
    const data = readFileSync(path);
    h = {
      sha256: createHash('sha256').update(data).digest('hex'),
      blobId: createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex'),
    };
    hashCache.set(path, h);
  }
  return h;
}

let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '');
    requests.push({ url, ...(req.headers.range ? { range: req.headers.range } : {}) });
    const api = /^\/api\/models\/test\/([^/]+)\/revision\/([^/?]+)/.exec(url);
    if (api) {
      const dir = join(modelsDir, api[1] as string);
      if (!existsSync(dir)) return void res.writeHead(404).end('{"error":"Repository not found"}');
      const siblings = listFiles(dir).map((rfilename) => {
        const p = join(dir, rfilename);
        const size = statSync(p).size;
        const h = hashes(p);
        const lie = lies.get(rfilename);
        return size > 1_000_000
          ? { rfilename, size, blobId: 'x', lfs: { sha256: lie ?? h.sha256, size } }
          : { rfilename, size, blobId: lie ?? h.blobId };
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ id: `test/${api[1]}`, siblings }));
    }
    const file = /^\/test\/([^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url);
    const path = file ? join(modelsDir, file[1] as string, file[3] as string) : '';
    if (!file || !existsSync(path)) return void res.writeHead(404).end('Entry not found');
    const data = readFileSync(path);
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      if (start >= data.length) return void res.writeHead(416).end();
      res.writeHead(206, { 'content-range': `bytes ${start}-${data.length - 1}/${data.length}`, 'content-length': data.length - start });
      return void res.end(data.subarray(start));
    }
    res.writeHead(200, { 'content-length': data.length });
    res.end(data);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

let cache: string;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'tadpole-model-test-'));
  requests.length = 0;
  lies.clear();
  return () => rmSync(cache, { recursive: true, force: true });
});

function io(env: Record<string, string>): CliIO & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { stdin: new PassThrough(), stdout, stderr, stderrIsTTY: false, env: { TADPOLE_CACHE: cache, TADPOLE_HF_ENDPOINT: endpoint, ...env }, cwd: cache, out: () => out, err: () => err };
}

async function run(argv: string[], env: Record<string, string> = {}) {
  const { parseArgs } = await import('../../src/cli/args.js');
  const cli = io(env);
  const code = await command.run(parseArgs(command.spec, argv), cli);
  return { code, out: cli.out(), err: cli.err() };
}

const tinyOnnx = join(modelsDir, 'tadpole-tiny-bert', 'onnx', 'model.onnx');
const cachedTiny = () => join(cache, 'models', 'test--tadpole-tiny-bert');

describe('tadpole model pull (loopback hub)', () => {
  it('downloads config, tokenizer and the onnx file, checked, and the embedder loads it by repo name', async () => {
    const r = await run(['pull', 'test/tadpole-tiny-bert']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(cachedTiny());
    const got = listFiles(cachedTiny());
    expect(got).toEqual(['.tadpole-pull.json', 'config.json', 'onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt']);
    expect(readFileSync(join(cachedTiny(), 'onnx/model.onnx')).equals(readFileSync(tinyOnnx))).toBe(true);
    expect(requests[0]?.url).toMatch(/^\/api\/models\/test\/tadpole-tiny-bert\/revision\/main/);

    const saved = process.env.TADPOLE_CACHE;
    process.env.TADPOLE_CACHE = cache;
    try {
      const e = await createOnnxEmbedder({ modelDir: 'test/tadpole-tiny-bert', device: 'cpu', log: () => {} });
      expect(e.fingerprint.modelSha256).toBe('3cc1896e353efac8dbeedd437c19939421d2f119436b3f406e638b7196181873');
      expect(e.fingerprint.model).toBe('test--tadpole-tiny-bert');
      await e.dispose();
    } finally {
      if (saved === undefined) delete process.env.TADPOLE_CACHE;
      else process.env.TADPOLE_CACHE = saved;
    }
  });

  it('a second pull re-uses checked files and downloads nothing', async () => {
    await run(['pull', 'test/tadpole-tiny-bert']);
    requests.length = 0;
    const r = await run(['pull', 'test/tadpole-tiny-bert']);
    expect(r.code).toBe(0);
    expect(requests.filter((q) => q.url.includes('/resolve/'))).toEqual([]);
    expect(r.err).toMatch(/onnx\/model\.onnx: cached/);
  });

  it('resumes an interrupted download with an HTTP Range request', async () => {
    mkdirSync(join(cachedTiny(), 'onnx'), { recursive: true });
    writeFileSync(join(cachedTiny(), 'onnx/model.onnx.part'), readFileSync(tinyOnnx).subarray(0, 5_000_000));
    const r = await run(['pull', 'test/tadpole-tiny-bert']);
    expect(r.code).toBe(0);
    expect(requests.find((q) => q.url.endsWith('/onnx/model.onnx'))?.range).toBe('bytes=5000000-');
    expect(r.err).toMatch(/onnx\/model\.onnx: resumed/);
    expect(readFileSync(join(cachedTiny(), 'onnx/model.onnx')).equals(readFileSync(tinyOnnx))).toBe(true);
    expect(existsSync(join(cachedTiny(), 'onnx/model.onnx.part'))).toBe(false);
  });

  it('a corrupt .part fails its check and is fetched again from the start', async () => {
    mkdirSync(join(cachedTiny(), 'onnx'), { recursive: true });
    writeFileSync(join(cachedTiny(), 'onnx/model.onnx.part'), Buffer.alloc(1000, 7));
    const r = await run(['pull', 'test/tadpole-tiny-bert']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(cachedTiny(), 'onnx/model.onnx')).equals(readFileSync(tinyOnnx))).toBe(true);
  });

  it('a file whose hash does not match is removed and named in the error', async () => {
    lies.set('vocab.txt', '0'.repeat(40));
    await expect(run(['pull', 'test/tadpole-tiny-bert'])).rejects.toMatchObject({ code: 'TADPOLE_IO', message: expect.stringMatching(/vocab\.txt failed its check: git blob id/) });
    expect(existsSync(join(cachedTiny(), 'vocab.txt'))).toBe(false);
    expect(existsSync(join(cachedTiny(), 'vocab.txt.part'))).toBe(false);
  });

  it('an LFS file with a wrong sha256 is rejected', async () => {
    lies.set('onnx/model.onnx', 'f'.repeat(64));
    await expect(run(['pull', 'test/tadpole-tiny-bert'])).rejects.toThrow(/onnx\/model\.onnx failed its check: sha256/);
  });

  it('--onnx-file picks the file; a missing one is named', async () => {
    const r = await run(['pull', 'test/all-MiniLM-L6-v2-ARCH-STANDIN-random-weights', '--onnx-file', 'onnx/model_quantized.onnx']);
    expect(r.code).toBe(0);
    expect(existsSync(join(cache, 'models', 'test--all-MiniLM-L6-v2-ARCH-STANDIN-random-weights', 'onnx/model_quantized.onnx'))).toBe(true);
    await expect(run(['pull', 'test/tadpole-tiny-bert', '--onnx-file', 'onnx/nope.onnx'])).rejects.toThrow(/has no file "onnx\/nope\.onnx"/);
  });

  it('a repo without any onnx file says so', async () => {
    await expect(run(['pull', 'test/all-MiniLM-L6-v2'])).rejects.toMatchObject({ code: 'TADPOLE_MODEL', message: expect.stringMatching(/no \.onnx file at all/) });
  });

  it('an unknown repo reports the HTTP status', async () => {
    await expect(run(['pull', 'test/no-such-model'])).rejects.toThrow(/HTTP 404 \(check the repo name and --revision\)/);
  });

  it('an unreachable endpoint names the override variable', async () => {
    await expect(run(['pull', 'test/tadpole-tiny-bert'], { TADPOLE_HF_ENDPOINT: 'http://127.0.0.1:9' })).rejects.toThrow(/cannot reach .*TADPOLE_HF_ENDPOINT/);
  });

  it('HF_ENDPOINT is used when TADPOLE_HF_ENDPOINT is not set', async () => {
    const cli = io({});
    delete cli.env.TADPOLE_HF_ENDPOINT;
    cli.env.HF_ENDPOINT = endpoint;
    const { parseArgs } = await import('../../src/cli/args.js');
    expect(await command.run(parseArgs(command.spec, ['pull', 'test/tadpole-tiny-bert']), cli)).toBe(0);
  });
});

describe('tadpole model list and help', () => {
  it('list shows pulled models with revision and onnx file', async () => {
    expect((await run(['list'])).out).toMatch(/no cached models/);
    await run(['pull', 'test/tadpole-tiny-bert']);
    const r = await run(['list']);
    expect(r.out).toMatch(/^MODEL\s+REVISION\s+SIZE\s+ONNX\s+STATE\n/);
    expect(r.out).toMatch(/test\/tadpole-tiny-bert\s+main\s+20\.\d MB\s+onnx\/model\.onnx\s+ok/);
    const j = JSON.parse((await run(['list', '--json'])).out) as { repo: string }[];
    expect(j.map((m) => m.repo)).toEqual(['test/tadpole-tiny-bert']);
  });

  it('help names both subcommands; a bad subcommand is a usage error', async () => {
    const h = helpText(command.spec);
    expect(h).toMatch(/pull <owner\/name>/);
    expect(h).toMatch(/list/);
    expect((await run(['help'])).out).toBe(h);
    await expect(run(['push'])).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
    await expect(run(['pull'])).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
  });
});
