#!/usr/bin/env python3
"""Exports a cached BERT-family encoder (a Hugging Face or sentence-transformers folder) to
the layout the project's onnx embedder reads: OUT/onnx/model.onnx (fp32, inputs input_ids,
attention_mask[, token_type_ids], output last_hidden_state, batch and sequence dynamic) beside
the tokenizer files, config.json and the sentence-transformers pooling files, copied (links
followed).

Usage: python3 export_encoder.py SRC_DIR OUT_DIR      (needs torch and transformers)
"""
import inspect
import json
import os
import shutil
import sys

import torch
from transformers import AutoModel

COPY = ('config.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt', 'special_tokens_map.json',
        'modules.json', 'sentence_bert_config.json', 'config_sentence_transformers.json')


class Encoder(torch.nn.Module):
    def __init__(self, model, names):
        super().__init__()
        self.model = model
        self.names = names

    def forward(self, *args):
        return self.model(**dict(zip(self.names, args))).last_hidden_state


def main(src, out):
    os.makedirs(os.path.join(out, 'onnx'), exist_ok=True)
    for f in COPY:
        if os.path.exists(os.path.join(src, f)):
            shutil.copyfile(os.path.join(src, f), os.path.join(out, f))
    for d in os.listdir(src):
        if d.endswith('_Pooling') and os.path.isdir(os.path.join(src, d)):
            shutil.copytree(os.path.join(src, d), os.path.join(out, d), dirs_exist_ok=True)
    model = AutoModel.from_pretrained(src).float().eval()
    accepted = inspect.signature(model.forward).parameters
    names = [n for n in ('input_ids', 'attention_mask', 'token_type_ids') if n in accepted]
    ids = torch.randint(1000, 2000, (2, 16), dtype=torch.long)
    sample = tuple(ids if n == 'input_ids' else torch.ones_like(ids) if n == 'attention_mask' else torch.zeros_like(ids) for n in names)
    dyn = {n: {0: 'batch_size', 1: 'sequence_length'} for n in names}
    dyn['last_hidden_state'] = {0: 'batch_size', 1: 'sequence_length'}
    path = os.path.join(out, 'onnx', 'model.onnx')
    wrapped = Encoder(model, names)
    errors = []
    for kw in ({'dynamo': False}, {'dynamo': True}, {}):
        try:
            with torch.no_grad():
                torch.onnx.export(wrapped, sample, path, input_names=names, output_names=['last_hidden_state'],
                                  dynamic_axes=dyn, opset_version=17, **kw)
            print('exported', path, 'with', kw or 'defaults', 'inputs', names, 'bytes', os.path.getsize(path))
            with open(os.path.join(out, 'EXPORT.json'), 'w') as f:
                json.dump({'source': src, 'export': kw, 'inputs': names, 'errors': errors}, f, indent=1)
            return
        except Exception as err:  # noqa: BLE001 - the next exporter gets its turn
            errors.append('%s: %s' % (kw, str(err).split('\n')[0]))
            print('export failed with', kw, errors[-1], flush=True)
    sys.exit('export failed: ' + ' | '.join(errors))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
