/**
 * Scores a sentence splitter against the English golden cases in
 * shared/corpora/sentence-golden/golden_en.jsonl (Pragmatic Segmenter, pySBD, syntok).
 * A case passes when the list of `text.slice(start, end).trim()` equals `expected`
 * (each trimmed, as pySBD compares) exactly. Used by the tests and the benchmark.
 */
import { splitSentences } from './sentences.js';

export interface GoldenCase {
  id: string;
  group: string;
  text: string;
  expected: string[];
  options?: { clean?: boolean; doc_type?: string };
  upstream_status?: string;
}

export interface SubsetScore {
  total: number;
  exact: number;
  /** Cases no splitter that only slices the input can pass (expected text was cleaned). */
  needsCleaning: number;
  /** Exact matches among the cases slicing can reach. */
  exactReachable: number;
  failing: string[];
}

export interface GoldenReport {
  /** (a) Golden Rules, upstream-passing cases only (skipped/xfail left out). */
  rules: SubsetScore;
  /** (b) Golden Rules including upstream skipped/xfail cases. */
  rulesAll: SubsetScore;
  /** (c) every case. */
  all: SubsetScore;
}

export type Split = (text: string) => number[];

export function parseGoldenJsonl(jsonl: string): GoldenCase[] {
  const out: GoldenCase[] = [];
  for (const line of jsonl.split('\n')) {
    if (line.trim() === '') continue;
    out.push(JSON.parse(line) as GoldenCase);
  }
  return out;
}

export function isGoldenRule(c: GoldenCase): boolean {
  return c.group.includes('Golden Rules') || c.group === 'GOLDEN_EN_RULES_TEST_CASES';
}

export function isUpstreamFailure(c: GoldenCase): boolean {
  return c.upstream_status === 'skipped' || c.upstream_status === 'xfail';
}

/**
 * True when `expected` cannot be produced by slicing `text` into trimmed spans with only
 * whitespace between them (the upstream test cleaned the text: joined wrapped lines,
 * dropped markup or leader dots).
 */
export function needsCleaning(c: GoldenCase): boolean {
  const text = c.text;
  let pos = 0;
  for (const raw of c.expected) {
    const sentence = raw.trim();
    if (sentence === '') continue;
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
    if (!text.startsWith(sentence, pos)) return true;
    pos += sentence.length;
  }
  return text.slice(pos).trim() !== '';
}

export function sentencesOf(text: string, split: Split = splitSentences): string[] {
  const spans = split(text);
  const out: string[] = [];
  for (let k = 0; k < spans.length; k += 2) {
    out.push(text.slice(spans[k], spans[k + 1]).trim());
  }
  return out;
}

export function passes(c: GoldenCase, split: Split = splitSentences): boolean {
  const got = sentencesOf(c.text, split);
  const want = c.expected.map((s) => s.trim()).filter((s) => s !== '');
  return got.length === want.length && got.every((s, k) => s === want[k]);
}

function emptyScore(): SubsetScore {
  return { total: 0, exact: 0, needsCleaning: 0, exactReachable: 0, failing: [] };
}

function add(score: SubsetScore, c: GoldenCase, ok: boolean, unreachable: boolean): void {
  score.total++;
  if (unreachable) score.needsCleaning++;
  if (ok) {
    score.exact++;
    if (!unreachable) score.exactReachable++;
  } else {
    score.failing.push(c.id);
  }
}

export function evaluateGolden(cases: GoldenCase[], split: Split = splitSentences): GoldenReport {
  const report: GoldenReport = { rules: emptyScore(), rulesAll: emptyScore(), all: emptyScore() };
  for (const c of cases) {
    const ok = passes(c, split);
    const unreachable = needsCleaning(c);
    add(report.all, c, ok, unreachable);
    if (isGoldenRule(c)) {
      add(report.rulesAll, c, ok, unreachable);
      if (!isUpstreamFailure(c)) add(report.rules, c, ok, unreachable);
    }
  }
  return report;
}

/** `exact/total` as a fraction (0 for an empty subset). */
export function accuracy(score: SubsetScore): number {
  return score.total === 0 ? 0 : score.exact / score.total;
}
