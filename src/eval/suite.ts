/**
 * The selection suite: many task/mix specs (corpora/suite/*.json) run by one `tadpole eval`
 * call, summarised per method as the in-domain share of kept characters on every mix, the
 * mean and the MINIMUM: a default has to hold on every domain, so the minimum decides,
 * and leave-one-domain-out tells whether a choice made on the others would
 * have held on the one left out.
 */
import type { EvalResult } from './run.js';
import { factorLabel, type ShareCut } from './share-cuts.js';

/** A method's cuts at one multiple of the in-domain share, over the mixes. */
export interface ShareSummary {
  factor: number;
  /** Mean and minimum over the mixes of the in-domain share of kept characters; the mix with the minimum. */
  precisionMean: number;
  precisionMin: number;
  worst: string;
  /** Mean over the mixes of the share of in-domain characters kept. */
  recallMean: number;
}

export interface SuiteRow {
  method: string;
  /** Spec name -> in-domain share of kept characters (undefined when the spec lacks the method). */
  byMix: Record<string, number | undefined>;
  mean: number;
  min: number;
  /** Mix with the minimum. */
  worst: string;
  /** Scoring + fitting seconds over all mixes. */
  seconds: number;
  /**
   * The row is given the user's word (text to avoid, or the inspect + --avoid loop played by
   * the labels): a measure of that word, not a method a default could be, so never a
   * leave-one-domain-out candidate.
   */
  usersWord?: boolean;
  /** At 0.5x, 1x and 2x the in-domain share: where every mix has the method's cuts. */
  atShare?: ShareSummary[];
}

export interface SuiteSummary {
  mixes: string[];
  rows: SuiteRow[];
}

/**
 * A method's row from its share on each mix: the minimum and the mix that has it, and the
 * mean of `values` (the shares themselves; over draws, every draw's share of every mix).
 */
