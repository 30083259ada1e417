#!/usr/bin/env python3
"""The PyTorch peer of bench-onnx.mjs: a randomly initialised BertModel of the model folder's
config.json (all-MiniLM-L6-v2's shape for the stand-in), in fp16 on CUDA (fp32 on CPU), mean
pooling over the attention mask and L2 normalisation, on the same sentences, in length-sorted
batches of the same sizes. Tokenization (the fast Rust tokenizer of the folder's
tokenizer.json) is timed apart from the model.

Usage: python3 bench_torch.py --model-dir DIR --sentences FILE --out FILE.json
           [--n 50000] [--batches 64,128,256,512,1024] [--device cuda|cpu] [--repeat 2]
"""
import argparse
import json
import time

ap = argparse.ArgumentParser()
ap.add_argument('--model-dir', required=True)
ap.add_argument('--sentences', required=True)
ap.add_argument('--out', required=True)
ap.add_argument('--n', type=int, default=50000)
ap.add_argument('--batches', default='64,128,256,512,1024')
ap.add_argument('--device', default='cuda')
ap.add_argument('--repeat', type=int, default=2)
a = ap.parse_args()

result = {'device': a.device, 'rows': []}


def save():
    with open(a.out, 'w') as f:
        json.dump(result, f, indent=1)


try:
    import torch
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    result['torch'] = torch.__version__
    dev = torch.device(a.device)
    dtype = torch.float16 if dev.type == 'cuda' else torch.float32
    result['dtype'] = str(dtype)
    if dev.type == 'cuda':
        result['gpu'] = torch.cuda.get_device_name(0)
    with open(a.sentences, encoding='utf-8') as f:
        sentences = [s for s in f.read().split('\n') if s.strip()][: a.n]
    result['sentences'] = len(sentences)
    tok = PreTrainedTokenizerFast(tokenizer_file=f'{a.model_dir}/tokenizer.json')
    # The project's embedder truncates where the tokenizer file says (else 512): the same here.
    with open(f'{a.model_dir}/tokenizer.json', encoding='utf-8') as f:
        max_len = ((json.load(f).get('truncation') or {}).get('max_length')) or 512
    result['maxTokens'] = max_len
    t0 = time.perf_counter()
    enc = tok(sentences, add_special_tokens=True, truncation=True, max_length=max_len)['input_ids']
    result['tokenizeSeconds'] = time.perf_counter() - t0
    result['tokenizeSentPerS'] = len(sentences) / result['tokenizeSeconds']
    order = sorted(range(len(enc)), key=lambda i: -len(enc[i]))
    cfg = BertConfig.from_pretrained(a.model_dir)
    torch.manual_seed(0)
    model = BertModel(cfg, add_pooling_layer=False).to(dev, dtype).eval()
    result['attn'] = getattr(model.config, '_attn_implementation', None)

    def batches(b):
        out = []
        for i in range(0, len(order), b):
            rows = order[i : i + b]
            seq = len(enc[rows[0]])
            ids = torch.zeros((len(rows), seq), dtype=torch.long)
            mask = torch.zeros((len(rows), seq), dtype=torch.long)
            for r, j in enumerate(rows):
                t = enc[j]
                ids[r, : len(t)] = torch.tensor(t)
                mask[r, : len(t)] = 1
            out.append((ids, mask))
        return out

    def run(bs):
        with torch.inference_mode():
            for ids, mask in bs:
                ids, mask = ids.to(dev, non_blocking=True), mask.to(dev, non_blocking=True)
                h = model(input_ids=ids, attention_mask=mask).last_hidden_state
                m = mask.unsqueeze(-1).to(h.dtype)
                v = (h * m).sum(1) / m.sum(1).clamp(min=1)
                v = torch.nn.functional.normalize(v.float(), dim=-1)
                v.cpu()
        if dev.type == 'cuda':
            torch.cuda.synchronize()

    for b in [int(x) for x in a.batches.split(',') if x]:
        row = {'batch': b}
        try:
            t0 = time.perf_counter()
            bs = batches(b)
            row['packSeconds'] = time.perf_counter() - t0
            run(bs[:8])
            best = float('inf')
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                run(bs)
                best = min(best, time.perf_counter() - t0)
            row['seconds'] = best
            row['sentPerS'] = len(sentences) / best
            # Tokenize + pack + run, as a user of the library would see it.
            row['withTokenizeSentPerS'] = len(sentences) / (best + result['tokenizeSeconds'] + row['packSeconds'])
        except Exception as err:  # noqa: BLE001 - recorded, the next batch size still runs
            row['error'] = str(err).split('\n')[0]
        result['rows'].append(row)
        save()
        print('torch b%d: %s' % (b, row.get('sentPerS', row.get('error'))), flush=True)
except Exception as err:  # noqa: BLE001 - recorded in the JSON
    result['error'] = str(err).split('\n')[0]
    print('torch:', result['error'], flush=True)
save()
