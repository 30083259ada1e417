/** A small real mix for the selector tests: bio (held-out ChemProt) vs news (BBC), ChemProt as the task. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Rng } from '../../src/core/rng.js';
import { sharedDir, sharedPath } from '../../src/core/shared.js';
import { loadSpec, type EvalSpec } from '../../src/eval/spec.js';

export const HAVE_SHARED = sharedDir() !== undefined;

function jsonlHead(parts: string[], n: number): Record<string, unknown>[] {
  const text = gunzipSync(readFileSync(sharedPath('corpora', ...parts))).toString('utf8');
  const out: Record<string, unknown>[] = [];
  let start = 0;
  while (out.length < n) {
    const end = text.indexOf('\n', start);
    if (end < 0) break;
    const line = text.slice(start, end);
    if (line.trim()) out.push(JSON.parse(line) as Record<string, unknown>);
    start = end + 1;
  }
  return out;
}

const strip = (s: string): string => s.replace(/<<\s*|\s*>>|\[\[\s*|\s*\]\]/g, '').replace(/\s+/g, ' ').trim();
const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

export interface SmallMix {
  sentences: string[];
  inDomain: boolean[];
  task: string[];
  general: string[];
}

let cached: SmallMix | undefined;

/** 200 bio (held-out ChemProt test) + 200 news (BBC) sentences interleaved (seeded), 400 ChemProt task sentences, a 100-sentence general sample. */
export function smallMix(): SmallMix {
  if (cached) return cached;
  // In-domain corpus = held-out ChemProt test sentences: same domain as the task, never task data.
  const bio = [...new Set(jsonlHead(['task-chemprot', 'test.jsonl.gz'], 1200).map((d) => strip(String(d.text))))].filter((s) => words(s) >= 5).slice(0, 200);
  const news = jsonlHead(['news-bbc', 'docs.jsonl.gz'], 40)
    .flatMap((d) => String(d.text).split(/\n+|(?<=[.!?])\s+(?=[A-Z])/).map((s) => s.trim()))
    .filter((s) => words(s) >= 5)
    .slice(0, 200);
  const task = [
    ...new Set(
      jsonlHead(['task-chemprot', 'train.jsonl.gz'], 1500).map((d) => strip(String(d.text))),
    ),
  ].slice(0, 400);
  const rng = new Rng(3);
  const order = rng.shuffle([...bio.map((s) => [s, true] as const), ...news.map((s) => [s, false] as const)]);
  const sentences = order.map((x) => x[0]);
  const inDomain = order.map((x) => x[1]);
  const general = rng.sample(sentences.length, 100).map((i) => sentences[i] as string);
  cached = { sentences, inDomain, task, general };
  return cached;
}

/** Share of in-domain sentences among the `keep` lowest scores (ties by position). */
export function inDomainShareOfKept(scores: Float64Array, inDomain: boolean[], keep = 0.2): number {
  const order = Array.from(scores, (_, i) => i).sort((a, b) => (scores[a] as number) - (scores[b] as number) || a - b);
  const kept = order.slice(0, Math.round(keep * scores.length));
  return kept.filter((i) => inDomain[i]).length / kept.length;
}

export async function scoreInBatches(score: (s: string[]) => Promise<Float64Array>, sentences: string[], batch: number): Promise<Float64Array> {
  const out = new Float64Array(sentences.length);
  for (let i = 0; i < sentences.length; i += batch) out.set(await score(sentences.slice(i, i + batch)), i);
  return out;
}

/** A suite spec (corpora/suite/NAME.json) cut down for tests: a 600 kB mix, 1,500 task sentences, an 8,000-sentence general sample. */
export async function smallSuiteSpec(name: string, methods: EvalSpec['methods']): Promise<EvalSpec> {
  const spec = await loadSpec(join(process.cwd(), 'corpora/suite', `${name}.json`));
  return { ...spec, mixBytes: 600_000, maxTaskSentences: 1500, generalSample: 8000, methods };
}
