import { describe, expect, it } from 'vitest';
import { TadpoleError } from '../../src/core/errors.js';
import { limitFault, processLimits } from '../../src/core/limits.js';

const errno = (code: string, path?: string) => Object.assign(new Error(`${code}: something, open '${path}'`), { code, ...(path ? { path } : {}) });

describe('limitFault', () => {
  it('too many open files, bare or under a TadpoleError that named it an input fault: ulimit -n and --workers', () => {
    expect(limitFault(errno('EMFILE', 'corpus.jsonl'))).toMatch(/^too many open files \(opening corpus\.jsonl\): this process may hold .* \(ulimit -n\); raise it \(ulimit -n 4096\) or give fewer threads \(--workers N\)$/);
    const wrapped = new TadpoleError('TADPOLE_INPUT', 'corpus.jsonl: cannot read input (EMFILE)', { cause: errno('EMFILE', 'corpus.jsonl') });
    expect(limitFault(wrapped)).toMatch(/^too many open files/);
    expect(limitFault(errno('ENFILE'))).toMatch(/^too many open files on this system: .*fs\.file-max/);
  });

  it('memory and threads: --workers and --batch-sentences named', () => {
    expect(limitFault(errno('ENOMEM'))).toMatch(/^out of memory: give fewer threads \(--workers N\) or smaller batches \(--batch-sentences N\)/);
    expect(limitFault(errno('ERR_WORKER_OUT_OF_MEMORY'))).toMatch(/^a scoring thread ran out of memory: .*--batch-sentences/);
    expect(limitFault(new RangeError('Array buffer allocation failed'))).toMatch(/^out of memory/);
    expect(limitFault(Object.assign(new Error('Worker initialization failure: EMFILE'), { code: 'ERR_WORKER_INIT_FAILED' }))).toMatch(/^a thread could not start \(Worker initialization failure: EMFILE\): give fewer threads \(--workers N\)/);
  });

  it('any other error is not a limit', () => {
    expect(limitFault(errno('ENOENT', 'x'))).toBeUndefined();
    expect(limitFault(new TadpoleError('TADPOLE_INPUT', 'x: bad', { cause: errno('EACCES') }))).toBeUndefined();
    expect(limitFault(new RangeError('Invalid array length'))).toBeUndefined();
    expect(limitFault(undefined)).toBeUndefined();
  });
});

describe.skipIf(process.platform !== 'linux')('processLimits', () => {
  it('reads the soft limits as numbers; unlimited is undefined', () => {
    const limits = processLimits();
    if (limits.openFiles !== undefined) expect(Number.isInteger(limits.openFiles)).toBe(true);
    if (limits.addressSpace !== undefined) expect(limits.addressSpace).toBeGreaterThan(0);
  });
});