function suiteRow(method: string, mixes: string[], byMix: Record<string, number | undefined>, values: number[], seconds: number, usersWord: boolean): SuiteRow {
  let worst = '';
  let min = Infinity;
  for (const s of mixes) {
    const v = byMix[s];
    if (v !== undefined && v < min) {
      min = v;
      worst = s;
    }
  }
  return { method, byMix, mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN, min: values.length ? min : NaN, worst, seconds, ...(usersWord ? { usersWord } : {}) };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Per factor: mean and minimum precision, mean recall over the mixes (each mix's cuts in the
 * same factor order). Undefined when a mix lacks the method or its cuts: a mean over some
 * mixes would not compare with one over all.
 */
export function summarizeShareCuts(perMix: Array<{ mix: string; cuts: ShareCut[] | undefined }>): ShareSummary[] | undefined {
  const first = perMix[0]?.cuts;
  if (!first || perMix.some((p) => p.cuts?.length !== first.length)) return undefined;
  return first.map((c, k) => {
    let worst = '';
    let min = Infinity;
    for (const p of perMix) {
      const v = (p.cuts as ShareCut[])[k]!.precisionChars;
      if (v < min) {
        min = v;
        worst = p.mix;
      }
    }
    return {
      factor: c.factor,
      precisionMean: mean(perMix.map((p) => (p.cuts as ShareCut[])[k]!.precisionChars)),
      precisionMin: min,
      worst,
      recallMean: mean(perMix.map((p) => (p.cuts as ShareCut[])[k]!.recallChars)),
    };
  });
}

/** One row per method title (in first-seen order), one column per spec. */
export function summarizeSuite(results: EvalResult[]): SuiteSummary {
  const mixes = results.map((r) => r.spec);
  const titles: string[] = [];
  for (const r of results) for (const m of r.methods) if (!titles.includes(m.name)) titles.push(m.name);
  const rows = titles.map((method) => {
    const byMix: Record<string, number | undefined> = {};
    let seconds = 0;
    let usersWord = false;
    for (const r of results) {
      const m = r.methods.find((x) => x.name === method);
      byMix[r.spec] = m?.precisionChars;
      seconds += m?.seconds ?? 0;
      usersWord ||= !!m?.keptGroups || m?.avoidSentences !== undefined;
    }
    const row = suiteRow(method, mixes, byMix, mixes.map((s) => byMix[s]).filter((v): v is number => v !== undefined), seconds, usersWord);
    const atShare = summarizeShareCuts(results.map((r) => ({ mix: r.spec, cuts: r.methods.find((x) => x.name === method)?.atShare })));
    return atShare ? { ...row, atShare } : row;
  });
  return { mixes, rows };
}

/**
 * Leave-one-domain-out: for each mix, the method with the best minimum over the OTHER
 * mixes, and what it keeps on the one left out. A choice rule that is honest about unseen
 * domains is judged by the minimum of this column.
 */
export function leaveOneOut(summary: SuiteSummary, candidates?: string[]): Array<{ heldOut: string; chosen: string; score: number }> {
  const rows = summary.rows.filter((r) => (candidates ? candidates.includes(r.method) : !r.usersWord));
  return summary.mixes.map((heldOut) => {
    let best: SuiteRow | undefined;
    let bestMin = -Infinity;
    for (const r of rows) {
      const others = summary.mixes.filter((s) => s !== heldOut).map((s) => r.byMix[s]);
      if (others.some((v) => v === undefined)) continue;
      const m = Math.min(...(others as number[]));
      if (m > bestMin) {
        bestMin = m;
        best = r;
      }
    }
    return { heldOut, chosen: best?.method ?? '', score: best?.byMix[heldOut] ?? NaN };
  });
}

const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`);

function grid(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c >= 1 ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number))).join('  ').trimEnd()).join('\n');
}

/** Short column names: "suite-bio-chemprot" -> "bio-chemprot". */
function shortName(spec: string): string {
  return spec.replace(/^suite-/, '');
}

/** The share kept: one figure, or the most common one and the mixes that keep another. */
function keepsOf(results: EvalResult[]): string {
  if (results.length > 0 && results.every((r) => r.keepRule === 'share')) return `each mix's in-domain share of ${results[0]?.keepBy ?? 'sentences'}`;
  const count = new Map<number, number>();
  for (const r of results) count.set(r.keep, (count.get(r.keep) ?? 0) + 1);
  const common = [...count].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
  const others = results.filter((r) => r.keep !== common).map((r) => `${shortName(r.spec)} ${pct(r.keep)}`);
  const unit = ` of ${results[0]?.keepBy ?? 'sentences'}`;
  return others.length ? `${pct(common)}${unit}; ${others.join(', ')}` : `${pct(common)}${unit}`;
}

/**
 * Suites whose every spec keeps "share": each method's one fit cut at 0.5x, 1x and 2x each
 * mix's in-domain share; precision mean and minimum, recall mean. (Suites with a fixed keep
 * have the cuts in --json only: their table is about their own keep.)
 */
function shareTable(summary: SuiteSummary, keepBy: string): string[] {
  const factors = summary.rows.find((r) => r.atShare)?.atShare?.map((c) => c.factor) ?? [];
  if (factors.length === 0) return [];
  const rows: string[][] = [['method', ...factors.flatMap((f) => [`${factorLabel(f)} mean`, `${factorLabel(f)} min`, `${factorLabel(f)} recall`])]];
  for (const r of summary.rows) rows.push([r.method, ...factors.flatMap((_, k) => (r.atShare?.[k] ? [pct(r.atShare[k].precisionMean), pct(r.atShare[k].precisionMin), pct(r.atShare[k].recallMean)] : ['-', '-', '-']))]);
  return ['', `at ${factors.map(factorLabel).join(', ')} each mix's in-domain share of ${keepBy} (one fit per method, sized for 1x): in-domain share of kept characters, mean and min over the mixes; recall: mean share of in-domain characters kept`, grid(rows)];
}

/**
 * Methods x mixes, then mean and minimum; then leave-one-domain-out. `note` replaces the
 * measure's description in the heading and `shares: false` drops the mixes' in-domain
 * shares (the summary over draws holds worst cases, and each draw has its own shares).
 */
