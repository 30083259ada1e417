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

interface Entry {
  create(opts: DetectorOptions): Detector;
  fromJSON(json: DetectorJSON): Detector;
  help: string;
}

const ENTRIES: Record<string, Entry> = {
  iforest: {
    create: (o) => new IsolationForest(o),
    fromJSON: (j) => IsolationForest.fromJSON(j),
    help: 'isolation forest (Liu et al. 2008), the paper\'s choice; options: trees=100, sampleSize=256',
  },
  eif: {
    create: (o) => new ExtendedIsolationForest(o),
    fromJSON: (j) => ExtendedIsolationForest.fromJSON(j),
    help: 'extended isolation forest, random hyperplane splits (Hariri et al. 2018); options: trees=100, sampleSize=256, extensionLevel=-1 (full)',
  },
  knn: {
    create: (o) => new KnnDetector(o),
    fromJSON: (j) => KnnDetector.fromJSON(j),
    help: 'distance to the k-th nearest task embedding (hnswlib index in the model); options: k=10, metric=l2|cosine, M=16, efConstruction=200, efSearch=100',
  },
  lof: {
    create: (o) => new LofDetector(o),
    fromJSON: (j) => LofDetector.fromJSON(j),
    help: 'local outlier factor, novelty scoring (Breunig et al. 2000) on an hnswlib index; options: k=20, metric=l2|cosine, M, efConstruction, efSearch',
  },
  pca: {
    create: (o) => new PcaDetector(o),
    fromJSON: (j) => PcaDetector.fromJSON(j),
    help: 'squared reconstruction error outside the top principal components of the task data; options: components=10',
  },
  mahalanobis: {
    create: (o) => new MahalanobisDetector(o),
    fromJSON: (j) => MahalanobisDetector.fromJSON(j),
    help: 'Mahalanobis distance under a Ledoit-Wolf shrinkage covariance; no options',
  },
  ocsvm: {
    create: (o) => new OneClassSvm(o),
    fromJSON: (j) => OneClassSvm.fromJSON(j),
    help: 'one-class SVM, RBF kernel via a Nyström map on landmark rows, dual solved by Frank-Wolfe; options: nu=0.1, gamma=0 (scale), landmarks=256, iterations=300 (Nyström map)',
  },
};

export const DETECTOR_NAMES: readonly string[] = Object.freeze(['iforest', 'eif', 'knn', 'lof', 'pca', 'mahalanobis', 'ocsvm']);

export const DETECTOR_HELP: Record<string, string> = Object.fromEntries(DETECTOR_NAMES.map((n) => [n, (ENTRIES[n] as Entry).help]));

function entry(name: string, code: 'TADPOLE_USAGE' | 'TADPOLE_MODEL'): Entry {
  const e = Object.prototype.hasOwnProperty.call(ENTRIES, name) ? ENTRIES[name] : undefined;
  if (!e) throw new TadpoleError(code, `unknown detector "${name}"; should be one of: ${DETECTOR_NAMES.join(', ')}`);
  return e;
}

export function createDetector(name: string, opts: { seed: number; [k: string]: unknown }): Detector {
  if (!Number.isInteger(opts.seed)) throw new TadpoleError('TADPOLE_USAGE', `detector ${name}: seed must be an integer, got ${String(opts.seed)}`);
  return entry(name, 'TADPOLE_USAGE').create(opts);
}

export function detectorFromJSON(json: DetectorJSON): Detector {
  if (!json || typeof json.name !== 'string' || typeof json.params !== 'object' || typeof json.state !== 'object' || json.params === null || json.state === null) {
    throw new TadpoleError('TADPOLE_MODEL', 'model file: the detector entry needs "name", "params" and "state"; refit the model');
  }
  return entry(json.name, 'TADPOLE_MODEL').fromJSON(json);
}
