import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Doc } from '../../src/io/documents.js';
import { MODEL_FORMAT, MODEL_VERSION, type ModelFile } from '../../src/model/file.js';
import { BYTES_PER_DEFAULT_THREAD, defaultWorkers, ScoringPool } from '../../src/threads/pool.js';
import { sentenceAt } from '../../src/passes/scored.js';
import { openScoring, scoreDocuments } from '../../src/threads/scoring.js';
import { builtinMix } from '../helpers/builtin.js';

const dir = mkdtempSync(join(tmpdir(), 'tadpole-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(method: string): ModelFile {
  return {
    format: MODEL_FORMAT,
    version: MODEL_VERSION,
    method,
    embedder: null,
    selector: { method, params: { seed: 7 }, state: {} },
    fit: { seed: 7, options: {} },
    counts: { taskSentences: 0, generalSentences: 0, taskFiles: [], generalFiles: [] },
  };
}

async function* docBatches(texts: string[], per = 5): AsyncGenerator<Doc[]> {
  for (let i = 0; i < texts.length; i += per) {
    yield texts.slice(i, i + per).map((text, j) => ({ ordinal: i + j, input: 0, file: 'mem', line: i + j + 1, text, byteStart: 0, byteEnd: 0, nextOffset: 0, nextLine: 0 }));
  }
}

describe('scoring pool', () => {
  it('3 scoring threads (2 workers and this one) over batches of ~8 sentences give the in-thread spans, sentences and scores, in input order', async () => {
    const texts = builtinMix(15).map((d) => d.text);
    const inline = await openScoring(model('random'), {}, 1);
    const pool = await openScoring(model('random'), {}, 3);
    expect(pool).toBeInstanceOf(ScoringPool);
    try {
      const flat = async (scoring: typeof pool) => {
        const docs: number[] = [];
        const spans: number[][] = [];
        const scores: number[] = [];
        const sentences: string[] = [];
        for await (const b of scoreDocuments(docBatches(texts), scoring, 8)) {
          docs.push(...b.docs.map((d) => d.ordinal));
          spans.push(...b.spans);
          scores.push(...b.scores);
          // The sentences as text: in this thread random reads them in place and slices none.
          for (let i = 0; i < b.scores.length; i++) sentences.push(sentenceAt(b, i));
        }
        return { docs, spans, scores, sentences };
      };
      const a = await flat(inline);
      expect(a.docs).toEqual(texts.map((_, i) => i));
      // Straight after open the workers are still starting: this thread takes the batches meanwhile.
      const early = await flat(pool);
      expect(early).toEqual(a);
      await (pool as ScoringPool).whenReady();
      (pool as ScoringPool).batches.workers = 0;
      (pool as ScoringPool).batches.here = 0;
      const b = await flat(pool);
      expect(b.docs).toEqual(a.docs);
      expect(b.spans).toEqual(a.spans);
      expect(b.sentences).toEqual(a.sentences);
      expect(b.scores).toEqual(a.scores);
      expect(a.scores.length).toBeGreaterThan(200);
      // Both paths ran: 2 workers took batches, and this thread scored those that found them full.
      const counts = (pool as ScoringPool).batches;
      expect(pool.workers).toBe(3);
      expect(counts.workers).toBeGreaterThan(0);
      expect(counts.here).toBeGreaterThan(0);
    } finally {
      await inline.dispose();
      await pool.dispose();
    }
  });

  it('a worker that cannot open the scorer fails the pool with the scorer\'s coded error', async () => {
    await expect(openScoring(model('no-such-method'), {}, 2)).rejects.toMatchObject({ code: 'TADPOLE_MODEL', message: expect.stringMatching(/unknown method/) });
  });

  it('a worker that fails to open after the pool is returned fails the pool: whenReady and the next batch reject with its coded error', async () => {
    const pool = await ScoringPool.open(model('no-such-method'), {}, 2);
    try {
      await expect(pool.whenReady()).rejects.toMatchObject({ code: 'TADPOLE_MODEL', message: expect.stringMatching(/unknown method/) });
      const run = async () => {
        for await (const b of pool.scored(docBatches(['One sentence here. Another one there.']), 8)) void b;
      };
      await expect(run()).rejects.toMatchObject({ code: 'TADPOLE_MODEL' });
    } finally {
      await pool.dispose();
    }
  });

  it('--workers 0 is refused', async () => {
    await expect(openScoring(model('random'), {}, 0)).rejects.toMatchObject({ code: 'TADPOLE_USAGE' });
  });

  it('default workers: one thread per 40 MB of input files, at least one, at most the cores; the cores for stdin', () => {
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, '{"text": "One sentence."}\n');
    const sized = (name: string, bytes: number) => {
      const path = join(dir, name);
      const fd = openSync(path, 'w');
      ftruncateSync(fd, bytes);
      closeSync(fd);
      return path;
    };
    const justUnder = sized('under.jsonl', 2 * BYTES_PER_DEFAULT_THREAD - 1);
    const two = sized('two.jsonl', 2 * BYTES_PER_DEFAULT_THREAD);
    const many = sized('many.jsonl', 64 * BYTES_PER_DEFAULT_THREAD);
    const cores = availableParallelism();
    expect(defaultWorkers([small])).toBe(1);
    expect(defaultWorkers([justUnder])).toBe(1);
    expect(defaultWorkers([two])).toBe(Math.min(2, cores));
    expect(defaultWorkers([small, justUnder])).toBe(Math.min(2, cores));
    expect(defaultWorkers([many])).toBe(Math.min(64, cores));
    expect(defaultWorkers(['-'])).toBe(cores);
    expect(defaultWorkers([small, '-'])).toBe(cores);
  });
});
