#!/usr/bin/env python3
"""Gathers what scripts/gpu/run.sh left in its results folder into OUT/gpu.json, writes the
eval tables to OUT/eval.txt and prints a short summary.

Usage: python3 collect.py RES_DIR OUT_DIR DEVICE      (standard library only)
"""
import glob
import json
import os
import sys

res, out, device = sys.argv[1], sys.argv[2], sys.argv[3]


def text(name):
    try:
        with open(os.path.join(res, name), encoding='utf-8', errors='replace') as f:
            return f.read()
    except OSError:
        return None


def load(path):
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    except Exception as err:  # noqa: BLE001 - a missing or broken result is reported as such
        return {'error': 'cannot read %s: %s' % (os.path.basename(path), err)}


def util(name):
    """Mean and max GPU utilisation over the samples of one run (idle samples included)."""
    rows = []
    for line in (text('util-%s.csv' % name) or '').splitlines():
        parts = [p.strip() for p in line.split(',')]
        try:
            rows.append((float(parts[1]), float(parts[2]), float(parts[3])))
        except (IndexError, ValueError):
            pass
    if not rows:
        return None
    busy = [r for r in rows if r[0] > 0]
    return {
        'samples': len(rows),
        'gpuUtilMean': sum(r[0] for r in rows) / len(rows),
        'gpuUtilMeanWhileBusy': sum(r[0] for r in busy) / len(busy) if busy else 0,
        'gpuUtilMax': max(r[0] for r in rows),
        'memUtilMean': sum(r[1] for r in rows) / len(rows),
        'memoryUsedMiBMax': max(r[2] for r in rows),
    }


steps = [json.loads(l) for l in (text('steps.jsonl') or '').splitlines() if l.strip()]
ldd = text('ldd.txt') or ''
g = {
    'device': device,
    'machine': text('machine.txt'),
    'gpu': text('gpu.csv'),
    'cudaVersion': (text('cuda-version.txt') or '').strip() or None,
    'lddNotFound': [l.strip() for l in ldd.splitlines() if 'not found' in l],
    'ldd': ldd,
    'ldLibraryPath': (text('ld-library-path.txt') or '').split(),
    'models': load(os.path.join(res, 'models.json')),
    'steps': steps,
    'bench': {},
    'filter': {},
    'eval': {},
}
for name in ('fp32', 'fp16', 'encoder'):
    p = os.path.join(res, 'bench-%s.json' % name)
    if os.path.exists(p):
        g['bench'][name] = load(p)
        g['bench'][name]['gpuUtil'] = util('bench-%s' % name)
for p in sorted(glob.glob(os.path.join(res, 'filter-*.json'))):
    name = os.path.basename(p)[len('filter-'):-len('.json')]
    s = load(p)
    row = {'stats': s, 'gpuUtil': util('filter-%s' % name)}
    step = next((x for x in steps if x['step'] == 'filter-%s' % name), {})
    sent = (s.get('sentences') or {}).get('total')
    secs = (s.get('seconds') or {}).get('total')
    if sent and secs:
        row['sentPerS'] = sent / secs
        row['pass1SentPerS'] = sent / s['seconds']['pass1'] if s['seconds'].get('pass1') else None
    if sent and step.get('seconds'):
        row['wallSentPerS'] = sent / step['seconds']  # process start, model load and CUDA init included
    g['filter'][name] = row
if os.path.exists(os.path.join(res, 'torch.json')):
    g['torch'] = load(os.path.join(res, 'torch.json'))
