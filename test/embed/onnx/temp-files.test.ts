import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedPath } from '../../../src/core/shared.js';
import { testDir } from '../../helpers/temp.js';

const tinyBert = sharedPath('models', 'tadpole-tiny-bert');
const embedderModule = fileURLToPath(new URL('../../../dist/embed/onnx/index.js', import.meta.url));

/** Embeds two sentences in a child process whose TMPDIR is `tmp`; returns what it printed. */
function embedIn(tmp: string, env: Record<string, string> = {}): string {
  const script = `
    const m = await import(${JSON.stringify(embedderModule)});
    const e = await m.createOnnxEmbedder({ modelDir: ${JSON.stringify(tinyBert)}, device: 'cpu', log: () => {} });
    const v = await e.embed(['The patient was given aspirin.', 'Shares rose on Friday.']);
    await e.dispose();
    console.log(e.dims, v.length, process.env.ORT_DISABLE_TELEMETRY);`;
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'ORT_DISABLE_TELEMETRY') base[k] = v;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...base, TMPDIR: tmp, ...env }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.trim();
}

describe('the ONNX runtime leaves nothing in TMPDIR', () => {
  it('an embedder run writes no file into the temporary folder (the runtime\'s telemetry is off)', () => {
    const tmp = testDir();
    expect(embedIn(tmp)).toBe('128 256 1');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a value the user set for ORT_DISABLE_TELEMETRY is left as it is', () => {
    expect(embedIn(testDir(), { ORT_DISABLE_TELEMETRY: '0' })).toBe('128 256 0');
  });
});
