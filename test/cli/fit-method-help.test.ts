import { describe, expect, it } from 'vitest';
import { DETECTOR_NAMES, detectorOptions } from '../../src/detect/registry.js';
import { defaultOf } from '../../src/core/option-decl.js';
import { METHOD_NAMES, methodOwners } from '../../src/select/registry.js';
import { runMain } from '../helpers/cli.js';

/** The part fit's help hook adds after the flags and notes. */
function methodSection(stdout: Buffer, method: string): string {
  const text = stdout.toString();
  const at = text.indexOf(`\nMethod ${method}:\n`);
  expect(at, text).toBeGreaterThan(0);
  return text.slice(at + 1);
}

describe('tadpole fit --method X --help: the method and its declared options', () => {
  it('fit --help stays short and lists every method, one line each', async () => {
    const r = await runMain(['fit', '--help']);
    expect(r.code).toBe(0);
    const text = r.stdout.toString();
    const methods = text.slice(text.indexOf('\nMethods ('));
    for (const m of METHOD_NAMES) expect(methods).toMatch(new RegExp(`^  ${m} +\\S`, 'm'));
    // Per-method detail lives under --method X --help, not here.
    expect(text).not.toMatch(/Options of method/);
    expect(methods.split('\n').every((l) => l.length < 100)).toBe(true);
  });

  it.each(METHOD_NAMES)('%s: what it does, then every declared option with its default, under 100 columns', async (method) => {
    const r = await runMain(['fit', '--method', method, '--help']);
    expect(r.code).toBe(0);
    const section = methodSection(r.stdout, method);
    for (const owner of methodOwners(method, {})) {
      expect(section).toContain(`Options of ${owner.label}`);
      for (const d of owner.options) expect(section, d.name).toMatch(new RegExp(`^ +${d.name}=${defaultOf(d).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`, 'm'));
    }
    expect(section.split('\n').filter((l) => l.length >= 100)).toEqual([]);
  });

  it('contrast lists its research knobs under Experimental; auto (its older name) shows the same', async () => {
    const section = methodSection((await runMain(['fit', '--method', 'contrast', '--help'])).stdout, 'contrast');
    const experimental = section.slice(section.indexOf('Experimental'));
    expect(experimental).toMatch(/^  candidates=/m);
    expect(section.slice(0, section.indexOf('Experimental'))).toMatch(/^  rounds=4 /m);
    expect(methodSection((await runMain(['fit', '--method', 'auto', '--help'])).stdout, 'contrast')).toBe(section);
  });

  it.each(DETECTOR_NAMES)('tadpole --detector %s: the detector\'s options too; --detector alone means tadpole', async (detector) => {
    const withMethod = methodSection((await runMain(['fit', '--method', 'tadpole', '--detector', detector, '--help'])).stdout, 'tadpole');
    expect(withMethod).toContain(`Options of detector ${detector}`);
    for (const d of detectorOptions(detector) ?? []) expect(withMethod).toMatch(new RegExp(`^ +${d.name}=${String(d.default)}( |$)`, 'm'));
    expect(methodSection((await runMain(['fit', `--detector=${detector}`, '--help'])).stdout, 'tadpole')).toBe(withMethod);
  });
});
