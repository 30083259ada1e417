import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { evaluateSpecs } from '../../src/report/evaluate.js';
import { tempDir } from '../helpers/cli.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const smoke = join(root, 'corpora', 'smoke-bio.json');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('evaluateSpecs (tadpole eval as a library call)', () => {
  it.skipIf(!sharedDir())('runs every spec over every draw with the next seed, hands each result over as it comes, and summarizes over the draws', async () => {
    const seen: string[] = [];
    const r = await evaluateSpecs({
      specFiles: [smoke, smoke],
      seed: 5,
      draws: 2,
      methods: ['random'],
      maxSentences: 400,
      keepBy: 'bytes',
      workers: 1,
      workDir: join(tmp.dir, 'work'),
      onResult: (result, at) => seen.push(`${at.draw}.${at.spec}:${result.seed}`),
      onDraw: (draw, d) => seen.push(`draw ${d}: ${draw.results.length}`),
    });
    expect(seen).toEqual(['0.0:5', '0.1:5', 'draw 0: 2', '1.0:6', '1.1:6', 'draw 1: 2']);
    expect(r.draws.map((d) => d.results.map((x) => x.seed))).toEqual([[5, 5], [6, 6]]);
    expect(r.overDraws?.rows.map((row) => row.method)).toEqual(['random']);
    // Kept work folders: one per draw and spec.
    for (const dir of ['draw-0/0', 'draw-0/1', 'draw-1/0', 'draw-1/1']) expect(existsSync(join(tmp.dir, 'work', dir)), dir).toBe(true);
  });

  it.skipIf(!sharedDir())('writes the HTML report of one spec, and no summary over draws for one draw', async () => {
    const report = join(tmp.dir, 'report.html');
    const r = await evaluateSpecs({ specFiles: [smoke], methods: ['random'], maxSentences: 400, keepBy: 'bytes', workers: 1, reportFile: report });
    expect(r.draws).toHaveLength(1);
    expect(r.overDraws).toBeUndefined();
    expect(readFileSync(report, 'utf8')).toMatch(/^<!doctype html>/i);
  });
});
