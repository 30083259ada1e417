/**
 * Every option a method reads is declared, with the default the fit uses: fitting with each
 * declared option at its declared default gives the model fitting with none gives, and every
 * key a fit asks for is one its method declares.
 */
import { describe, expect, it } from 'vitest';
import { ExtendedIsolationForest } from '../../src/detect/eif.js';
import { IsolationForest } from '../../src/detect/iforest.js';
import { KnnDetector } from '../../src/detect/knn.js';
import { LofDetector } from '../../src/detect/lof.js';
import { MahalanobisDetector } from '../../src/detect/mahalanobis.js';
import { OneClassSvm } from '../../src/detect/ocsvm.js';
import { PcaDetector } from '../../src/detect/pca.js';
import { createDetector, DETECTOR_NAMES, detectorOptions } from '../../src/detect/registry.js';
import type { Detector, DetectorOptions } from '../../src/detect/detector.js';
import { METHOD_NAMES, methodOwners, selectorFactory } from '../../src/select/registry.js';
import type { OptionDecl } from '../../src/core/option-decl.js';

const task = Array.from({ length: 120 }, (_, i) => `the protein ${i % 13} binds the kinase receptor in cell line ${i % 7}`);
const general = Array.from({ length: 400 }, (_, i) => (i < 50 ? `a kinase protein ${i % 11} binds receptor cells ${i % 5}` : `the match ended ${i % 9} to ${i % 4} after extra time in the rain ${i}`));
const generalGroups = Uint32Array.from(general, (_, i) => Math.floor(i / 5));

/** The method's settings worth fitting: each tadpole detector, and the default's other paths. */
const SETTINGS: [string, Record<string, unknown>][] = [
  ...METHOD_NAMES.filter((m) => m !== 'tadpole').map((m): [string, Record<string, unknown>] => [m, {}]),
  ['contrast', { style: 'guard' }],
  ['contrast', { functionWords: 'skip' }],
  ...['iforest', 'eif', 'knn', 'lof', 'pca', 'mahalanobis', 'ocsvm', 'task-knn', 'knn-ratio', 'ensemble'].map((d): [string, Record<string, unknown>] => ['tadpole', { detector: d }]),
];

function declaredDefaults(decls: readonly OptionDecl[]): Record<string, unknown> {
  return Object.fromEntries(decls.filter((d) => d.default !== undefined).map((d) => [d.name, d.default]));
}

async function fit(method: string, options: Record<string, unknown>) {
  return selectorFactory(method).fit({ task, general, generalGroups, seed: 2, options });
}

/**
 * A setting fitted with no option given, through a proxy that records each key the fit reads
 * (a proxy that only reads through fits the same model): both checks below take this one fit.
 */
const plainFits = new Map<string, ReturnType<typeof plainFitOnce>>();
async function plainFitOnce(method: string, base: Record<string, unknown>) {
  const asked = new Set<string>();
  const options = new Proxy({ ...base }, {
    get(target, key, receiver) {
      if (typeof key === 'string') asked.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
  return { model: await fit(method, options), asked };
}
function plainFit(method: string, base: Record<string, unknown>): ReturnType<typeof plainFitOnce> {
  const key = JSON.stringify([method, base]);
  if (!plainFits.has(key)) plainFits.set(key, plainFitOnce(method, base));
  return plainFits.get(key)!;
}

describe('every option a method reads is declared, with the default the fit uses', () => {
  it.each(SETTINGS)('%s %j: declared defaults given = none given', async (method, base) => {
    const decls = methodOwners(method, base).flatMap((o) => o.options);
    const all = { ...declaredDefaults(decls), ...base };
    expect(await fit(method, all)).toEqual((await plainFit(method, base)).model);
  }, 60_000);

  it.each(SETTINGS)('%s %j: every key the fit asks for is declared', async (method, base) => {
    const { asked } = await plainFit(method, base);
    const declared = new Set(methodOwners(method, base).flatMap((o) => o.options.map((d) => d.name)));
    expect([...asked].filter((k) => !declared.has(k))).toEqual([]);
  }, 60_000);

  it('each detector declares the defaults its class uses', () => {
    const classes: Record<string, new (o: DetectorOptions) => Detector> = { iforest: IsolationForest, eif: ExtendedIsolationForest, knn: KnnDetector, lof: LofDetector, pca: PcaDetector, mahalanobis: MahalanobisDetector, ocsvm: OneClassSvm };
    const dims = 4;
    const X = Float32Array.from({ length: 60 * dims }, (_, i) => Math.sin(i * 1.7) + (i % 5));
    for (const name of DETECTOR_NAMES) {
      const Class = classes[name];
      expect(Class, name).toBeDefined();
      const own = new Class!({ seed: 5 });
      own.fit(X, 60, dims);
      const declared = createDetector(name, { seed: 5 });
      declared.fit(X, 60, dims);
      expect(declared.toJSON(), name).toEqual(own.toJSON());
      expect(Object.keys(declaredDefaults(detectorOptions(name) ?? [])).sort(), name).toEqual(Object.keys(own.toJSON().params).filter((k) => k !== 'seed').sort());
    }
  });
});
