import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/run/ledger.js';
import { chemprotSentences, corpusRecords } from '../helpers/corpora.js';
import { runMain } from '../helpers/cli.js';
import { cli, tempDir } from '../run/helpers.js';
import { rmSync } from 'node:fs';

// Real text: 160 OHSUMED abstracts (bio) and 160 BBC articles (news), interleaved, as JSONL
// with the source in a field (some 4,000 sentences: more than the 3,000 the completion samples);
// the task is ChemProt (bio) with no general sample at all.
let dir: string;
let corpus: string;
let model: string;
let reference: Buffer;
let refStats: { completion: { fingerprint: string; sentences: number; sampler: string; reused: boolean } };

function bioShare(out: Buffer): number {
  let bio = 0;
  let all = 0;
  for (const line of out.toString('utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { text: string; src: string };
    all += r.text.length;
    if (r.src === 'bio') bio += r.text.length;
  }
  return bio / all;
}

beforeAll(async () => {
  dir = tempDir('tadpole-complete-');
  const bio = corpusRecords('bio-ohsumed/docs.jsonl.gz', 160).map((r) => ({ text: String(r.text), src: 'bio' }));
  const news = corpusRecords('news-bbc/docs.jsonl.gz', 160).map((r) => ({ text: String(r.text), src: 'news' }));
  const docs = bio.flatMap((b, i) => [b, news[i]!]);
  corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const task = join(dir, 'task.txt');
  writeFileSync(task, chemprotSentences(800).join('\n\n') + '\n');
  model = join(dir, 'dsir.json');
  const fit = await runMain(['fit', '--task', task, '--method', 'dsir', '--general-sample', '3000', '--seed', '5', '-o', model]);
  expect(fit.code).toBe(0);
  expect(fit.stderr).toMatch(/no --general: stored 8\d\d task sentences for dsir; tadpole filter completes the model from a seeded sample of 3000 sentences/);
  const r = await runMain(['filter', '-m', model, corpus, '--stats', join(dir, 'stats.json')]);
  expect(r.code).toBe(0);
  reference = r.stdout;
  refStats = JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8'));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fit --task alone, then filter: the corpus is the background', () => {
  it('completes from a sample of the corpus, says so on stderr and in --stats, and keeps in-domain text', async () => {
    const c = refStats.completion;
    expect(c.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(c.sentences).toBe(3000);
    expect(c.sampler).toBe('reservoir'); // a small plain file: one exact pass
    expect(c.reused).toBe(false);
    const again = await runMain(['filter', '-m', model, corpus, '-o', join(dir, 'again.jsonl')]);
    expect(again.stderr).toContain(`completing dsir from the corpus: 3000 sentences`);
    expect(again.stderr).toMatch(/one reservoir pass over \d\.\d MB, as an input under 64 MB is read whole/);
    expect(again.stderr).toContain(`sample fingerprint ${c.fingerprint}`);
    expect(readFileSync(join(dir, 'again.jsonl')).equals(reference)).toBe(true); // seeded: same completion, same output
    // Half the corpus is bio; the kept 20% should be nearly all bio.
    expect(bioShare(reference)).toBeGreaterThan(0.9);
  });

  it('stdin: the sampling pass spools it; output and completion equal the file\'s', async () => {
    const r = await runMain(['filter', '-m', model, '--format', 'jsonl', '--stats', join(dir, 'stdin-stats.json'), '-'], { input: readFileSync(corpus) });
    expect(r.code).toBe(0);
    expect(r.stdout.equals(reference)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'stdin-stats.json'), 'utf8')).completion.fingerprint).toBe(refStats.completion.fingerprint);
  });

  it('--run-dir: a kill after scoring began, then --resume reuses the recorded completion; same bytes', async () => {
    const runDir = join(dir, 'run');
    const out = join(dir, 'run-out.jsonl');
    const args = ['filter', '-m', model, corpus, '--run-dir', runDir, '-o', out, '--batch-sentences', '300', '--checkpoint-seconds', '0'];
    const killed = cli(args, { env: { TADPOLE_TEST_CRASH_AT: 'score:2' } });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stderr).toContain(`sample fingerprint ${refStats.completion.fingerprint}`);
    const ledger = Ledger.open(runDir);
    expect(ledger.meta('completion')).toBe(refStats.completion.fingerprint);
    ledger.close();
    const resumed = await runMain([...args, '--resume', '--stats', join(dir, 'run-stats.json')]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`reusing the completion recorded in ${runDir} (sample fingerprint ${refStats.completion.fingerprint}`);
    expect(resumed.stderr).not.toContain('completing dsir');
    expect(readFileSync(out).equals(reference)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'run-stats.json'), 'utf8')).completion).toMatchObject({ fingerprint: refStats.completion.fingerprint, reused: true });
  });

  it('shards: each samples the whole input, all score with one completion; parts concatenate to the filter output', async () => {
    const runDir = join(dir, 'shards');
    const first = await runMain(['score', '-m', model, '--run-dir', runDir, '--shard', '0/3', corpus]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`sample fingerprint ${refStats.completion.fingerprint}`);
    for (const i of [1, 2]) {
      const r = await runMain(['score', '-m', model, '--run-dir', runDir, '--shard', `${i}/3`, corpus]);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`reusing the completion recorded in ${runDir} (sample fingerprint ${refStats.completion.fingerprint}`);
    }
    expect((await runMain(['cut', '-q', '--run-dir', runDir, '--keep', '0.2'])).code).toBe(0);
    for (const i of [0, 1, 2]) expect((await runMain(['emit', '-q', '--run-dir', runDir, '--shard', `${i}/3`])).code).toBe(0);
    expect((await runMain(['runs', runDir])).stdout.toString()).toContain(`completed from the inputs: sample fingerprint ${refStats.completion.fingerprint}`);
    const parts = readdirSync(join(runDir, 'parts')).filter((p) => p.startsWith('part-')).sort();
    expect(Buffer.concat(parts.map((p) => readFileSync(join(runDir, 'parts', p)))).equals(reference)).toBe(true);
  });

  it('refuses what cannot reuse one completion: --threshold, and --run-dir on stdin', async () => {
    const t = await runMain(['filter', '-m', model, '--threshold', '0', corpus]);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/fitted without --general.*refit with --general FILE/);
    const s = await runMain(['filter', '-m', model, '--format', 'jsonl', '--run-dir', join(dir, 'stdin-run'), '-'], { input: readFileSync(corpus) });
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/cannot sample from stdin: give the input as files, or refit with --general FILE/);
    const sc = await runMain(['score', '-m', model, '--format', 'jsonl', '-'], { input: readFileSync(corpus) });
    expect(sc.code).toBe(2);
    expect(sc.stderr).toMatch(/cannot read twice from stdin/);
  });

  it('score on files completes the same way (same fingerprint) before scoring', async () => {
    const r = await runMain(['score', '-m', model, corpus, '--no-text']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`sample fingerprint ${refStats.completion.fingerprint}`);
    expect(r.stdout.toString('utf8').split('\n').filter(Boolean).length).toBeGreaterThan(1000);
  });
});

