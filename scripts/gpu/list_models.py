#!/usr/bin/env python3
"""Lists the models a machine already holds: every folder under the usual caches
(~/.cache/huggingface, ~/.cache/torch, $HF_HOME, $HF_HUB_CACHE, $TRANSFORMERS_CACHE,
$SENTENCE_TRANSFORMERS_HOME, $TORCH_HOME) and a shallow look through /root, /opt, /home,
/models, /data, /workspace that has a config.json beside weights (or any ONNX file). Picks
the best BERT-family sentence encoder that the project's WordPiece tokenizer can read.

Usage: python3 list_models.py OUT.json      (standard library only; stops looking after
$LIST_MODELS_SECONDS, default 25)
"""
import json
import os
import sys
import time

WEIGHTS = ('model.safetensors', 'pytorch_model.bin', 'model.onnx', 'tf_model.h5', 'flax_model.msgpack')
BERT_TYPES = ('bert', 'distilbert', 'electra', 'mpnet')
SKIP = {'site-packages', 'dist-packages', 'node_modules', '.git', 'proc', 'sys', 'dev', 'include', 'share', 'man'}
DEADLINE = time.time() + float(os.environ.get('LIST_MODELS_SECONDS', 25))


def caches():
    home = os.path.expanduser('~')
    roots = [os.path.join(home, '.cache', 'huggingface'), os.path.join(home, '.cache', 'torch'), '/root/.cache']
    for var in ('HF_HOME', 'HF_HUB_CACHE', 'TRANSFORMERS_CACHE', 'SENTENCE_TRANSFORMERS_HOME', 'TORCH_HOME', 'XDG_CACHE_HOME'):
        if os.environ.get(var):
            roots.append(os.environ[var])
    return roots


def read_json(path):
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    except Exception:  # noqa: BLE001 - an unreadable file is not a model
        return None


def size_of(d):
    total = 0
    for root, _, files in os.walk(d):
        for f in files:
            try:
                total += os.stat(os.path.join(root, f)).st_size
            except OSError:
                pass
    return total


def describe(d, files):
    cfg = read_json(os.path.join(d, 'config.json')) or {}
    tok = read_json(os.path.join(d, 'tokenizer.json')) if 'tokenizer.json' in files else None
    tok_model = (tok or {}).get('model', {}).get('type') if isinstance(tok, dict) else None
    entry = {
        'path': d,
        'model_type': cfg.get('model_type'),
        'architectures': cfg.get('architectures'),
        'hidden_size': cfg.get('hidden_size') or cfg.get('dim'),
        'layers': cfg.get('num_hidden_layers') or cfg.get('n_layers'),
        'files': sorted(files)[:40],
        'bytes': size_of(d),
        'sentence_transformers': 'modules.json' in files,
        'tokenizer': tok_model or ('WordPiece (vocab.txt)' if 'vocab.txt' in files else None),
    }
    entry['bert_family'] = entry['model_type'] in BERT_TYPES and (tok_model == 'WordPiece' or 'vocab.txt' in files)
    return entry


def walk(root, max_depth, found, seen):
    root = os.path.realpath(root)
    if not os.path.isdir(root):
        return
    base = root.count(os.sep)
    for d, dirs, files in os.walk(root, followlinks=False):
        if time.time() > DEADLINE:
            return
        if d.count(os.sep) - base >= max_depth:
            dirs[:] = []
        dirs[:] = [x for x in dirs if x not in SKIP and not x.startswith('.venv')]
        fs = set(files)
        has_cfg = 'config.json' in fs and any(w in fs for w in WEIGHTS)
        onnx = [f for f in files if f.endswith('.onnx')]
        if (has_cfg or onnx) and d not in seen:
            seen.add(d)
            found.append(describe(d, fs))


def main(out):
    found, seen = [], set()
    searched = []
    for r in caches():
        searched.append(r)
        walk(r, 12, found, seen)
    for r in ('/root', '/opt', '/home', '/models', '/data', '/workspace', '/mnt'):
        searched.append(r)
        walk(r, 7, found, seen)
    # An encoder's weights sit in the folder beside config.json; an ONNX subfolder names its parent.
    bert = [m for m in found if m['bert_family']]
    bert.sort(key=lambda m: (not m['sentence_transformers'], m['bytes']))
    result = {
        'searched': searched,
        'env': {k: os.environ.get(k) for k in ('HF_HOME', 'HF_HUB_CACHE', 'TRANSFORMERS_CACHE', 'SENTENCE_TRANSFORMERS_HOME', 'TORCH_HOME')},
        'timedOut': time.time() > DEADLINE,
        'models': found,
        'bertSentenceEncoder': bert[0]['path'] if bert else None,
    }
    with open(out, 'w') as f:
        json.dump(result, f, indent=1)
    print('models found: %d; BERT-family encoder: %s' % (len(found), result['bertSentenceEncoder']))


if __name__ == '__main__':
    main(sys.argv[1])
