import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { ROOT, runMain, tempDir } from '../helpers/cli.js';

// --keep as an amount: bytes (5MB) and tokens (--keep-by tokens --tokenizer), in every mode
// that cuts, on the built-in real text; the tokenizer is a small WordPiece (test/fixtures/tokenizer).

const tmp = tempDir();
const f = (name: string) => join(tmp.dir, name);
// About 420 KB of JSONL: over three times the 100KB cut below, and small enough for every mode.
const mix = builtinMix(44);

/** A WordPiece tokenizer.json with a tiny vocabulary: a few words, every letter and digit, punctuation (the docs' runs use it too). */
const tokenizerPath = join(ROOT, 'test', 'fixtures', 'tokenizer', 'tokenizer.json');
const tokenizerJson = JSON.parse(readFileSync(tokenizerPath, 'utf8')) as object;
const tokenizer = new Tokenizer(tokenizerJson, {});
const countTokens = (text: string) => tokenizer.tokenize(text).length;

interface Stats {
  keep: number;
  keepBy: string;
  bytes: { total: number; kept: number };
  tokens?: { total: number; kept: number };
}

let segments: string[] = [];
/** countTokens of each segment, counted once: the tokenizer here is slow, and several tests need them. */
let segmentTokens: number[] = [];

beforeAll(async () => {
  writeFileSync(f('task.txt'), builtinTaskSentences(400).join('\n') + '\n');
  writeFileSync(f('mix.jsonl'), mix.map((d) => JSON.stringify(d)).join('\n') + '\n');
  writeFileSync(f('tokenizer.json'), JSON.stringify(tokenizerJson));
  // DSIR scores fast; the cuts by size are the same code for every method.
  expect((await runMain(['fit', '-q', '--task', f('task.txt'), '--method', 'dsir', '--general', f('mix.jsonl'), '-o', f('model.json')])).code).toBe(0);
  const seg = await runMain(['score', '-m', f('model.json'), '--segments', f('mix.jsonl')]);
  expect(seg.code).toBe(0);
  segments = seg.stdout.toString().trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text);
  segmentTokens = segments.map(countTokens);
});
afterAll(() => tmp.cleanup());

const stats = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Stats;
const keptTexts = (out: Buffer | string) => out.toString().trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text);

/** The concatenated parts of a sharded run: score each shard, cut, emit each shard. */
async function sharded(runDir: string, score: string[], cut: string[]): Promise<Buffer> {
  for (const i of [0, 1]) expect((await runMain(['score', '-q', '-m', f('model.json'), '--run-dir', runDir, '--shard', `${i}/2`, ...score, f('mix.jsonl')])).code).toBe(0);
  const c = await runMain(['cut', '-q', '--run-dir', runDir, ...cut, '--stats', join(runDir, 'cut-stats.json')]);
  expect(c.stderr).toBe('');
  expect(c.code).toBe(0);
  for (const i of [0, 1]) expect((await runMain(['emit', '-q', '--run-dir', runDir, '--shard', `${i}/2`])).code).toBe(0);
  const parts = readdirSync(join(runDir, 'parts')).filter((p) => p.startsWith('part-')).sort();
  return Buffer.concat(parts.map((p) => readFileSync(join(runDir, 'parts', p))));
}

