import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';
import { runCli, runMain, tempDir } from '../helpers/cli.js';

// A model fitted with the task alone is completed at filter time from a seeded sample of
// the corpus. The same bytes must give the same sample and the same kept text whether they
// come as one file, as a folder of files or through a pipe. The corpus is small (~3 MB), so
// the seek threshold is lowered to take the seek path, the one large corpora take.
const SEEK = { TADPOLE_SAMPLE_SEEK_MIN_BYTES: '100000' };

let tmp: { dir: string; cleanup: () => void };
let corpus: string;
let folder: string;
let model: string;
let text: Buffer;

function fingerprintOf(stderr: string): string {
  const m = /sample fingerprint ([0-9a-f]{16})/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!;
}

beforeAll(async () => {
  tmp = tempDir('tadpole-same-bytes-');
  const bio = corpusRecords('bio-ohsumed/docs.jsonl.gz', 1200).map((r) => JSON.stringify({ text: String(r.text), src: 'bio' }));
  const news = corpusRecords('news-bbc/docs.jsonl.gz', 600).map((r) => JSON.stringify({ text: String(r.text), src: 'news' }));
  const lines = bio.flatMap((b, i) => (i % 2 === 0 && news[i / 2] ? [b, news[i / 2]!] : [b]));
  text = Buffer.from(lines.join('\n') + '\n');
  corpus = join(tmp.dir, 'corpus.jsonl');
  writeFileSync(corpus, text);
  folder = join(tmp.dir, 'folder');
  mkdirSync(folder);
  const third = Math.ceil(lines.length / 3);
  for (let k = 0; k < 3; k++) writeFileSync(join(folder, `part-${k}.jsonl`), lines.slice(k * third, (k + 1) * third).join('\n') + '\n');
  const task = join(tmp.dir, 'task.txt');
  writeFileSync(task, chemprotSentences(600).join('\n\n') + '\n');
  model = join(tmp.dir, 'dsir.json');
  const fit = await runMain(['fit', '--task', task, '--method', 'dsir', '--general-sample', '3000', '--seed', '3', '-o', model]);
  expect(fit.code, fit.stderr).toBe(0);
}, 120_000);

afterAll(() => tmp.cleanup());

describe('filter with a model fitted on the task alone: same bytes, same result', () => {
  it('a file, a folder of its three parts and a pipe draw one sample (by seeking) and keep the same bytes', async () => {
    expect(text.length).toBeGreaterThan(2_000_000);
    const file = await runCli(['filter', '-m', model, corpus], { env: SEEK });
    expect(file.code, file.stderr).toBe(0);
    expect(file.stderr).toMatch(/completing dsir from the corpus: 3000 sentences .*seeking to \d+ random offsets/);
    const fp = fingerprintOf(file.stderr);
    expect(file.stdout.length).toBeGreaterThan(100_000);

    const dir = await runCli(['filter', '-m', model, folder], { env: SEEK });
    expect(dir.code, dir.stderr).toBe(0);
    expect(fingerprintOf(dir.stderr)).toBe(fp);
    expect(dir.stdout.equals(file.stdout)).toBe(true);

    const pipe = await runCli(['filter', '-m', model, '-'], { env: SEEK, input: text });
    expect(pipe.code, pipe.stderr).toBe(0);
    expect(pipe.stderr).toMatch(/seeking to \d+ random offsets/);
    expect(fingerprintOf(pipe.stderr)).toBe(fp);
    expect(pipe.stdout.equals(file.stdout)).toBe(true);
  }, 120_000);

  it('gzip: the same sample as the plain text where both are read whole; where plain text would be seeked, stderr says why it differs', async () => {
    const gz = join(tmp.dir, 'corpus.jsonl.gz');
    writeFileSync(gz, gzipSync(text));
    // Default threshold: a 3 MB input is read whole however it comes: one sample, one output.
    const plain = await runMain(['filter', '-m', model, corpus]);
    const packed = await runMain(['filter', '-m', model, gz]);
    const piped = await runMain(['filter', '-m', model, '-'], { input: gzipSync(text) });
    for (const r of [plain, packed, piped]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('one reservoir pass');
      expect(r.stderr).not.toContain('draws another sample');
      expect(fingerprintOf(r.stderr)).toBe(fingerprintOf(plain.stderr));
      expect(r.stdout.equals(plain.stdout)).toBe(true);
    }
    // Lowered threshold: the plain text is seeked, gzip cannot be, and stderr says so at the time.
    const seekGz = await runCli(['filter', '-m', model, gz], { env: SEEK });
    expect(seekGz.code, seekGz.stderr).toBe(0);
    expect(seekGz.stderr).toMatch(/corpus\.jsonl\.gz is gzip-compressed; the same text as plain files .* is sampled by seeking, which draws another sample/);
    const seekPipe = await runCli(['filter', '-m', model, '-'], { env: SEEK, input: gzipSync(text) });
    expect(seekPipe.stderr).toMatch(/because stdin is gzip-compressed; .*: decompress it before the pipe/);
  }, 180_000);
});
