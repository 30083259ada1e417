import { resolve } from 'node:path';
import type { KeepBy } from '../cut/exact.js';
import { defaultEngineWith } from '../eval/engine-default.js';
import { type EvalResult, runEval } from '../eval/run.js';
import { loadSpec } from '../eval/spec.js';
import { type SuiteSummary, summarizeDraws, summarizeSuite } from '../eval/suite.js';
import { renderReport } from './html.js';
import { writeFileAtomic } from '../io/atomic.js';
import { isRemote } from '../io/remote/url.js';

export interface EvaluateOptions {
  /** Spec files (absolute paths, or relative to `cwd`), or spec objects' s3://, http(s):// or hf:// addresses. */
  specFiles: readonly string[];
  /** The folder relative spec paths start from (default: the process's). */
  cwd?: string;
  /** Overrides every spec's own seed; draw d runs with seed + d. */
  seed?: number;
  /** Runs of every spec, each with the next seed (default 1). */
  draws?: number;
  /** Only these methods (by name or title). */
  methods?: readonly string[];
  /** Keeps the mix and task files here (DIR/draw-D/I with several draws or specs); default: temp folders, removed. */
  workDir?: string;
  maxSentences?: number;
  keepBy: KeepBy;
  /** Scoring threads per method. */
  workers: number;
  /** Writes each result's HTML report here (meant for one spec and one draw: a later result replaces an earlier one). */
  reportFile?: string;
  log?: (line: string) => void;
  /** Lines always shown (a method skipped as unavailable). */
  warn?: (line: string) => void;
  /** Each spec's result as it comes, in order (its report already written). */
  onResult?: (result: EvalResult, at: { draw: number; spec: number }) => void;
  /** Each draw's results and suite summary as the draw ends. */
  onDraw?: (draw: { results: EvalResult[]; suite: SuiteSummary }, index: number) => void;
}

export interface EvaluateResult {
  /** Per draw: every spec's result and their suite summary. */
  draws: Array<{ results: EvalResult[]; suite: SuiteSummary }>;
  /** With several draws: the worst share over the draws, per method and mix. */
  overDraws?: SuiteSummary;
}

/** What `tadpole eval` does: every spec, over every draw, on the library's own engine; the suite summaries over specs and draws. */
export async function evaluateSpecs(opts: EvaluateOptions): Promise<EvaluateResult> {
  const draws = opts.draws ?? 1;
  const engine = defaultEngineWith(opts.workers);
  const specs = [];
  for (const specFile of opts.specFiles) specs.push(await loadSpec(isRemote(specFile) ? specFile : resolve(opts.cwd ?? '', specFile)));
  const log = opts.log;
  const out: EvaluateResult['draws'] = [];
  for (let d = 0; d < draws; d++) {
    const results: EvalResult[] = [];
    for (const [i, loaded] of specs.entries()) {
      const evalSpec = { ...loaded, seed: (opts.seed ?? loaded.seed) + d };
      const dir = opts.workDir === undefined ? undefined : resolve(opts.workDir, ...(draws > 1 ? [`draw-${d}`] : []), ...(specs.length > 1 ? [`${i}`] : []));
      const result = await runEval(evalSpec, {
        engine,
        ...(opts.methods?.length ? { methods: [...opts.methods] } : {}),
        ...(dir ? { workDir: dir } : {}),
        ...(opts.maxSentences !== undefined ? { maxSentences: opts.maxSentences } : {}),
        keepBy: opts.keepBy,
        ...(log ? { log: draws > 1 ? (line: string) => log(`draw ${d + 1}/${draws}: ${line}`) : log } : {}),
        ...(opts.warn ? { warn: opts.warn } : {}),
      });
      results.push(result);
      if (opts.reportFile) writeFileAtomic(opts.reportFile, renderReport(result, { generated: new Date().toISOString().slice(0, 10) }));
      opts.onResult?.(result, { draw: d, spec: i });
    }
    const drawn = { results, suite: summarizeSuite(results) };
    out.push(drawn);
    opts.onDraw?.(drawn, d);
  }
  return draws > 1 ? { draws: out, overDraws: summarizeDraws(out.map((x) => x.suite)) } : { draws: out };
}
