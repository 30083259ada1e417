import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import type { CliIO } from '../../src/cli/command.js';
import { command } from '../../src/cli/eval.js';
import { sharedDir } from '../../src/core/shared.js';
import { runCli as spawnCli } from '../helpers/cli.js';
import { testDir } from '../helpers/temp.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');

async function runCli(argv: string[], tty = false): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const io: CliIO = { stdin: new PassThrough(), stdout, stderr, stderrIsTTY: tty, env: {}, cwd: root };
  const code = await command.run(parseArgs(command.spec, argv), io);
  return { code, stdout: out, stderr: err };
}

describe('tadpole eval (CLI)', () => {
  it('without --spec is a usage error', async () => {
    await expect(runCli([])).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
  });
  it.skipIf(!sharedDir())('--json prints the methods and --report writes one HTML file; nothing on stderr without a TTY', async () => {
    const report = join(testDir('tadpole-cli-eval-'), 'report.html');
    const r = await runCli(['--spec', 'corpora/smoke-bio.json', '--json', '--methods', 'random,dsir', '--max-sentences', '1500', '--report', report]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as { methods: Array<{ name: string; kept_share: Record<string, number> }> };
    expect(j.methods.map((m) => m.name)).toEqual(['random', 'dsir']);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|<link|\ssrc=|\shref=/i);
  }, 30_000);
  it.skipIf(!sharedDir())('--max-sentences scores only a prefix of the mix', async () => {
    const r = await runCli(['--spec', 'corpora/smoke-bio.json', '--json', '--methods', 'random', '--max-sentences', '500']);
    const j = JSON.parse(r.stdout) as { methods: Array<{ total_sentences: number }> };
    const total = j.methods[0]!.total_sentences;
    expect(total).toBeGreaterThanOrEqual(500);
    expect(total).toBeLessThan(1500);
  }, 30_000);
  it('--draws below 1, or with --report, is a usage error', async () => {
    await expect(runCli(['--spec', 'corpora/smoke-bio.json', '--draws', '0'])).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
    await expect(runCli(['--spec', 'corpora/smoke-bio.json', '--draws', '2', '--report', 'r.html'])).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
  });
  it.skipIf(!sharedDir())('--draws N runs every spec with seeds S..S+N-1 and keeps, per method and mix, the worst draw', async () => {
    const args = ['corpora/smoke-bio.json', '--methods', 'random,dsir', '--max-sentences', '800'];
    const r = await runCli([...args, '--seed', '7', '--draws', '2', '--json']);
    expect(r.code).toBe(0);
    type Row = { method: string; byMix: Record<string, number>; mean: number; min: number };
    type One = { seed: number; methods: Array<{ name: string; kept_share: Record<string, number> }> };
    const j = JSON.parse(r.stdout) as { draws: One[]; overDraws: { mixes: string[]; rows: Row[] } };
    expect(j.draws.map((d) => d.seed)).toEqual([7, 8]);
    // Each draw is what a one-draw run with its seed gives.
    const shares = (o: One) => o.methods.map((m) => [m.name, m.kept_share]);
    const second = JSON.parse((await runCli([...args, '--seed', '8', '--json'])).stdout) as One;
    expect(shares(second)).toEqual(shares(j.draws[1]!));
    // The two draws differ (another mix, another sample), or the worst case would say nothing.
    expect(shares(j.draws[0]!)).not.toEqual(shares(j.draws[1]!));
    expect(j.overDraws.mixes).toEqual(['smoke-bio']);
    const text = await runCli([...args, '--seed', '7', '--draws', '2']);
    expect(text.stdout).toContain('draw 2 of 2 (seed 8)');
    expect(text.stdout).toMatch(/over 2 draws \(seed \+ 0 to 1\): worst in-domain share/);
    for (const row of j.overDraws.rows) {
      // Per method, the worst of the draws' figures, as the text table prints it.
      expect(row.min).toBe(row.byMix['smoke-bio']);
      expect(text.stdout).toMatch(new RegExp(`\\n${row.method}\\s+${(row.min * 100).toFixed(1)}%`));
    }
  }, 60_000);
});

describe.skipIf(!sharedDir())('eval --workers (spawned)', () => {
  it('eval on the smoke spec gives the same results with 1 and 2 workers (only timings differ)', async () => {
    const runs = [];
    for (const w of ['1', '2']) {
      const r = await spawnCli(['eval', '--spec', 'corpora/smoke-bio.json', '--json', '--methods', 'random,moore-lewis,dsir', '--workers', w]);
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout.toString()) as { methods: Array<Record<string, unknown>> };
      for (const m of json.methods) delete m.seconds;
      runs.push(json);
    }
    expect(runs[0]!.methods.length).toBe(3);
    expect(runs[1]).toEqual(runs[0]);
  });
});
