import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, runMain, tempDir } from '../../helpers/cli.js';
import { RangeServer } from './servers.js';

// Pass 2 over a remote object fetches only the spans that hold documents with a kept segment
// (src/passes/kept-spans.ts), and its output is still the bytes the same file gives on disk.
// The HTTP server's request log shows what each pass fetched. The gap under which spans are
// joined is lowered, so this small corpus (a third of the built-in mix, about 600 KB) is
// fetched as many spans. The runs on the local files are the references: they run in this
// process (runMain); what reads the object is the CLI.

let tmp: { dir: string; cleanup: () => void };
const http = new RangeServer();
let base: string;
let model: string;
let jsonl: string;
let text: string;
const GAP = { TADPOLE_REMOTE_GAP_BYTES: '4096' };

async function filter(input: string, extra: string[], env: NodeJS.ProcessEnv = GAP): Promise<Awaited<ReturnType<typeof runCli>>> {
  return runCli(['filter', '-m', model, '-q', ...extra, input], { env });
}

async function filterHere(input: string, extra: string[]): Promise<Awaited<ReturnType<typeof runMain>>> {
  return runMain(['filter', '-m', model, '-q', ...extra, input]);
}

/** The bytes pass 2 asked for: every GET after pass 1's one read of the whole object (one thread). */
function pass2Bytes(path: string, size: number): { bytes: number; requests: number } {
  const mine = http.log.filter((r) => r.path === path);
  const whole = mine.findIndex((r) => r.start === 0 && r.end === size);
  expect(whole).toBeGreaterThanOrEqual(0);
  const after = mine.slice(whole + 1);
  return { bytes: after.reduce((n, r) => n + r.end - r.start, 0), requests: after.length };
}

function withoutSeconds(statsPath: string): unknown {
  const s = JSON.parse(readFileSync(statsPath, 'utf8')) as Record<string, unknown>;
  delete s.seconds;
  return s;
}

beforeAll(async () => {
  tmp = tempDir('tadpole-pass2-');
  const lines = gunzipSync(readFileSync(join(ROOT, 'corpora/builtin/mix.jsonl.gz'))).toString('utf8').split('\n').filter((l) => l !== '').slice(0, 350);
  const plain = Buffer.from(lines.join('\n') + '\n');
  jsonl = join(tmp.dir, 'mix.jsonl');
  writeFileSync(jsonl, plain);
  // The same texts as paragraphs of plain text: documents cut at blank lines.
  const paras = lines
    .map((l) => (JSON.parse(l) as { text: string }).text.replace(/\n\s*\n/g, '\n').trim())
    .filter((t) => t !== '');
  text = join(tmp.dir, 'mix.txt');
  writeFileSync(text, paras.join('\n\n') + '\n');
  base = await http.start();
  http.objects.set('/mix.jsonl', plain);
  http.objects.set('/mix.txt', readFileSync(text));
  model = join(tmp.dir, 'model.json');
  const bio = gunzipSync(readFileSync(join(ROOT, 'corpora/builtin/task-bio.txt.gz'))).toString('utf8');
  const task = join(tmp.dir, 'task.txt');
  writeFileSync(task, bio.slice(0, bio.indexOf('\n\n', 60_000)) + '\n');
  const fit = await runMain(['fit', '--task', task, '--general', jsonl, '-q', '-o', model]);
  expect(fit.code, fit.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await http.stop();
  tmp.cleanup();
});

describe('pass 2 fetches only the documents with kept segments', () => {
  it('a JSONL object at --keep 0.02: the same bytes and stats as the file, fewer bytes fetched than the object holds', async () => {
    const localStats = join(tmp.dir, 'local.json');
    const local = await filterHere(jsonl, ['--keep', '0.02', '--workers', '1', '--stats', localStats]);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout.length).toBeGreaterThan(1000);
    const size = http.objects.get('/mix.jsonl')!.length;
    const remoteStats = join(tmp.dir, 'remote.json');
    const remote = await filter(`${base}/mix.jsonl`, ['--keep', '0.02', '--workers', '1', '--stats', remoteStats]);
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stderr).toBe(local.stderr);
    expect(remote.stdout.equals(local.stdout)).toBe(true);
    expect(withoutSeconds(remoteStats)).toEqual(withoutSeconds(localStats));
    const fetched = pass2Bytes('/mix.jsonl', size);
    expect(fetched.requests).toBeGreaterThan(1);
    expect(fetched.bytes).toBeLessThan(size / 2);
  }, 120_000);

  it('in two threads, at --keep 0.2, and with the default gap (one span): the same bytes', async () => {
    for (const [keep, workers, env] of [
      ['0.02', '2', GAP],
      ['0.2', '1', GAP],
      ['0.2', '2', {}],
    ] as const) {
      const local = await filterHere(jsonl, ['--keep', keep, '--workers', workers]);
      expect(local.code, local.stderr).toBe(0);
      const remote = await filter(`${base}/mix.jsonl`, ['--keep', keep, '--workers', workers], env);
      expect(remote.code, remote.stderr).toBe(0);
      expect(remote.stdout.equals(local.stdout), `--keep ${keep} --workers ${workers}`).toBe(true);
    }
  }, 180_000);

  it('plain text: paragraphs by spans; written with their lines (--out-format jsonl), read whole; both the same bytes', async () => {
    const size = http.objects.get('/mix.txt')!.length;
    for (const out of ['text', 'jsonl']) {
      const local = await filterHere(text, ['--keep', '0.02', '--workers', '1', '--out-format', out]);
      expect(local.code, local.stderr).toBe(0);
      expect(local.stdout.length).toBeGreaterThan(1000);
      http.log.length = 0;
      const remote = await filter(`${base}/mix.txt`, ['--keep', '0.02', '--workers', '1', '--out-format', out]);
      expect(remote.code, remote.stderr).toBe(0);
      // A plain-text run names its file: the object's URL where the local run names the path.
      const same = remote.stdout.toString('utf8').replaceAll(JSON.stringify(`${base}/mix.txt`), JSON.stringify(text));
      expect(same === local.stdout.toString('utf8'), `--out-format ${out}`).toBe(true);
      const fetched = pass2Bytes('/mix.txt', size);
      if (out === 'text') expect(fetched.bytes).toBeLessThan(size / 2);
      else expect(fetched).toEqual({ bytes: size, requests: 1 });
    }
  }, 180_000);
});