describe('--keep as a size of text', () => {
  it('--keep 100KB keeps 100,000 bytes to within one segment: one stream, two threads on input ranges, a run directory and two shards, the same bytes', async () => {
    // The largest segment's bytes, its sentences' line breaks counted (score prints them joined).
    const largest = Math.max(...segments.map((t) => Buffer.byteLength(t) + 15));
    const modes: Array<[string, string[]]> = [
      ['one stream', []],
      ['threads', ['--workers', '2', '--input-ranges', 'on']],
      ['run dir', ['--run-dir', f('run-bytes')]],
    ];
    const outs: Buffer[] = [];
    for (const [name, extra] of modes) {
      const out = f(`kept-${outs.length}.jsonl`);
      const r = await runMain(['filter', '-m', f('model.json'), '--keep', '100KB', f('mix.jsonl'), '-o', out, '--stats', `${out}.stats`, ...extra]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      const s = stats(`${out}.stats`);
      expect(s.keep).toBe(100_000);
      expect(Math.abs(s.bytes.kept - 100_000), name).toBeLessThanOrEqual(largest);
      expect(s.bytes.total).toBeGreaterThan(300_000);
      expect(s.tokens).toBeUndefined();
      outs.push(readFileSync(out));
    }
    outs.push(await sharded(f('shards-bytes'), [], ['--keep', '100KB']));
    const cut = JSON.parse(readFileSync(f('shards-bytes/cut-stats.json'), 'utf8')) as { keptWeight: number; keepBy: string };
    expect(cut.keepBy).toBe('bytes');
    expect(Math.abs(cut.keptWeight - 100_000)).toBeLessThanOrEqual(largest);
    for (const o of outs.slice(1)) expect(o.equals(outs[0]!)).toBe(true);
    expect(keptTexts(outs[0]!).length).toBeGreaterThan(3);
  });

  it('units: KB is 1000 bytes and KiB 1024; the same size written either way is the same cut', async () => {
    const a = await runMain(['filter', '-q', '-m', f('model.json'), '--keep', '100KiB', f('mix.jsonl'), '--stats', f('kib.json')]);
    const b = await runMain(['filter', '-q', '-m', f('model.json'), '--keep', '102.4KB', f('mix.jsonl'), '--stats', f('kb.json')]);
    expect(a.code).toBe(0);
    expect(stats(f('kib.json')).keep).toBe(102_400);
    expect(stats(f('kb.json')).keep).toBe(102_400);
    expect(a.stdout.equals(b.stdout)).toBe(true);
  });

  it('a size larger than the corpus keeps everything, with one warning line', async () => {
    const r = await runMain(['filter', '-m', f('model.json'), '--keep', '5MB', f('mix.jsonl'), '--stats', f('all.json')]);
    expect(r.code).toBe(0);
    const s = stats(f('all.json'));
    expect(s.bytes.kept).toBe(s.bytes.total);
    expect(r.stderr.split('\n').filter((l) => l.includes('warning: --keep asked for 5,000,000 bytes, more than the corpus holds'))).toHaveLength(1);
  });
});

describe('--keep-by tokens --tokenizer FILE', () => {
  it('--keep 20000 keeps 20,000 tokens (counted here by the same tokenizer) to within one segment, in every mode, the same bytes', async () => {
    const largest = Math.max(...segmentTokens);
    const totalTokens = segmentTokens.reduce((a, n) => a + n, 0);
    const args = ['--keep-by', 'tokens', '--tokenizer', f('tokenizer.json'), '--keep', '20000'];
    const modes: Array<[string, string[]]> = [
      ['one stream', []],
      ['threads', ['--workers', '2', '--input-ranges', 'on']],
      ['run dir', ['--run-dir', f('run-tokens')]],
    ];
    const outs: Buffer[] = [];
    for (const [name, extra] of modes) {
      const out = f(`tokens-${outs.length}.jsonl`);
      const r = await runMain(['filter', '-m', f('model.json'), ...args, f('mix.jsonl'), '-o', out, '--stats', `${out}.stats`, ...extra]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toMatch(/% of the tokens \(\d+\/\d+\)/);
      const s = stats(`${out}.stats`);
      expect(s.keepBy).toBe('tokens');
      // Sentences split at whitespace, so the kept runs' tokens are the kept segments' tokens.
      const counted = keptTexts(readFileSync(out)).reduce((a, t) => a + countTokens(t), 0);
      expect(s.tokens?.kept, name).toBe(counted);
      expect(s.tokens?.total).toBe(totalTokens);
      expect(Math.abs(counted - 20_000), name).toBeLessThanOrEqual(largest);
      outs.push(readFileSync(out));
    }
    outs.push(await sharded(f('shards-tokens'), ['--tokenizer', f('tokenizer.json')], ['--keep-by', 'tokens', '--keep', '20K']));
    for (const o of outs.slice(1)) expect(o.equals(outs[0]!)).toBe(true);
  });

  it('--keep 0.1 by tokens is a tenth of the tokens; a tokenizer with --keep-by bytes adds the kept tokens to --stats and leaves the output as it was', async () => {
    const share = await runMain(['filter', '-q', '-m', f('model.json'), '--keep-by', 'tokens', '--tokenizer', f('tokenizer.json'), '--keep', '0.1', f('mix.jsonl'), '--stats', f('share.json')]);
    expect(share.code).toBe(0);
    const s = stats(f('share.json'));
    expect(Math.abs(s.tokens!.kept - 0.1 * s.tokens!.total)).toBeLessThanOrEqual(Math.max(...segmentTokens));
    const plain = await runMain(['filter', '-q', '-m', f('model.json'), f('mix.jsonl')]);
    const counted = await runMain(['filter', '-q', '-m', f('model.json'), '--tokenizer', f('tokenizer.json'), f('mix.jsonl'), '--stats', f('counted.json')]);
    expect(counted.stdout.equals(plain.stdout)).toBe(true);
    expect(stats(f('counted.json')).tokens!.kept).toBe(keptTexts(counted.stdout).reduce((a, t) => a + countTokens(t), 0));
  });

  it('cut --keep-by tokens on a run scored without --tokenizer: exit 2, one line', async () => {
    const runDir = f('no-tokens');
    for (const i of [0, 1]) expect((await runMain(['score', '-q', '-m', f('model.json'), '--run-dir', runDir, '--shard', `${i}/2`, f('mix.jsonl')])).code).toBe(0);
    const r = await runMain(['cut', '--run-dir', runDir, '--keep-by', 'tokens', '--keep', '1000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tadpole cut: error: --keep-by tokens: this run counted no tokens; score it with --tokenizer FILE/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('refused, one line, nothing written', () => {
  it.each([
    [['--keep', '5XB'], 2, /--keep 5XB: unknown unit "XB"/],
    [['--keep', '-1MB'], 2, /--keep -1MB: --keep must be between 0 and 1/],
    [['--keep', '20'], 2, /--keep 20: --keep must be between 0 and 1 \(a share\) or a size with its unit/],
    [['--keep', '2B'], 2, /--keep 2B: a count \(B is billions\) is for --keep-by tokens or sentences/],
    [['--keep', '5MB', '--keep-by', 'tokens', '--tokenizer', 'TOKENIZER'], 2, /--keep 5MB: a size in bytes keeps text by its bytes/],
    [['--keep-by', 'tokens', '--keep', '2e9'], 2, /--keep-by tokens needs --tokenizer FILE/],
    [['--keep-by', 'tokens', '--keep', '2e9', '--tokenizer', 'DAMAGED'], 4, /cannot load the tokenizer .*damaged\.json: not JSON/],
    [['--keep-by', 'tokens', '--keep', '2e9', '--tokenizer', 'NOVOCAB'], 4, /cannot load the tokenizer .*novocab\.json: no "model" with a "vocab"/],
    [['--keep-by', 'tokens', '--keep', '2e9', '--tokenizer', 'MISSING'], 4, /cannot load the tokenizer .*missing\.json: no such file/],
  ])('filter %j: exit %i', async (extra, code, message) => {
    writeFileSync(f('damaged.json'), JSON.stringify(tokenizerJson).slice(0, 200));
    writeFileSync(f('novocab.json'), JSON.stringify({ version: '1.0', model: { type: 'WordPiece' } }));
    const swap: Record<string, string> = { TOKENIZER: f('tokenizer.json'), DAMAGED: f('damaged.json'), NOVOCAB: f('novocab.json'), MISSING: f('missing.json') };
    const out = f('refused.jsonl');
    const r = await runMain(['filter', '-m', f('model.json'), ...extra.map((a) => swap[a] ?? a), f('mix.jsonl'), '-o', out]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(tmp.dir).filter((n) => n.startsWith('refused') || n.startsWith('.refused'))).toEqual([]);
  });
});
