import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/run/ledger.js';
import { testDir } from '../helpers/temp.js';

const dir = testDir('tadpole-ledger-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Ledger.recordStop', () => {
  it("records a failed or interrupted stage, and never replaces the stage's error with its own", () => {
    const ledger = Ledger.open(dir, { create: true });
    ledger.startShard(0, 2, 'score', false);
    ledger.startShard(1, 2, 'score', false);
    ledger.recordStop(0, 2, new Error('the input changed'));
    const interrupted = new Error('interrupted');
    interrupted.name = 'Interrupted';
    ledger.recordStop(1, 2, interrupted);
    expect(ledger.shards().map((s) => s.status)).toEqual(['failed', 'interrupted']);
    expect(ledger.events().filter((e) => e.kind === 'stop').map((e) => e.detail)).toEqual(['the input changed', 'interrupted']);
    // A ledger that can no longer be written (here closed; a full disk in use) does not throw.
    ledger.close();
    expect(() => ledger.recordStop(0, 2, new Error('the disk is full'))).not.toThrow();
  });
});
