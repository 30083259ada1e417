/**
 * Faults at the model and run edges: damaged model files are refused on load (exit 4, one
 * printable line), whether the file carries its payload checksum, a stale one, a recomputed
 * one (a crafted file) or none (a file from before checksums); a new cut removes the parts of
 * the earlier one; an input edited in place (same size) is refused by --resume and by emit.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { TadpoleError } from '../../src/core/errors.js';
import { fitModel as fitLibraryModel } from '../../src/model/fit.js';
import { readModel, writeModel, type ModelFile } from '../../src/model/file.js';
import { openScorer } from '../../src/model/open.js';
import { Ledger } from '../../src/run/ledger.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';
import { fileDigest, listFiles } from '../helpers/files.js';
import { runMain } from '../helpers/cli.js';
import { cli, fitModel, newsJsonl, tempDir } from '../run/helpers.js';

const shared = sharedDir();
/** One line, nothing a terminal would act on. */
const ONE_PRINTABLE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*\n?$/;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const f32 = (s: string) => {
  const b = Buffer.from(s, 'base64');
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};
const b64 = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
const parts = (m: Json) => m.selector.state.selector.state.parts as Json[];

/** Each kind of damage a model file is checked for: what it does to a parsed model file. */
const DAMAGE: Array<[string, 'contrast' | 'tadpole' | 'hash', (m: Json) => void]> = [
  ['contrast weights cut to half', 'contrast', (m) => {
    const w = f32(parts(m)[0]!.selector.state.weights);
    parts(m)[0]!.selector.state.weights = b64(w.subarray(0, w.length / 2));
  }],
  ['DSIR arrays cut to 25 floats', 'contrast', (m) => {
    for (const k of ['task', 'general']) parts(m)[1]!.selector.state[k] = b64(f32(parts(m)[1]!.selector.state[k]).subarray(0, 25));
  }],
  ['bad base64', 'contrast', (m) => {
    const s: string = parts(m)[0]!.selector.state.weights;
    parts(m)[0]!.selector.state.weights = s.slice(0, 1000) + '!*!*' + s.slice(1004);
  }],
  ['an odd length (a byte too many)', 'contrast', (m) => {
    const b = Buffer.from(parts(m)[0]!.selector.state.weights, 'base64');
    parts(m)[0]!.selector.state.weights = Buffer.concat([b, Buffer.from([1])]).toString('base64');
  }],
  ['an array where a string belongs', 'contrast', (m) => {
    parts(m)[0]!.selector.state.weights = [0.1, 0.2, 0.3];
  }],
  ['a mislabelled method', 'contrast', (m) => {
    m.method = 'dsir';
  }],
  ['dims = 1e9', 'tadpole', (m) => {
    m.selector.params.dims = 1e9;
    m.selector.state.representation.dims = 1e9;
    m.selector.state.detector.state.dims = 1e9;
  }],
  ['"fit" null', 'contrast', (m) => {
    m.fit = null;
  }],
  ['an ensemble part with std 0 (every score infinite)', 'contrast', (m) => {
    parts(m)[0]!.std = 0;
  }],
  ['embedder dims = 1e9', 'hash', (m) => {
    m.embedder.dims = 1e9;
    m.selector.state.representation.fingerprint.dims = 1e9;
    m.selector.state.detector.state.dims = 1e9;
  }],
];

let dir: string;
const models: Record<'contrast' | 'tadpole' | 'hash', string> = { contrast: '', tadpole: '', hash: '' };
let corpus: string;

beforeAll(async () => {
  if (!shared) return;
  dir = tempDir('tadpole-faults-model-');
  const task = chemprotSentences(300);
  const general = corpusRecords('news-bbc/docs.jsonl.gz', 60).flatMap((r) => String(r.text).split(/(?<=[.!?])\s+/)).filter((s) => s.length > 20);
  for (const method of ['contrast', 'tadpole'] as const) {
    models[method] = join(dir, `${method}.json`);
    writeModel(models[method], await fitLibraryModel({ method, task, general, seed: 0, options: {} }));
  }
  models.hash = join(dir, 'hash.json');
  writeModel(models.hash, await fitLibraryModel({ method: 'tadpole', embedder: { kind: 'hash' }, task, general, seed: 0, options: {} }));
  corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, Buffer.concat([newsJsonl(60_000), Buffer.from(task.slice(0, 150).map((text) => JSON.stringify({ text })).join('\n') + '\n')]));
}, 120_000);