describe('the default method without --general', () => {
  it('fit --general draws its sample with the same sampler and says how', async () => {
    const m = join(dir, 'general.json');
    const r = await runMain(['fit', '--task', join(dir, 'task.txt'), '--method', 'dsir', '--general', corpus, '--general-sample', '3000', '--seed', '5', '-o', m]);
    expect(r.code).toBe(0);
    // Same sampler, seed and size as the completion of the dsir model above: same sample.
    expect(r.stderr).toContain(`general sample: 3000 sentences (one pass, `);
    expect(r.stderr).toContain(`fingerprint ${refStats.completion.fingerprint}`);
    const f = await runMain(['filter', '-m', m, corpus]);
    expect(f.stderr).not.toContain('completing');
    expect(f.stdout.equals(reference)).toBe(true); // fitting now on that sample = completing later
  });

  it('fit --task alone, then filter keeps in-domain text (completed against the corpus)', async () => {
    const task = join(dir, 'task.txt');
    const m = join(dir, 'default.json');
    expect((await runMain(['fit', '--task', task, '--general-sample', '2000', '-o', m])).code).toBe(0);
    // -v: the completion's fit step by step (without it, one line says what was completed).
    const r = await runMain(['filter', '-m', m, corpus, '-v']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/completing contrast from the corpus: 2000 sentences/);
    expect(bioShare(r.stdout)).toBeGreaterThan(0.9);
    // The default self-trains by the sample's segments, a quarter of --keep per round (20%: 5% of the sample's bytes, whole segments).
    expect(r.stderr).toMatch(/self-training round 1: \d+ sample segments \(\d+ sentences, [56]\.\d% of the sample's bytes\) taken as task text/);
    const k = await runMain(['filter', '-m', m, corpus, '--keep', '0.4', '-v', '--stats', join(dir, 'keep40.json')]);
    expect(k.stderr).toMatch(/self-training round 1: \d+ sample segments \(\d+ sentences, 1[01]\.\d% of the sample's bytes\) taken as task text/);
    // fit --keep sizes the moves when the sample is given now; a detector that does not self-train refuses it.
    const k10 = join(dir, 'keep10.json');
    const f10 = await runMain(['fit', '--task', task, '--general', corpus, '--general-sample', '300', '--keep', '0.1', '-o', k10]);
    expect(f10.code, f10.stderr).toBe(0);
    expect(JSON.parse(readFileSync(k10, 'utf8')).selector.params).toMatchObject({ keep: 0.1, expand: 0.025 });
    const bad = await runMain(['fit', '--task', task, '--detector', 'iforest', '--keep', '0.1', '-o', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--keep sizes the self-training of the default fit \(contrast\) only; tadpole --detector iforest does not self-train/);
    // The task-only detector, named, fits at once and is not completed (on 200 of the task's
    // sentences: its fit grows with the task, and only whether it completes is checked).
    const local = join(dir, 'local.json');
    const task200 = join(dir, 'task-200.txt');
    writeFileSync(task200, readFileSync(task, 'utf8').split('\n\n').slice(0, 200).join('\n\n') + '\n');
    const fit = await runMain(['fit', '--task', task200, '--detector', 'task-knn', '-o', local]);
    expect(fit.stderr).not.toContain('no --general');
    expect((await runMain(['filter', '-m', local, corpus])).stderr).not.toContain('completing');
  }, 120_000);
});
