import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import type { CliIO } from '../../src/cli/command.js';
import { command } from '../../src/cli/eval.js';
import { sharedDir } from '../../src/core/shared.js';

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
    const report = join(mkdtempSync(join(tmpdir(), 'tadpole-cli-eval-')), 'report.html');
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
});