/** Loads a model as every command does (read, then open its scorer); the error it throws, if any. */
async function loadError(path: string): Promise<unknown> {
  try {
    const scorer = await openScorer(readModel(path));
    await scorer.dispose();
    return undefined;
  } catch (err) {
    return err;
  }
}

function expectModelDamage(err: unknown, what: string): void {
  expect(err, what).toBeInstanceOf(TadpoleError);
  const e = err as TadpoleError;
  expect(e.exitCode, `${what}: ${e.message}`).toBe(4);
  expect(e.message, what).toMatch(ONE_PRINTABLE_LINE);
}

describe.skipIf(!shared)('damaged model files are refused on load (needs ../shared)', () => {
  it('fit writes payloadSha256; the intact file, and the same file re-indented, load', async () => {
    const m = JSON.parse(readFileSync(models.contrast, 'utf8')) as Json;
    expect(m.payloadSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await loadError(models.contrast)).toBeUndefined();
    const pretty = join(dir, 'pretty.json');
    writeFileSync(pretty, JSON.stringify(m, null, 2));
    expect(await loadError(pretty)).toBeUndefined();
  });

  it.each(DAMAGE)('%s: refused with its checksum stale, recomputed (a crafted file) or absent (an older file)', async (name, method, damage) => {
    const intact = readFileSync(models[method], 'utf8');
    const m = JSON.parse(intact) as Json;
    damage(m);
    const stale = join(dir, 'stale.json');
    writeFileSync(stale, JSON.stringify(m));
    const err = await loadError(stale);
    expectModelDamage(err, `${name}, stale checksum`);
    expect((err as Error).message).toMatch(/checksum/);
    const crafted = join(dir, 'crafted.json');
    writeModel(crafted, m as ModelFile);
    expectModelDamage(await loadError(crafted), `${name}, recomputed checksum`);
    const older = join(dir, 'older.json');
    delete m.payloadSha256;
    writeFileSync(older, JSON.stringify(m));
    expectModelDamage(await loadError(older), `${name}, no checksum`);
  });

  it('the CLI: exit 4 and one printable line for a cut model, dims = 1e9 and raw garbage with NUL bytes; no output left, inputs unchanged', () => {
    const cut = JSON.parse(readFileSync(models.contrast, 'utf8')) as Json;
    DAMAGE[0]![2](cut);
    delete cut.payloadSha256;
    const huge = JSON.parse(readFileSync(models.tadpole, 'utf8')) as Json;
    DAMAGE[6]![2](huge);
    const files = { cut: join(dir, 'cli-cut.json'), huge: join(dir, 'cli-huge.json'), garbage: join(dir, 'cli-garbage.json') };
    writeFileSync(files.cut, JSON.stringify(cut));
    writeModel(files.huge, huge as ModelFile);
    writeFileSync(files.garbage, Buffer.from('MZ\u0000\u0000\u0001\u0002garbage\u0000\u001b[31mred\n', 'latin1'));
    const before = fileDigest(corpus);
    for (const [name, path] of Object.entries(files)) {
      const out = join(dir, `kept-${name}.jsonl`);
      const r = cli(['filter', '-q', '-m', path, corpus, '-o', out]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(4);
      expect(r.stderr, name).toMatch(/^tadpole filter: error: /);
      expect(r.stderr, name).toMatch(ONE_PRINTABLE_LINE);
      expect(existsSync(out), name).toBe(false);
    }
    expect(cli(['model', 'show', files.garbage]).stderr).toContain('"MZ\\x00\\x00\\x01\\x02garb"');
    expect(fileDigest(corpus)).toBe(before);
    expect(listFiles(dir).filter((f) => /\.tmp-|\.partial$/.test(f))).toEqual([]);
  });
});

describe.skipIf(!shared)('runs: a re-cut and inputs edited in place (needs ../shared)', () => {
  let runModel: string;
  beforeAll(() => {
    if (shared) runModel = fitModel(tempDir('tadpole-faults-run-'));
  }, 60_000);

  const partsOf = (run: string) => (existsSync(join(run, 'parts')) ? readdirSync(join(run, 'parts')).sort() : []);

  it('a cut that differs from the earlier one removes its parts and marks the shards stale; cat parts/part-* is then one cut', async () => {
    const input = join(dir, 'recut.jsonl');
    writeFileSync(input, newsJsonl(120_000));
    const run = join(dir, 'recut-run');
    for (const i of [0, 1]) expect((await runMain(['score', '-q', '-m', runModel, '--run-dir', run, '--shard', `${i}/2`, input])).code).toBe(0);
    expect((await runMain(['cut', '-q', '--run-dir', run, '--keep', '0.2'])).code).toBe(0);
    for (const i of [0, 1]) expect((await runMain(['emit', '-q', '--run-dir', run, '--shard', `${i}/2`])).code).toBe(0);
    expect(partsOf(run)).toEqual(['part-00000-of-00002', 'part-00001-of-00002']);
    // The same cut again: the parts stay.
    expect((await runMain(['cut', '-q', '--run-dir', run, '--keep', '0.2'])).stderr).toBe('');
    expect(partsOf(run)).toHaveLength(2);
    const recut = await runMain(['cut', '-q', '--run-dir', run, '--keep', '0.1']);
    expect(recut.code).toBe(0);
    expect(recut.stderr).toMatch(/^tadpole: this cut replaces the earlier one \(keep 0\.2 by bytes\): removed 2 part\(s\) .*emit for every shard again\n$/);
    expect(partsOf(run)).toEqual([]);
    expect((await runMain(['emit', '-q', '--run-dir', run, '--shard', '0/2'])).code).toBe(0);
    const ledger = Ledger.open(run);
    try {
      expect(ledger.shards().map((s) => s.status)).toEqual(['emitted', 'stale']);
      expect(ledger.events().some((e) => e.kind === 'cut' && /^replaces the cut of keep 0\.2/.test(e.detail))).toBe(true);
    } finally {
      ledger.close();
    }
    expect((await runMain(['emit', '-q', '--run-dir', run, '--shard', '1/2'])).code).toBe(0);
    const single = await runMain(['filter', '-q', '-m', runModel, '--keep', '0.1', input]);
    expect(Buffer.concat(partsOf(run).map((p) => readFileSync(join(run, 'parts', p)))).equals(single.stdout)).toBe(true);
  });

  /** Flips one letter at `at` (or the next letter after it): same size, and the mtime does not matter. */
  const editInPlace = (file: string, at: number) => {
    const b = readFileSync(file);
    let i = at;
    while (!(b[i]! >= 0x61 && b[i]! <= 0x7a)) i++;
    b[i] = b[i] === 0x61 ? 0x62 : 0x61;
    writeFileSync(file, b);
  };

  it('--resume refuses an input edited in place inside what the run had already read (the first and last 64 KiB unchanged)', async () => {
    const input = join(dir, 'resume.jsonl');
    writeFileSync(input, newsJsonl(400_000));
    const run = join(dir, 'resume-run');
    const args = ['filter', '-q', '-m', runModel, '--batch-sentences', '300', '--checkpoint-seconds', '0', '--run-dir', run, input, '-o', join(dir, 'resume-kept.jsonl')];
    expect(cli(args, { env: { TADPOLE_TEST_CRASH_AT: 'score:6' } }).signal).toBe('SIGKILL');
    const ledger = Ledger.open(run);
    const at = ledger.checkpoint<{ at: { offset: number } }>(0, 1, 'score')!.state.at.offset;
    ledger.close();
    expect(at).toBeGreaterThan(80_000);
    editInPlace(input, 70_000);
    const r = await runMain([...args, '--resume']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^tadpole filter: error: the inputs changed since the run in .* read them: the bytes it read, up to .*resume\.jsonl byte \d+, differ now \(edited in place\); cannot resume: start a new --run-dir\n$/);
    expect(existsSync(join(dir, 'resume-kept.jsonl'))).toBe(false);
  });

  it('emit refuses a shard whose input was edited in place after it was scored, and leaves no partial part', async () => {
    const input = join(dir, 'emit.jsonl');
    writeFileSync(input, newsJsonl(400_000));
    const run = join(dir, 'emit-run');
    for (const i of [0, 1]) expect((await runMain(['score', '-q', '-m', runModel, '--run-dir', run, '--shard', `${i}/2`, input])).code).toBe(0);
    expect((await runMain(['cut', '-q', '--run-dir', run, '--keep', '0.2'])).code).toBe(0);
    editInPlace(input, 300_000);
    expect((await runMain(['emit', '-q', '--run-dir', run, '--shard', '0/2'])).code).toBe(0);
    const r = await runMain(['emit', '-q', '--run-dir', run, '--shard', '1/2']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/shard 1\/2 differ from what pass 1 read/);
    expect(partsOf(run)).toEqual(['part-00000-of-00002']);
  });
});
