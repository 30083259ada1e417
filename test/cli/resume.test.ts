import { appendFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { SPILL_HEADER, SPILL_RECORD } from '../../src/cut/spill.js';
import { Ledger } from '../../src/run/ledger.js';
import { runMain } from '../helpers/cli.js';
import { cli, cliAsync, fitModel, newsJsonl, sleep, tempDir } from '../run/helpers.js';

// ~0.5 MB of real news text (some 5,000 sentences: over a dozen batches); small batches and
// checkpoints after every batch, so a kill anywhere lands between many checkpoints.
let dir: string;
let model: string;
let input: string;
let reference: Buffer;
const RUN = ['--batch-sentences', '300', '--checkpoint-seconds', '0', '-q'];

beforeAll(async () => {
  dir = tempDir();
  model = fitModel(dir);
  input = join(dir, 'news.jsonl');
  writeFileSync(input, newsJsonl(500_000));
  const r = await runMain(['filter', '-m', model, input, '-q']);
  expect(r.code).toBe(0);
  reference = r.stdout;
  expect(reference.length).toBeGreaterThan(70_000);
});

function filterArgs(runDir: string, out: string, extra: string[] = []): string[] {
  return ['filter', '-m', model, input, '--run-dir', runDir, '-o', out, ...RUN, ...extra];
}

/** The identity the run in runDir recorded in its ledger. */
function recordedIdentity(runDir: string): Record<string, unknown> {
  const ledger = Ledger.open(runDir);
  try {
    return JSON.parse(ledger.meta('identity')!) as Record<string, unknown>;
  } finally {
    ledger.close();
  }
}

/** Segments written to the spill after the last checkpoint: the work a resume redoes. */
function lostSegments(runDir: string): number | undefined {
  const spill = join(runDir, 'shards', '0-of-1', 'segments.spill');
  if (!existsSync(spill)) return undefined;
  const ledger = Ledger.open(runDir);
  try {
    const cp = ledger.checkpoint<{ spillRecords: number }>(0, 1, 'score');
    const have = (statSync(spill).size - SPILL_HEADER) / SPILL_RECORD;
    return have - (cp?.state.spillRecords ?? 0);
  } finally {
    ledger.close();
  }
}

/**
 * One run killed with -9 at score:1, made once: the refusals below read its run directory and
 * change nothing in it (the last one adds a lock of its own), so they share it.
 */
let killedOnce: { runDir: string; out: string } | undefined;
function killedAtScore1(): { runDir: string; out: string } {
  if (killedOnce) return killedOnce;
  const runDir = join(dir, 'run-refusals');
  const out = join(dir, 'out-refusals.jsonl');
  expect(cli(filterArgs(runDir, out), { env: { TADPOLE_TEST_CRASH_AT: 'score:1' } }).signal).toBe('SIGKILL');
  return (killedOnce = { runDir, out });
}

describe('filter --run-dir --resume after kill -9', () => {
  it.each(['score:1', 'score:4', 'cut', 'emit:1'])('SIGKILL at %s, then --resume: output byte-identical to one uninterrupted run', async (point) => {
    const runDir = join(dir, `run-${point.replace(':', '-')}`);
    const out = join(dir, `out-${point.replace(':', '-')}.jsonl`);
    const killed = cli(filterArgs(runDir, out), { env: { TADPOLE_TEST_CRASH_AT: point } });
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false); // nothing that looks complete
    const resumed = await runMain(filterArgs(runDir, out, ['--resume']));
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(readFileSync(out).equals(reference)).toBe(true);
  });

  it('SIGKILL in the middle of a three-batch emit, then --resume: the emit continues from its place in the doc index, identical bytes', async () => {
    // About 2.6 MB of BBC documents: the reader's batches end at 1 MB, so emit checkpoints twice before its end.
    const big = join(dir, 'news-big.jsonl');
    writeFileSync(big, newsJsonl(2_600_000));
    const want = await runMain(['filter', '-m', model, big, '-q']);
    expect(want.code).toBe(0);
    const runDir = join(dir, 'run-emit-mid');
    const out = join(dir, 'out-emit-mid.jsonl');
    const args = ['filter', '-m', model, big, '--run-dir', runDir, '-o', out, ...RUN];
    const killed = cli(args, { env: { TADPOLE_TEST_CRASH_AT: 'emit:2' } });
    expect(killed.signal).toBe('SIGKILL');
    const ledger = Ledger.open(runDir);
    const at = ledger.checkpoint<{ docIndexOffset?: number; docs: number }>(0, 1, 'emit')?.state;
    ledger.close();
    const docs = readFileSync(big, 'utf8').split('\n').length - 1;
    expect(at?.docs).toBeGreaterThan(0);
    expect(at?.docs).toBeLessThan(docs);
    expect(at?.docIndexOffset).toBeGreaterThan(0);
    const resumed = await runMain([...args, '--resume']);
    expect(resumed.code).toBe(0);
    expect(readFileSync(out).equals(want.stdout)).toBe(true);
  });

  it('SIGKILL from outside at random moments, twice in one run: resumes to identical bytes', async () => {
    const rng = new Rng(7);
    const runDir = join(dir, 'run-random');
    const out = join(dir, 'out-random.jsonl');
    const lost: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const args = filterArgs(runDir, out, attempt > 0 ? ['--resume'] : []);
      const { child, done } = cliAsync(args);
      if (attempt < 2) {
        await sleep(400 + rng.int(1200));
        child.kill('SIGKILL');
      }
      const r = await done;
      if (r.signal === 'SIGKILL') {
        const l = lostSegments(runDir);
        if (l !== undefined) lost.push(l);
      } else expect(r.code).toBe(0);
    }
    console.log(`random kills: segments redone per resume: ${JSON.stringify(lost)}`);
    expect(readFileSync(out).equals(reference)).toBe(true);
  });

  it('a changed input is refused on --resume, naming the file', async () => {
    const copy = join(dir, 'changing.jsonl');
    writeFileSync(copy, readFileSync(input));
    const runDir = join(dir, 'run-changed');
    const out = join(dir, 'out-changed.jsonl');
    const args = ['filter', '-m', model, copy, '--run-dir', runDir, '-o', out, ...RUN];
    expect(cli(args, { env: { TADPOLE_TEST_CRASH_AT: 'score:2' } }).signal).toBe('SIGKILL');
    appendFileSync(copy, '{"text": "One more document. It was not there before."}\n');
    const r = await runMain([...args, '--resume']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/inputs changed.*changing\.jsonl changed size/);
    expect(existsSync(out)).toBe(false);
  });

  it('a different model is refused on --resume', async () => {
    const { runDir, out } = killedAtScore1();
    const other = join(dir, 'other-model.json');
    writeFileSync(other, readFileSync(model, 'utf8').replace(/\n$/, ' \n'));
    const r = await runMain(['filter', '-m', other, input, '--run-dir', runDir, '-o', out, ...RUN, '--resume']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/model file differs/);
  });

  it('a different --doc-context is refused on --resume: the spilled segment scores were made with the old one', async () => {
    const { runDir, out } = killedAtScore1();
    const r = await runMain(filterArgs(runDir, out, ['--resume', '--doc-context', '0']));
    expect(r.stderr).toMatch(/--doc-context was 15, now 0/);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--doc-context was 15, now 0/);
    expect(existsSync(out)).toBe(false);
  });

  it('--doc-context 0 is recorded as a run from before the option (no docContext in its identity) and resumes to the plain-mean output', async () => {
    const runDir = join(dir, 'run-doc-context-0');
    const out = join(dir, 'out-doc-context-0.jsonl');
    expect(cli(filterArgs(runDir, out, ['--doc-context', '0']), { env: { TADPOLE_TEST_CRASH_AT: 'score:2' } }).signal).toBe('SIGKILL');
    expect(recordedIdentity(runDir)).not.toHaveProperty('docContext');
    const refused = await runMain(filterArgs(runDir, out, ['--resume']));
    expect(refused.stderr).toMatch(/--doc-context was 0, now 15/);
    const resumed = await runMain(filterArgs(runDir, out, ['--resume', '--doc-context', '0']));
    expect(resumed.code, resumed.stderr).toBe(0);
    const plain = await runMain(['filter', '-m', model, input, '--doc-context', '0', '-q']);
    expect(readFileSync(out).equals(plain.stdout)).toBe(true);
    expect(plain.stdout.equals(reference)).toBe(false);
  });

  it('a run made when sentences were the default (keep-by sentences in its identity) resumes with no --keep-by, by sentences; naming bytes is refused', async () => {
    const runDir = join(dir, 'run-by-sentences');
    const out = join(dir, 'out-by-sentences.jsonl');
    expect(cli(filterArgs(runDir, out, ['--keep-by', 'sentences']), { env: { TADPOLE_TEST_CRASH_AT: 'score:2' } }).signal).toBe('SIGKILL');
    expect(recordedIdentity(runDir).keepBy).toBe('sentences');
    const refused = await runMain(filterArgs(runDir, out, ['--resume', '--keep-by', 'bytes']));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--keep-by was sentences, now bytes/);
    const resumed = await runMain(filterArgs(runDir, out, ['--resume']));
    expect(resumed.code, resumed.stderr).toBe(0);
    const bySentences = await runMain(['filter', '-m', model, input, '--keep-by', 'sentences', '-q']);
    expect(readFileSync(out).equals(bySentences.stdout)).toBe(true);
    expect(bySentences.stdout.equals(reference)).toBe(false);
  });

  it('a second process on the same run directory is refused while the first holds it', () => {
    const { runDir, out } = killedAtScore1();
    // The killed process's lock is stale; a live holder (this test process) is not.
    writeFileSync(join(runDir, 'lock'), `${process.pid} ${hostname()}\n`);
    const r = cli(filterArgs(runDir, out, ['--resume']));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`in use by process ${process.pid}`));
  });

  it('a fresh filter on a directory holding a run asks for --resume; runs DIR prints the ledger', async () => {
    const runDir = join(dir, 'run-score-4');
    const r = await runMain(filterArgs(runDir, join(dir, 'again.jsonl')));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/add --resume/);
    const j = await runMain(['runs', runDir, '--json']);
    expect(j.code).toBe(0);
    const report = JSON.parse(j.stdout.toString()) as { meta: { status: string }; shards: Array<{ resumes: number; checkpoints: number }>; inputs: unknown[] };
    expect(report.meta.status).toBe('done');
    expect(report.shards[0]!.resumes).toBeGreaterThanOrEqual(1);
    expect(report.shards[0]!.checkpoints).toBeGreaterThan(4);
    expect(report.inputs).toHaveLength(1);
    const text = await runMain(['runs', runDir]);
    expect(text.stdout.toString()).toMatch(/shard\s+stage\s+status/);
    expect(readdirSync(runDir)).toContain('ledger.sqlite');
  });
});
