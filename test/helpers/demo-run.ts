import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli.js';

export interface DemoRun {
  /** The folder the demo wrote (corpus.jsonl, model.json, kept.jsonl, stats.json): read it, never write to it. */
  dir: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `tadpole demo --dir DIR` without the shared folder, as a user runs it: one run (a fit and a
 * filter, seconds of CPU) for every test file of a test run that reads it. The first file to ask
 * runs it in the run's cache folder (test/helpers/global-setup.ts); the others wait for its
 * captured output. Outside that setup each file runs its own.
 */
export async function demoRun(): Promise<DemoRun> {
  const cache = process.env.TADPOLE_TEST_CACHE;
  const base = cache ? join(cache, 'demo') : mkdtempSync(join(tmpdir(), 'tadpole-demo-run-'));
  const result = join(base, 'result.json');
  if (cache) {
    try {
      mkdirSync(base);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // Another file runs it: wait for what it captured (the e2e hook timeout bounds the wait).
      while (!existsSync(result)) await new Promise((r) => setTimeout(r, 100));
      return JSON.parse(readFileSync(result, 'utf8')) as DemoRun;
    }
  }
  const dir = join(base, 'demo');
  // A run that could not start is captured too: the files waiting for it fail on its message.
  const run: DemoRun = await runCli(['demo', '--dir', dir], { env: { TADPOLE_SHARED: join(base, 'no-such-folder') } }).then(
    (r) => ({ dir, code: r.code, stdout: r.stdout.toString(), stderr: r.stderr }),
    (err: Error) => ({ dir, code: null, stdout: '', stderr: String(err) }),
  );
  writeFileSync(result + '.partial', JSON.stringify(run));
  renameSync(result + '.partial', result);
  return run;
}
