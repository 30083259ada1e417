import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTrackedTemps, trackTemp, untrackTemp } from '../../src/io/atomic.js';
import { testDir } from '../helpers/temp.js';

describe('tracked temp files', () => {
  it('one exit listener however often the set empties and refills', () => {
    const before = process.listenerCount('exit');
    for (let i = 0; i < 20; i++) {
      trackTemp(`/nonexistent/tadpole-${i}`);
      untrackTemp(`/nonexistent/tadpole-${i}`);
    }
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
  });

  it('removes what is still tracked, and nothing once untracked', () => {
    const dir = testDir();
    const kept = join(dir, 'renamed');
    const left = join(dir, 'left');
    writeFileSync(kept, 'x');
    writeFileSync(left, 'x');
    trackTemp(kept);
    trackTemp(left);
    untrackTemp(kept);
    removeTrackedTemps();
    expect(existsSync(kept)).toBe(true);
    expect(existsSync(left)).toBe(false);
  });
});
