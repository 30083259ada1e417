import { describe, expect, it } from 'vitest';
import { checkMethodOptions, methodOwners, resolveMethod } from '../../src/select/registry.js';

describe('which method a fit runs', () => {
  it('no --method: contrast, the default; a named detector means the paper\'s method, tadpole', () => {
    expect(resolveMethod(undefined, {})).toEqual({ method: 'contrast', options: {} });
    expect(resolveMethod(undefined, { rounds: 0 })).toEqual({ method: 'contrast', options: { rounds: 0 } });
    expect(resolveMethod(undefined, { detector: 'lof', k: 7 })).toEqual({ method: 'tadpole', options: { detector: 'lof', k: 7 } });
  });

  it('--method tadpole is the paper\'s method always (detector iforest unless named)', () => {
    expect(resolveMethod('tadpole', {})).toEqual({ method: 'tadpole', options: {} });
    expect(methodOwners('tadpole', {}).map((o) => o.label)).toEqual(['method tadpole', 'detector iforest']);
  });

  it('the default\'s older spellings still fit it: auto, and tadpole or no method with detector auto', () => {
    for (const [m, o] of [['auto', {}], ['tadpole', { detector: 'auto' }], [undefined, { detector: 'auto' }], ['contrast', { detector: 'auto' }]] as const) {
      expect(resolveMethod(m, { ...o, rounds: 2 }), `${m} ${JSON.stringify(o)}`).toEqual({ method: 'contrast', options: { rounds: 2 } });
    }
  });

  it('contrast has no detector; an unknown method is named with the nearest', () => {
    expect(() => resolveMethod('contrast', { detector: 'lof' })).toThrow(/--detector lof is an option of --method tadpole/);
    expect(() => resolveMethod('dsri', {})).toThrow(/unknown method "dsri"; did you mean dsir\?/);
  });

  it('options are checked against the method and its detector, with a pointer to the help', () => {
    expect(() => checkMethodOptions('tadpole', { detector: 'lof', efsearch: 10 })).toThrow("unknown option 'efsearch' for method tadpole with detector lof; did you mean 'efSearch'? (see tadpole fit --method tadpole --detector lof --help)");
    expect(() => checkMethodOptions('tadpole', { detector: 'iforest', trees: 0 })).toThrow('invalid trees 0 for detector iforest: should be an integer >= 1');
    expect(() => checkMethodOptions('dsir', { rounds: 1 })).toThrow("unknown option 'rounds' for method dsir: it is an option of contrast, classifier");
    expect(() => checkMethodOptions('tadpole', { detector: 'knn', k: 3, metric: 'cosine' })).not.toThrow();
  });
});
