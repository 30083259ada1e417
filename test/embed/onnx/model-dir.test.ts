import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedPath } from '../../../src/core/shared.js';
import { cacheRoot, modelCacheDir } from '../../../src/embed/onnx/cache.js';
import { pickOnnxFile, readModelDefaults, resolveModelDir } from '../../../src/embed/onnx/model-dir.js';

const tmp: string[] = [];
function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'tadpole-modeldir-'));
  tmp.push(d);
  return d;
}
afterEach(() => {
  for (const d of tmp.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('model resolution', () => {
  it('cache root: TADPOLE_CACHE, else XDG_CACHE_HOME/tadpole, else ~/.cache/tadpole', () => {
    expect(cacheRoot({ TADPOLE_CACHE: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(cacheRoot({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/tadpole');
    expect(cacheRoot({ HOME: '/h' })).toBe('/h/.cache/tadpole');
    expect(modelCacheDir({ TADPOLE_CACHE: '/c' }, 'owner/name')).toBe('/c/models/owner--name');
  });

  it('--model-dir wins over TADPOLE_MODEL; a repo name resolves into the cache', () => {
    const c = scratch();
    mkdirSync(join(c, 'models', 'owner--name'), { recursive: true });
    const env = { TADPOLE_CACHE: c, TADPOLE_MODEL: '/nowhere' };
    expect(resolveModelDir('owner/name', env, '/')).toBe(join(c, 'models', 'owner--name'));
    expect(resolveModelDir(undefined, { TADPOLE_CACHE: c, TADPOLE_MODEL: 'owner/name' }, '/')).toBe(join(c, 'models', 'owner--name'));
    expect(() => resolveModelDir(undefined, env, '/')).toThrow(/TADPOLE_MODEL "\/nowhere": no such folder/);
    expect(() => resolveModelDir('other/model', env, '/')).toThrow(/--model-dir "other\/model".*tadpole model pull other\/model/);
  });

  it('picks onnx/model.onnx before the quantized export, and --onnx-file relative to the folder', () => {
    const d = scratch();
    mkdirSync(join(d, 'onnx'));
    writeFileSync(join(d, 'onnx', 'model_quantized.onnx'), '');
    expect(pickOnnxFile(d, undefined)).toBe(join(d, 'onnx', 'model_quantized.onnx'));
    writeFileSync(join(d, 'onnx', 'model.onnx'), '');
    expect(pickOnnxFile(d, undefined)).toBe(join(d, 'onnx', 'model.onnx'));
    expect(pickOnnxFile(d, 'onnx/model_quantized.onnx')).toBe(join(d, 'onnx', 'model_quantized.onnx'));
    expect(() => pickOnnxFile(d, 'missing.onnx')).toThrow(/--onnx-file "missing.onnx" not found/);
  });

  it('pooling and length come from sentence-transformers files when present', () => {
    const d = scratch();
    writeFileSync(join(d, 'modules.json'), JSON.stringify([{ idx: 0, path: '', type: 'sentence_transformers.models.Transformer' }, { idx: 1, path: '1_Pooling', type: 'sentence_transformers.models.Pooling' }]));
    mkdirSync(join(d, '1_Pooling'));
    writeFileSync(join(d, '1_Pooling', 'config.json'), JSON.stringify({ pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }));
    writeFileSync(join(d, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: 256 }));
    writeFileSync(join(d, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 1e30 }));
    expect(readModelDefaults(d, 128)).toEqual({ pooling: 'cls', maxTokens: 256 });
    rmSync(join(d, 'sentence_bert_config.json'));
    expect(readModelDefaults(d, undefined)).toEqual({ pooling: 'cls' });
  });

  it('the stand-in takes its length limit from tokenizer.json (128)', () => {
    expect(readModelDefaults(sharedPath('models', 'all-MiniLM-L6-v2-ARCH-STANDIN-random-weights'), 128)).toEqual({ maxTokens: 128 });
  });
});
