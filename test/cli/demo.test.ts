import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { demoRun } from '../helpers/demo-run.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('tadpole demo (the README main job)', () => {
  it('fits on the built-in task, filters the built-in mix and reports that the kept text is mostly biomedical', async () => {
    // No shared folder: the demo reads only what ships with tadpole (corpora/builtin/).
    const r = await demoRun();
    const dir = r.dir;
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    const row = (label: string) => {
      const m = new RegExp(`^${label} \\([^)]+\\)\\s+([\\d.]+)%\\s+([\\d.]+)%\\s+([\\d.]+)%`, 'm').exec(out);
      expect(m, out).not.toBeNull();
      return { corpus: Number(m![1]), kept: Number(m![2]), sourceKept: Number(m![3]) };
    };
    const rows = ['bio', 'cs', 'wiki', 'speech', 'fiction'].map(row);
    // The five sources fill the corpus and the kept text.
    expect(rows.reduce((a, x) => a + x.corpus, 0)).toBeCloseTo(100, 0);
    expect(rows.reduce((a, x) => a + x.kept, 0)).toBeCloseTo(100, 0);
    // Bio is the task's domain and a fifth of the corpus: a random filter's kept text would be
    // about 20% bio; this one's is mostly bio, and it keeps most of bio.
    const bio = rows[0]!;
    expect(bio.corpus).toBeGreaterThan(15);
    expect(bio.corpus).toBeLessThan(25);
    expect(bio.kept).toBeGreaterThan(80);
    expect(bio.sourceKept).toBeGreaterThan(70);
    expect(out).toContain(`In-domain precision: ${bio.kept.toFixed(1)}% of the kept text is biomedical; a random filter keeps ${bio.corpus.toFixed(1)}%`);
    for (const f of ['corpus.jsonl', 'model.json', 'kept.jsonl', 'stats.json']) expect(existsSync(join(dir, f))).toBe(true);
    // 20% of the bytes of text, exactly: the stats and the kept file agree.
    const stats = JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8')) as { keepBy: string; bytes: { total: number; kept: number } };
    expect(stats.keepBy).toBe('bytes');
    expect(stats.bytes.kept / stats.bytes.total).toBeCloseTo(0.2, 2);
    const keptBytes = readFileSync(join(dir, 'kept.jsonl'), 'utf8').trim().split('\n').reduce((a, l) => a + Buffer.byteLength((JSON.parse(l) as { text: string }).text), 0);
    expect(Math.abs(keptBytes - stats.bytes.kept) / stats.bytes.kept).toBeLessThan(0.01);
    // The next step it points to runs as printed, through a shell, from another folder.
    const next = /^What it is made of, least task-like first:\n {2}(.+ inspect .+ --task .+task-bio\.txt\.gz)$/m.exec(out);
    expect(next, out).not.toBeNull();
    const inspect = spawnSync('sh', ['-c', next![1]!], { cwd: tmp.dir });
    expect(inspect.status, inspect.stderr.toString()).toBe(0);
    expect(inspect.stdout.toString()).toMatch(/^\d+ sentences in \d+ pieces \(all of it\), \d+ groups; \d+ task sentences placed among them\nleast task-like first: .+\n\ngroup 1 /);
  });

  it('--docs N takes at most N documents of each source', async () => {
    const dir = join(tmp.dir, 'small');
    const r = await runCli(['demo', '--dir', dir, '--docs', '40']);
    expect(r.code, r.stderr.toString()).toBe(0);
    const docs = readFileSync(join(dir, 'corpus.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { source: string }).source);
    const count: Record<string, number> = {};
    for (const s of docs) count[s] = (count[s] ?? 0) + 1;
    expect(count).toEqual({ bio: 40, cs: 40, wiki: 40, speech: 40, fiction: 40 });
  });
});