export function formatSuite(summary: SuiteSummary, results: EvalResult[], heading: string, opts: { note?: string; shares?: boolean } = {}): string {
  const head = [`${heading}: ${opts.note ?? 'in-domain share of kept characters'} (keep ${keepsOf(results)}, segments of ${results[0]?.segment ?? '-'})`, ''];
  const rows: string[][] = [['method', ...summary.mixes.map(shortName), 'mean', 'min', 'seconds']];
  // Random keeps about this: the in-domain share of the mix's characters (segment bytes).
  const charShare = (r: EvalResult) => (r.mix.find((m) => m.label === r.inDomain)?.bytes ?? 0) / Math.max(1, r.mix.reduce((a, m) => a + m.bytes, 0));
  if (opts.shares !== false) rows.push(['(in-domain share of mix)', ...results.map((r) => pct(charShare(r))), '', '', '']);
  for (const r of summary.rows) rows.push([r.method, ...summary.mixes.map((s) => pct(r.byMix[s])), pct(r.mean), pct(r.min), r.seconds.toFixed(1)]);
  const shares = results.length > 0 && results.every((r) => r.keepRule === 'share') ? shareTable(summary, results[0]?.keepBy ?? 'sentences') : [];
  // Leaving out the only mix leaves nothing to choose by.
  if (summary.mixes.length < 2) return [...head, grid(rows), ...shares].join('\n') + '\n';
  const loo = leaveOneOut(summary);
  const looLines = loo.map((l) => `  ${shortName(l.heldOut)}: ${l.chosen || '-'} keeps ${pct(l.score)}`);
  const looMin = Math.min(...loo.map((l) => l.score));
  const words = summary.rows.some((r) => r.usersWord) ? '; rows given the user\'s word (--avoid) are no candidates' : '';
  return [...head, grid(rows), ...shares, '', `leave-one-domain-out (method with the best minimum on the other mixes, scored on the one left out${words}; worst ${pct(looMin)}):`, ...looLines].join('\n') + '\n';
}

/**
 * The cuts at the share over draws of the same mixes: the mean of the draws' means (each over
 * the same mixes), the minimum of their minimums. Undefined unless every draw has them.
 */
function shareOverDraws(draws: Array<ShareSummary[] | undefined>): ShareSummary[] | undefined {
  const first = draws[0];
  if (!first || draws.some((d) => d?.length !== first.length)) return undefined;
  return first.map((c, k) => {
    const at = draws.map((d) => (d as ShareSummary[])[k]!);
    const lowest = at.reduce((a, b) => (b.precisionMin < a.precisionMin ? b : a));
    return { factor: c.factor, precisionMean: mean(at.map((x) => x.precisionMean)), precisionMin: lowest.precisionMin, worst: lowest.worst, recallMean: mean(at.map((x) => x.recallMean)) };
  });
}

/**
 * Several draws of the same suite (`tadpole eval --draws N`: seeds S, S+1, ...; each draws
 * every mix's documents, task sentences and general sample anew). One draw's minimum moved by
 * up to twelve points between draws on the transfer mixes (docs/research.md,
 * "Another draw of the suite"), so a choice by the minimum looks at every draw: per method and
 * mix, the WORST share over the draws; the mean over every draw and mix; the minimum over all.
 */
export function summarizeDraws(draws: SuiteSummary[]): SuiteSummary {
  const mixes = draws[0]?.mixes ?? [];
  const titles: string[] = [];
  for (const d of draws) for (const r of d.rows) if (!titles.includes(r.method)) titles.push(r.method);
  const rows = titles.map((method) => {
    const perDraw = draws.map((d) => d.rows.find((r) => r.method === method));
    const byMix: Record<string, number | undefined> = {};
    const all: number[] = [];
    for (const s of mixes) {
      const vals = perDraw.map((r) => r?.byMix[s]);
      // A method missing from one draw of a mix has no worst-case figure there.
      if (vals.some((v) => v === undefined)) continue;
      byMix[s] = Math.min(...(vals as number[]));
      all.push(...(vals as number[]));
    }
    const row = suiteRow(method, mixes, byMix, all, perDraw.reduce((a, r) => a + (r?.seconds ?? 0), 0), perDraw.some((r) => r?.usersWord));
    const atShare = shareOverDraws(perDraw.map((r) => r?.atShare));
    return atShare ? { ...row, atShare } : row;
  });
  return { mixes, rows };
}
