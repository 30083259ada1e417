#!/usr/bin/python3
"""Side-by-side AUROC and speed of tadpole's detectors and scikit-learn's on the same embeddings.

    node native-bench/export-embeddings.mjs --out /tmp/tadpole-native-bench
    /usr/bin/python3 native-bench/sklearn_compare.py /tmp/tadpole-native-bench

Runs node native-bench/ours.mjs for tadpole's side (compiled code in dist/), then the
scikit-learn counterparts, one thread each (OMP/BLAS threads pinned to 1 before numpy loads).
Randomised detectors (both forests here; ours also for ocsvm landmarks) report the mean AUROC
over SEEDS seeds (default 5): a single forest's AUROC moves by 0.02-0.04 between seeds.
"""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import json
import subprocess
import sys
import time

import numpy as np
from sklearn.covariance import EllipticEnvelope, LedoitWolf
from sklearn.decomposition import PCA
from sklearn.ensemble import IsolationForest
from sklearn.metrics import roc_auc_score
from sklearn.neighbors import LocalOutlierFactor, NearestNeighbors
from sklearn.svm import OneClassSVM

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = sys.argv[1] if len(sys.argv) > 1 else "/tmp/tadpole-native-bench"
meta = json.load(open(os.path.join(DIR, "meta.json")))
dims, seed = meta["dims"], meta["seed"]
SEEDS = int(os.environ.get("SEEDS", "5"))


def load(name, rows):
    return np.fromfile(os.path.join(DIR, name), dtype="<f4").reshape(rows, dims)


train = load("train.f32", meta["train"])
test = load("test.f32", meta["test"])
bulk = load("bulk.f32", meta["bulk"])
labels = np.fromfile(os.path.join(DIR, "labels.u8"), dtype=np.uint8)


class KthDistance:
    """Distance to the k-th nearest training row (exact), the counterpart of tadpole's knn."""

    def __init__(self, k):
        self.nn = NearestNeighbors(n_neighbors=k)

    def fit(self, X):
        self.nn.fit(X)
        return self

    def score_samples(self, X):
        return -self.nn.kneighbors(X)[0][:, -1]


class PcaReconstruction:
    def __init__(self, k):
        self.pca = PCA(n_components=k, svd_solver="full")

    def fit(self, X):
        self.pca.fit(X)
        return self

    def score_samples(self, X):
        r = X - self.pca.inverse_transform(self.pca.transform(X))
        return -(r * r).sum(axis=1)


class LedoitWolfDistance:
    def fit(self, X):
        self.lw = LedoitWolf().fit(X)
        return self

    def score_samples(self, X):
        return -self.lw.mahalanobis(X)


# Each tadpole detector and its counterpart; sklearn's score_samples is higher = more normal.
PAIRS = [
    ("iforest", "IsolationForest", lambda s=seed: IsolationForest(n_estimators=100, max_samples=256, random_state=s)),
    ("eif", "IsolationForest", lambda s=seed: IsolationForest(n_estimators=100, max_samples=256, random_state=s)),
    ("knn", "NearestNeighbors k=10", lambda: KthDistance(10)),
    ("lof", "LocalOutlierFactor(novelty)", lambda: LocalOutlierFactor(n_neighbors=20, novelty=True)),
    ("pca", "PCA(10) reconstruction", lambda: PcaReconstruction(10)),
    ("mahalanobis", "LedoitWolf mahalanobis", lambda: LedoitWolfDistance()),
    ("mahalanobis", "EllipticEnvelope (MCD)", lambda: EllipticEnvelope(random_state=seed, support_fraction=None)),
    ("ocsvm", "OneClassSVM rbf nu=0.1", lambda: OneClassSVM(kernel="rbf", gamma="scale", nu=0.1)),
]


def timed_rate(fn, X, min_s=1.0):
    t = time.perf_counter()
    done = 0
    while True:
        fn(X)
        done += len(X)
        if time.perf_counter() - t >= min_s:
            return done / (time.perf_counter() - t)


def main():
    wanted = sys.argv[2:] or None
    names = sorted({p[0] for p in PAIRS if wanted is None or p[0] in wanted})
    ours = json.loads(subprocess.run(["node", os.path.join(HERE, "ours.mjs"), DIR, *names], check=True, capture_output=True, text=True, env={**os.environ, "SEEDS": str(SEEDS)}).stdout)
    print(f"randomised detectors: mean AUROC over {SEEDS} seeds")
    print(f"task {meta['task']}: train {meta['train']}, test {meta['test_task']} task + {meta['test_general']} general, dims {dims}, scoring speed on {meta['bulk']} rows, one core")
    head = f"{'ours':<12} {'scikit-learn':<30} {'AUROC ours':>10} {'sklearn':>8} {'diff':>7} {'fit s ours':>10} {'sklearn':>8} {'score/s ours':>12} {'sklearn':>9} {'score x':>8}"
    print(head)
    print("-" * len(head))
    for ours_name, sk_name, make in PAIRS:
        if ours_name not in ours:
            continue
        o = ours[ours_name]
        # The exact-MCD fit does not finish in minutes at hundreds of dims with thousands of rows; cap it.
        if sk_name.startswith("EllipticEnvelope") and dims > 128:
            print(f"{ours_name:<12} {sk_name:<30} {o['auroc']:>10.4f} {'skipped (FastMCD too slow at %d dims)' % dims}")
            continue
        det = make()
        t = time.perf_counter()
        det.fit(train)
        fit_s = time.perf_counter() - t
        auc = roc_auc_score(labels, -det.score_samples(test))
        if sk_name == "IsolationForest" and SEEDS > 1:
            aucs = [auc] + [roc_auc_score(labels, -make(seed + s).fit(train).score_samples(test)) for s in range(1, SEEDS)]
            auc = float(np.mean(aucs))
        rate = timed_rate(det.score_samples, bulk)
        print(f"{ours_name:<12} {sk_name:<30} {o['auroc']:>10.4f} {auc:>8.4f} {o['auroc'] - auc:>+7.4f} {o['fit_s']:>10.2f} {fit_s:>8.2f} {o['score_per_s']:>12.0f} {rate:>9.0f} {o['score_per_s'] / rate:>7.1f}x")


if __name__ == "__main__":
    main()
