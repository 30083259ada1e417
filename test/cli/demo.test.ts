import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('tadpole demo (the README main job)', () => {
  it('fits, filters real text and reports that most of the biomedical source was kept', async () => {
    const dir = join(tmp.dir, 'demo');
    const r = await runCli(['demo', '--dir', dir, '--docs', '60']);
    expect(r.code).toBe(0);
    const out = r.stdout.toString();
    const bio = /^bio\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%/m.exec(out);
    expect(bio, out).not.toBeNull();
    // Bio is the task's domain: far more of it is kept than the 20% a random filter keeps.
    expect(Number(bio![3])).toBeGreaterThan(60);
    for (const f of ['corpus.jsonl', 'model.json', 'kept.jsonl', 'stats.json']) expect(existsSync(join(dir, f))).toBe(true);
    const stats = JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8')) as { sentences: { total: number; kept: number } };
    expect(Math.abs(stats.sentences.kept - 0.2 * stats.sentences.total)).toBeLessThanOrEqual(7.5);
    // The next step it points to runs as printed, through a shell, from another folder.
    const next = /^What it is made of:\n {2}(.+ inspect .+)$/m.exec(out);
    expect(next, out).not.toBeNull();
    const inspect = spawnSync('sh', ['-c', next![1]!], { cwd: tmp.dir });
    expect(inspect.status, inspect.stderr.toString()).toBe(0);
    expect(inspect.stdout.toString()).toMatch(/^\d+ sentences in \d+ pieces \(all of it\), \d+ groups\n\ngroup 1 /);
  });
});
