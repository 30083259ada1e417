/**
 * The `tadpole inspect` + `fit --avoid` loop in the eval, with the mix's labels playing the
 * user: the kept text of a method is grouped as `inspect` groups it (inspect/groups.ts); the
 * groups whose characters are at least `outOfDomain` from other sources than the in-domain
 * one are what a user would recognise as not theirs; a seeded `sentences` of them are avoided
 * in a refit. Measures what the loop can do, not what a user will pick; with `pick: "offered"`
 * the groups avoided are those the report offers an --avoid for: what a user who follows the
 * tool does.
 */
import { Rng } from '../core/rng.js';
import { groupText, offersAvoid } from '../inspect/groups.js';
import { taskWords } from '../inspect/task-words.js';
import type { EvalEngine } from './engine.js';
import type { KeptGroupsSpec } from './kept-groups-spec.js';

export interface KeptGroupsPick {
  /** Each group's share of the kept text, the out-of-domain share of its characters and (with the task) the share of the task's sentences nearest it, largest first. */
  groups: Array<{ share: number; outOfDomain: number; taskShare?: number }>;
  /** 1-based ids of the groups avoided. */
  avoided: number[];
  /** The sentences passed to the refit as text to avoid. */
  avoid: string[];
}

/** Every sentence of the mix, in the order the segments are scored (the eval's mix is JSONL). */
export async function mixSentences(engine: EvalEngine, mixFile: string, segment: number): Promise<string[]> {
  const out: string[] = [];
  const recorder = {
    method: 'record',
    score: async (s: string[]) => {
      for (const x of s) out.push(x);
      return new Float64Array(s.length);
    },
    dispose: async () => {},
  };
  for await (const batch of engine.segmentScores([mixFile], recorder, segment)) void batch;
  return out;
}

/**
 * `sentences`: the mix's sentences in segment order; `weights[i]`: segment i's sentence count;
 * `labels[i]`: its source; `kept[i]`: whether the cut kept it. With `task`, the kept text is
 * grouped as `inspect --task` groups it: the pieces unlike the task apart (inspect/task-words.ts).
 */
export function pickKeptGroups(sentences: readonly string[], seg: { weights: Float64Array; labels: Uint8Array }, kept: Uint8Array, inIdx: number, spec: KeptGroupsSpec, seed: number, task?: readonly string[]): KeptGroupsPick {
  const text: string[] = [];
  const piece: number[] = [];
  const inDomain: boolean[] = [];
  let at = 0;
  for (let i = 0; i < seg.weights.length; i++) {
    const n = seg.weights[i] as number;
    if (kept[i]) {
      for (let j = 0; j < n; j++) {
        text.push(sentences[at + j] as string);
        piece.push(i);
        inDomain.push(seg.labels[i] === inIdx);
      }
    }
    at += n;
  }
  if (text.length === 0) return { groups: [], avoided: [], avoid: [] };
  const groups = groupText(text, piece, { groups: spec.groups, seed, examples: 0, words: 0, ...(task?.length ? { taskWords: taskWords(task, seed), reference: task } : {}), ...(spec.likeGroups !== undefined ? { likeGroups: spec.likeGroups } : {}) });
  const summary = groups.map((g) => {
    let out = 0;
    for (const k of g.indices) if (!inDomain[k]) out += (text[k] as string).length;
    return { share: g.share, outOfDomain: g.chars > 0 ? out / g.chars : 0, ...(g.referenceShare !== undefined ? { taskShare: g.referenceShare } : {}) };
  });
  const avoided = spec.pick === 'offered' ? groups.filter(offersAvoid) : groups.filter((_, i) => (summary[i]?.outOfDomain ?? 0) >= spec.outOfDomain);
  const pool = avoided.flatMap((g) => g.sentences);
  const avoid = new Rng(seed + 7).sample(pool.length, Math.min(spec.sentences, pool.length)).map((i) => pool[i] as string);
  return { groups: summary, avoided: avoided.map((g) => g.id), avoid };
}
