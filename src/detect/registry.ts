/** Every detector by name: the one place fit, rank and model loading look them up. */
import { TadpoleError } from '../core/errors.js';
import type { Detector, DetectorJSON } from './detector.js';
import type { DetectorOptions } from './options.js';
import { IsolationForest } from './iforest.js';
import { ExtendedIsolationForest } from './eif.js';
import { KnnDetector } from './knn.js';
import { LofDetector } from './lof.js';
import { PcaDetector } from './pca.js';
import { MahalanobisDetector } from './mahalanobis.js';
import { OneClassSvm } from './ocsvm.js';
import type { OptionDecl } from '../core/option-decl.js';

interface Entry {
  create(opts: DetectorOptions): Detector;
  fromJSON(json: DetectorJSON): Detector;
  help: string;
  /** Every option the detector reads (core/option-decl.ts); createDetector fills in the defaults. */
  options: readonly OptionDecl[];
}

const FOREST: readonly OptionDecl[] = [
  { name: 'trees', type: 'int', default: 100, min: 1, help: 'number of trees' },
  { name: 'sampleSize', type: 'int', default: 256, min: 2, help: 'rows drawn for each tree' },
];

/** The hnswlib index the neighbour detectors search (neighbors.ts). */
const INDEX: readonly OptionDecl[] = [
  { name: 'metric', type: 'choice', default: 'l2', choices: ['l2', 'cosine'], help: 'distance between sentence vectors' },
  { name: 'M', type: 'int', default: 16, min: 2, help: 'hnswlib graph degree', experimental: true },
  { name: 'efConstruction', type: 'int', default: 200, min: 1, help: 'hnswlib build-time beam', experimental: true },
  { name: 'efSearch', type: 'int', default: 100, min: 1, help: 'hnswlib search-time beam', experimental: true },
];

const ENTRIES: Record<string, Entry> = {
  iforest: {
    create: (o) => new IsolationForest(o),
    fromJSON: (j) => IsolationForest.fromJSON(j),
    help: 'isolation forest (Liu et al. 2008), the paper\'s choice',
    options: FOREST,
  },
  eif: {
    create: (o) => new ExtendedIsolationForest(o),
    fromJSON: (j) => ExtendedIsolationForest.fromJSON(j),
    help: 'extended isolation forest, random hyperplane splits (Hariri et al. 2018)',
    options: [...FOREST, { name: 'extensionLevel', type: 'int', default: -1, min: -1, help: 'hyperplane extension level (-1: full, 0: the isolation forest\'s axis-parallel splits)' }],
  },
  knn: {
    create: (o) => new KnnDetector(o),
    fromJSON: (j) => KnnDetector.fromJSON(j),
    help: 'distance to the k-th nearest task embedding (hnswlib index in the model)',
    options: [{ name: 'k', type: 'int', default: 10, min: 1, help: 'the neighbour whose distance scores' }, ...INDEX],
  },
  lof: {
    create: (o) => new LofDetector(o),
    fromJSON: (j) => LofDetector.fromJSON(j),
    help: 'local outlier factor, novelty scoring (Breunig et al. 2000) on an hnswlib index',
    options: [{ name: 'k', type: 'int', default: 20, min: 1, help: 'neighbours of the local density' }, ...INDEX],
  },
  pca: {
    create: (o) => new PcaDetector(o),
    fromJSON: (j) => PcaDetector.fromJSON(j),
    help: 'squared reconstruction error outside the top principal components of the task data',
    options: [{ name: 'components', type: 'int', default: 10, min: 1, help: 'principal components kept' }],
  },
  mahalanobis: {
    create: (o) => new MahalanobisDetector(o),
    fromJSON: (j) => MahalanobisDetector.fromJSON(j),
    help: 'Mahalanobis distance under a Ledoit-Wolf shrinkage covariance',
    options: [],
  },
  ocsvm: {
    create: (o) => new OneClassSvm(o),
    fromJSON: (j) => OneClassSvm.fromJSON(j),
    help: 'one-class SVM, RBF kernel via a Nyström map on landmark rows, dual solved by Frank-Wolfe',
    options: [
      { name: 'nu', type: 'number', default: 0.1, min: 1e-6, max: 1, help: 'upper bound on the share of task rows treated as outliers' },
      { name: 'gamma', type: 'number', default: 0, min: 0, help: 'RBF kernel width (0: scale, 1 / (dims x variance))' },
      { name: 'landmarks', type: 'int', default: 256, min: 1, help: 'rows of the Nyström map' },
      { name: 'iterations', type: 'int', default: 300, min: 1, help: 'Frank-Wolfe iterations' },
    ],
  },
};

export const DETECTOR_NAMES: readonly string[] = Object.freeze(['iforest', 'eif', 'knn', 'lof', 'pca', 'mahalanobis', 'ocsvm']);

/** One line per detector: what it does, then its options with their defaults (from the declarations). */
export const DETECTOR_HELP: Record<string, string> = Object.fromEntries(
  DETECTOR_NAMES.map((n) => {
    const e = ENTRIES[n] as Entry;
    const opts = e.options.filter((d) => !d.experimental).map((d) => `${d.name}=${String(d.default)}`);
    return [n, `${e.help}; ${opts.length ? `options: ${opts.join(', ')}` : 'no options'}`];
  }),
);

/** A registry detector's declared options (undefined for a name the registry does not hold). */
export function detectorOptions(name: string): readonly OptionDecl[] | undefined {
  return Object.prototype.hasOwnProperty.call(ENTRIES, name) ? (ENTRIES[name] as Entry).options : undefined;
}

/** Declared defaults under the given options, so the declarations are what a fit uses. */
function withDefaults(entry: Entry, opts: DetectorOptions): DetectorOptions {
  const defaults = Object.fromEntries(entry.options.filter((d) => d.default !== undefined).map((d) => [d.name, d.default]));
  return { ...defaults, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)), seed: opts.seed };
}

function entry(name: string, code: 'TADPOLE_USAGE' | 'TADPOLE_MODEL'): Entry {
  const e = Object.prototype.hasOwnProperty.call(ENTRIES, name) ? ENTRIES[name] : undefined;
  if (!e) throw new TadpoleError(code, `unknown detector "${name}"; should be one of: ${DETECTOR_NAMES.join(', ')}`);
  return e;
}

export function createDetector(name: string, opts: { seed: number; [k: string]: unknown }): Detector {
  if (!Number.isInteger(opts.seed)) throw new TadpoleError('TADPOLE_USAGE', `detector ${name}: seed must be an integer, got ${String(opts.seed)}`);
  const e = entry(name, 'TADPOLE_USAGE');
  return e.create(withDefaults(e, opts));
}

export function detectorFromJSON(json: DetectorJSON): Detector {
  if (!json || typeof json.name !== 'string' || typeof json.params !== 'object' || typeof json.state !== 'object' || json.params === null || json.state === null) {
    throw new TadpoleError('TADPOLE_MODEL', 'model file: the detector entry needs "name", "params" and "state"; refit the model');
  }
  return entry(json.name, 'TADPOLE_MODEL').fromJSON(json);
}