tables = []
for p in sorted(glob.glob(os.path.join(res, 'eval-*.json'))):
    name = os.path.basename(p)[len('eval-'):-len('.json')]
    e = load(p)
    g['eval'][name] = e
    if 'methods' not in e:
        tables.append('%s: %s\n' % (name, e.get('error', 'no result')))
        continue
    lines = ['%s (in-domain %s, %.1f%% of the mix; keep %.4g by %s)' % (name, e.get('in_domain'), 100 * (e.get('in_domain_share') or 0), e.get('keep') or 0, e.get('keep_by')),
             '%-30s %10s %10s %8s %9s' % ('method', 'precision', 'chars', 'recall', 'seconds')]
    for m in e['methods']:
        lines.append('%-30s %9.1f%% %9.1f%% %7.1f%% %9.1f' % (m.get('name', '?')[:30], 100 * (m.get('precision') or 0), 100 * (m.get('precision_chars') or 0),
                                                       100 * (m.get('recall') or 0), m.get('seconds') or 0))
    tables.append('\n'.join(lines) + '\n')
with open(os.path.join(out, 'gpu.json'), 'w') as f:
    json.dump(g, f, indent=1)
with open(os.path.join(out, 'eval.txt'), 'w') as f:
    f.write('\n'.join(tables) if tables else 'no eval ran (no encoder)\n')

# Summary
print('== summary (%s)' % device)
print((g['gpu'] or 'no nvidia-smi').strip().splitlines()[-1], g['cudaVersion'] or '')
print('ldd not found:', g['lddNotFound'] or 'none')
mods = g['models'] if isinstance(g['models'], dict) else {}
print('cached models: %d; BERT-family encoder: %s' % (len(mods.get('models') or []), mods.get('bertSentenceEncoder')))
for name, b in g['bench'].items():
    raw = ' '.join('b%d=%s' % (r['batch'], '%.0f' % r['sentPerS'] if 'sentPerS' in r else 'ERR') for r in b.get('raw', []))
    full = ' '.join('b%d%s=%s' % (r['batch'], '(in-thread)' if r.get('helperThreads') == 0 else '', '%.0f' % r['sentPerS'] if 'sentPerS' in r else 'ERR')
                    for r in b.get('full', []))
    print('onnx %-7s provider %s  raw sent/s: %s | full: %s %s' % (name, b.get('provider'), raw or b.get('rawError', '-'), full, b.get('error', '')))
for name, r in g['filter'].items():
    u = r.get('gpuUtil') or {}
    print('filter %-10s sent/s %s (pass1 %s, wall %s) gpu util mean %s max %s' % (
        name, '%.0f' % r['sentPerS'] if r.get('sentPerS') else 'ERR', '%.0f' % r['pass1SentPerS'] if r.get('pass1SentPerS') else '-',
        '%.0f' % r['wallSentPerS'] if r.get('wallSentPerS') else '-', '%.0f' % u['gpuUtilMean'] if u else '-', '%.0f' % u['gpuUtilMax'] if u else '-'))
# The bar: filter end to end >= 90% of the raw session's best rate (fp32) and >= the PyTorch peer.
raw_best = max((r.get('sentPerS') or 0 for r in (g['bench'].get('fp32') or {}).get('raw', [])), default=0)
filt_best = max((r.get('sentPerS') or 0 for n, r in g['filter'].items() if n.startswith('fp32')), default=0)
if raw_best and filt_best:
    g['bar'] = {'rawBestSentPerS': raw_best, 'filterBestSentPerS': filt_best, 'filterOverRaw': filt_best / raw_best}
    print('bar: filter fp32 best %.0f sent/s = %.0f%% of the raw session best %.0f (target >= 90%%)' % (filt_best, 100 * filt_best / raw_best, raw_best))
    with open(os.path.join(out, 'gpu.json'), 'w') as f:
        json.dump(g, f, indent=1)
t = g.get('torch') or {}
if t:
    print('torch %s %s: %s; tokenize %s sent/s %s' % (t.get('torch'), t.get('dtype'), ' '.join('b%d=%s' % (r['batch'], '%.0f' % r['sentPerS'] if 'sentPerS' in r else 'ERR') for r in t.get('rows', [])),
                                                     '%.0f' % t['tokenizeSentPerS'] if t.get('tokenizeSentPerS') else '-', t.get('error', '')))
print('steps failed or skipped:', [s['step'] for s in steps if s.get('rc') != 0] or 'none')
for tb in tables:
    print(tb)
