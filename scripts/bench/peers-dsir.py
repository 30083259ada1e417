"""Times the published DSIR package (`data-selection`, HashedNgramDSIR) as its README runs it.

Run by scripts/bench/peers.js: fit the importance estimator, compute the importance weights,
resample the keep share. One process (num_proc=1, so joblib runs every job in this process and
numpy's thread pools are held to one thread by the caller's environment): the CPU seconds below
are one core's. Prints one JSON line on stdout with each phase's wall and CPU seconds.

With WEIGHTS.json (scripts/bench/peers-quality.js), also writes every raw document's log
importance weight and whether the package's length filter (min_example_length) lets it be
chosen, in input order: what its resampling draws from.

Usage: python3 peers-dsir.py RAW.jsonl TARGET.jsonl KEEP_DOCS SCRATCH_DIR [WEIGHTS.json]
(KEEP_DOCS 0: no resampling.)
"""
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from data_selection import HashedNgramDSIR


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return {'wall': time.perf_counter() - wall, 'cpu': time.process_time() - cpu}


def main():
    raw, target, keep_docs, scratch = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    phases = {}
    start = time.perf_counter()
    dsir = HashedNgramDSIR([raw], [target], cache_dir=os.path.join(scratch, 'dsir-cache'), num_proc=1)
    phases['fit'] = timed(lambda: dsir.fit_importance_estimator(num_tokens_to_fit='auto'))
    phases['weights'] = timed(dsir.compute_importance_weights)
    kept = 0
    # KEEP_DOCS 0: the weights only (the quality bench cuts by them itself).
    if keep_docs > 0:
        out = os.path.join(scratch, 'dsir-kept')
        # cache_dir=None writes straight into out_dir (its README: skips the copy step).
        phases['resample'] = timed(lambda: dsir.resample(out_dir=out, num_to_sample=keep_docs, cache_dir=None))
        for name in os.listdir(out):
            with open(os.path.join(out, name), 'rb') as f:
                kept += sum(1 for _ in f)
    if len(sys.argv) > 5:
        write_weights(dsir, sys.argv[5])
    print(json.dumps({'phases': phases, 'wall': time.perf_counter() - start, 'kept': kept}))


def write_weights(dsir, path):
    # One raw file and num_proc=1: one shard, 0.npy, in input order.
    weights = np.load(str(Path(dsir.log_importance_weights_dir) / '0.npy'))
    lengths = np.load(str(Path(dsir.perexample_metadata_dir) / '0.npy'))
    eligible = dsir.perexample_metadata_filter(lengths)
    with open(path, 'w') as f:
        json.dump({'log_weights': [float(w) for w in weights], 'eligible': [bool(e) for e in eligible]}, f)


if __name__ == '__main__':
    main()
